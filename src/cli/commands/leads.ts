import type { Command } from 'commander';
import type { CommandContext, JsonOpt } from '../io.ts';
import type { AdminQuery } from '../api-client.ts';
import { show, table } from '../output.ts';
import { renderLead } from '../render.ts';

export function addLeadCommands(program: Command, ctx: CommandContext): void {
  const leads = program.command('leads').description('leads an agent received');
  listLeads(leads, ctx);
  showLead(leads, ctx);
}

/** A status as typed: the server checks it, and its refusal names the statuses. */
type LeadStatus = AdminQuery<'GET', '/agents/{agent_id}/leads'>['status'];

type ListOpts = JsonOpt & { agent: string; status?: string; q?: string; limit?: string; cursor?: string };

function listLeads(leads: Command, ctx: CommandContext): void {
  leads
    .command('list')
    .description('list an agent’s leads, newest first')
    .requiredOption('--agent <agent_id>', 'the agent')
    .option('--status <status>', 'New, Scheduled, Canceled, Contacted, Not interested or Bad number')
    .option('--q <text>', 'search name, email and phone')
    .option('--limit <n>', 'leads per page (default 50, max 200)')
    .option('--cursor <cursor>', 'the next_cursor of the previous page')
    .option('--json', 'print the API response as JSON')
    .action(async (opts: ListOpts) => {
      const data = await ctx.client().request('GET', '/agents/{agent_id}/leads', {
        path: { agent_id: opts.agent },
        query: { status: opts.status as LeadStatus, q: opts.q, limit: opts.limit, cursor: opts.cursor },
      });
      ctx.print(opts, data, () => {
        if (data.leads.length === 0) return 'No leads.';
        const rows = data.leads.map((l) =>
          [l.lead_id, l.created_at, l.status, l.name, l.phone, l.email].map(show),
        );
        const lines = [table(['LEAD_ID', 'CREATED_AT', 'STATUS', 'NAME', 'PHONE', 'EMAIL'], rows)];
        if (data.next_cursor) {
          lines.push('', `More: leadgate leads list --agent ${opts.agent} --cursor ${data.next_cursor}`);
        }
        return lines.join('\n');
      });
    });
}

function showLead(leads: Command, ctx: CommandContext): void {
  leads
    .command('show')
    .description('show a lead with its appointments and history')
    .argument('<lead_id>')
    .option('--json', 'print the API response as JSON')
    .action(async (leadId: string, opts: JsonOpt) => {
      const lead = await ctx.client().request('GET', '/leads/{lead_id}', { path: { lead_id: leadId } });
      ctx.print(opts, lead, () => renderLead(lead));
    });
}
