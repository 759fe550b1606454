import type { Command } from 'commander';
import { CliError } from '../api-client.ts';
import type { CommandContext, JsonOpt } from '../io.ts';
import { show, table } from '../output.ts';

/** Conversations (docs/conversations.md): the inbox, a lead's thread, the agent's answer. */
export function addConversationCommands(program: Command, ctx: CommandContext): void {
  program
    .command('conversations')
    .description('the inbox: every lead that wrote, unread first, then the newest')
    .requiredOption('--agent <agent_id>', 'the agent')
    .option('--json', 'print the API response as JSON')
    .action(async (opts: JsonOpt & { agent: string }) => {
      const data = await ctx
        .client()
        .request('GET', '/agents/{agent_id}/conversations', { path: { agent_id: opts.agent } });
      ctx.print(opts, data, () => {
        if (data.conversations.length === 0) return 'No conversations: no prospect has written yet.';
        const rows = data.conversations.map((c) => {
          const last = c.last_message;
          const said = `${last.direction === 'inbound' ? '' : 'you: '}${last.body}`;
          return [c.lead_id, c.unread, last.at, c.name, c.phone, said.slice(0, 60)].map(show);
        });
        return [
          `${data.unread} unread.`,
          table(['LEAD_ID', 'UNREAD', 'LAST_AT', 'NAME', 'PHONE', 'LAST_MESSAGE'], rows),
          '',
          'Read one: leadgate messages LEAD_ID',
        ].join('\n');
      });
    });

  program
    .command('messages')
    .description('a lead’s thread, oldest first; --send answers it, --read marks it read')
    .argument('<lead_id>')
    .option('--send <text>', 'text the lead (sent through the configured provider)')
    .option('--read', 'mark the lead’s replies read')
    .option('--json', 'print the API response as JSON')
    .action(async (leadId: string, opts: JsonOpt & { send?: string; read?: boolean }) => {
      if (opts.send !== undefined && opts.read) throw new CliError('give --send or --read, not both');
      const path = { lead_id: leadId };
      if (opts.send !== undefined) {
        const sent = await ctx
          .client()
          .request('POST', '/leads/{lead_id}/messages', { path, body: { body: opts.send } });
        return ctx.print(
          opts,
          sent,
          () => `Text ${show(sent.message_id)} ${show(sent.status)}: it goes out in a moment.`,
        );
      }
      if (opts.read) {
        const marked = await ctx.client().request('POST', '/leads/{lead_id}/messages/read', { path });
        return ctx.print(opts, marked, () => `${show(marked.marked)} replies marked read.`);
      }
      const data = await ctx.client().request('GET', '/leads/{lead_id}/messages', { path });
      ctx.print(opts, data, () =>
        data.messages.length === 0
          ? 'No messages yet.'
          : table(
              ['AT', 'BY', 'STATUS', 'TEXT'],
              data.messages.map((m) =>
                [
                  m.at,
                  m.by,
                  m.intent === 'contact_limits'
                    ? 'asks when to contact'
                    : m.intent === 'opt_out'
                      ? 'opted out'
                      : m.status,
                  m.body,
                ].map(show),
              ),
            ),
      );
    });
}
