import type { Command } from 'commander';
import { CliError } from '../api-client.ts';
import type { CommandContext, JsonOpt } from '../io.ts';
import { segment } from '../io.ts';
import { wholeNumber } from '../options.ts';
import { keyValues, show, table, type Row } from '../output.ts';
import { addAgencyInvitationCommands } from './agency-invitations.ts';
import { addAgencyMemberCommands } from './agency-members.ts';
import { issuedSource } from './sources.ts';

/** The API's bounds of a claim time: a week of minutes. */
const CLAIM_MINUTES_MAX = 10_080;

const claimMinutes = (v: string) => wholeNumber(v, '--claim-minutes', CLAIM_MINUTES_MAX);

/** Agencies: producers who share lead sources, routed lead by lead (docs/routing.md). */
export function addAgencyCommands(program: Command, ctx: CommandContext): void {
  const agencies = program
    .command('agencies')
    .description('agencies: producers who share lead sources, each lead routed to one');
  createAgency(agencies, ctx);
  showAgency(agencies, ctx);
  listAgencies(agencies, ctx);
  updateAgency(agencies, ctx);
  addAgencyMemberCommands(agencies, ctx);
  addAgencyInvitationCommands(agencies, ctx);
  agencySource(agencies, ctx);
}

type CreateOpts = JsonOpt & { fallback: string; timezone?: string; claimMinutes?: number };

function createAgency(agencies: Command, ctx: CommandContext): void {
  agencies
    .command('create')
    .description('create an agency; its fallback producer takes what nobody else may, and manages it')
    .argument('<name>')
    .requiredOption('--fallback <agent_id>', 'the fallback producer')
    .option('--timezone <tz>', 'IANA time zone of the day a daily cap counts (default: the fallback’s)')
    .option('--claim-minutes <n>', 'move a lead not called within N minutes of calling hours', claimMinutes)
    .option('--json', 'print the API response as JSON')
    .action(async (name: string, opts: CreateOpts) => {
      const agency = await ctx.client().request<Row>('POST', '/agencies', {
        name,
        fallback_agent_id: opts.fallback,
        ...(opts.timezone ? { timezone: opts.timezone } : {}),
        ...(opts.claimMinutes ? { claim_minutes: opts.claimMinutes } : {}),
      });
      ctx.print(opts, agency, () => keyValues(agency));
    });
}

function showAgency(agencies: Command, ctx: CommandContext): void {
  agencies
    .command('show')
    .description('show an agency and its producers: licenses, weights, caps and share of today’s leads')
    .argument('<agency_id>')
    .option('--json', 'print the API response as JSON')
    .action(async (agencyId: string, opts: JsonOpt) => {
      const agency = await ctx
        .client()
        .request<Row & { members: Row[] }>('GET', `/agencies/${segment(agencyId)}`);
      ctx.print(opts, agency, () => renderAgency(agency));
    });
}

/** The agency's fields, then a table of its producers with each one's share of the day's leads. */
function renderAgency({ members, ...agency }: Row & { members: Row[] }): string {
  const lines = [keyValues(agency), ''];
  if (members.length === 0)
    return [...lines, 'No producers: every lead goes to the fallback producer.'].join('\n');
  const total = members.reduce((sum, m) => sum + Number(m.assigned_today), 0);
  const share = (n: unknown) => (total === 0 ? '-' : `${Math.round((100 * Number(n)) / total)}%`);
  lines.push(
    `Producers (leads today in ${show(agency.timezone)}: ${total}):`,
    table(
      ['AGENT_ID', 'STATES', 'WEIGHT', 'DAILY_CAP', 'ACTIVE', 'TODAY', 'SHARE', 'NAME'],
      members.map((m) => [
        show(m.agent_id),
        Array.isArray(m.licensed_states) ? m.licensed_states.join(',') : show(m.licensed_states),
        show(m.weight),
        show(m.daily_cap),
        m.active ? 'yes' : 'paused',
        show(m.assigned_today),
        share(m.assigned_today),
        show(m.name),
      ]),
    ),
  );
  return lines.join('\n');
}

function listAgencies(agencies: Command, ctx: CommandContext): void {
  agencies
    .command('list')
    .description('the agencies an agent is the fallback producer of')
    .requiredOption('--agent <agent_id>', 'the agent')
    .option('--json', 'print the API response as JSON')
    .action(async (opts: JsonOpt & { agent: string }) => {
      const data = await ctx
        .client()
        .request<{ agencies: Row[] }>('GET', `/agents/${segment(opts.agent)}/agencies`);
      ctx.print(opts, data, () =>
        data.agencies.length === 0
          ? 'No agencies: the agent is the fallback producer of none.'
          : table(
              ['AGENCY_ID', 'TIMEZONE', 'CLAIM_MINUTES', 'CREATED_AT', 'NAME'],
              data.agencies.map((a) =>
                [a.agency_id, a.timezone, a.claim_minutes, a.created_at, a.name].map(show),
              ),
            ),
      );
    });
}

type UpdateOpts = JsonOpt & {
  name?: string;
  fallback?: string;
  timezone?: string;
  claimMinutes?: number;
  /** false with --no-claim. */
  claim: boolean;
};

function updateAgency(agencies: Command, ctx: CommandContext): void {
  agencies
    .command('update')
    .description('rename an agency; change its fallback producer, time zone or claim time')
    .argument('<agency_id>')
    .option('--name <name>', 'the new name')
    .option('--fallback <agent_id>', 'the new fallback producer')
    .option('--timezone <tz>', 'IANA time zone of the day a daily cap counts')
    .option('--claim-minutes <n>', 'move a lead not called within N minutes of calling hours', claimMinutes)
    .option('--no-claim', 'stop the claim timer: a producer keeps a lead however long it waits')
    .option('--json', 'print the API response as JSON')
    .action(async (agencyId: string, opts: UpdateOpts) => {
      if (!opts.claim && opts.claimMinutes !== undefined)
        throw new CliError('give --claim-minutes N or --no-claim, not both');
      const body = {
        ...(opts.name !== undefined ? { name: opts.name } : {}),
        ...(opts.fallback !== undefined ? { fallback_agent_id: opts.fallback } : {}),
        ...(opts.timezone !== undefined ? { timezone: opts.timezone } : {}),
        ...(opts.claimMinutes !== undefined ? { claim_minutes: opts.claimMinutes } : {}),
        ...(!opts.claim ? { claim_minutes: null } : {}),
      };
      if (Object.keys(body).length === 0)
        throw new CliError(
          'give what to change: --name, --fallback, --timezone, --claim-minutes or --no-claim',
        );
      const agency = await ctx.client().request<Row>('PATCH', `/agencies/${segment(agencyId)}`, body);
      ctx.print(opts, agency, () => keyValues(agency));
    });
}

function agencySource(agencies: Command, ctx: CommandContext): void {
  agencies
    .command('source')
    .description(
      'create a lead source whose leads are routed to the agency’s producers; prints its token once',
    )
    .argument('<agency_id>')
    .argument('<name>', 'the source’s name, e.g. the vendor')
    .option('--json', 'print the API response as JSON')
    .action(async (agencyId: string, name: string, opts: JsonOpt) => {
      const source = await ctx
        .client()
        .request<Row>('POST', `/agencies/${segment(agencyId)}/sources`, { name });
      ctx.print(opts, source, () =>
        issuedSource(source, ['source_id', 'agency_id', 'agent_id', 'name', 'active', 'created_at']),
      );
    });
}
