import type { Command } from 'commander';
import { CliError, type AdminAnswer, type AdminBody } from '../api-client.ts';
import type { CommandContext, JsonOpt } from '../io.ts';
import { wholeNumber } from '../options.ts';
import { keyValues, show, table } from '../output.ts';
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
      const agency = await ctx.client().request('POST', '/agencies', {
        body: {
          name,
          fallback_agent_id: opts.fallback,
          timezone: opts.timezone || undefined,
          claim_minutes: opts.claimMinutes || undefined,
        },
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
        .request('GET', '/agencies/{agency_id}', { path: { agency_id: agencyId } });
      ctx.print(opts, agency, () => renderAgency(agency));
    });
}

/** The agency's fields, then a table of its producers with each one's share of the day's leads. */
function renderAgency({ members, ...agency }: AdminAnswer<'GET', '/agencies/{agency_id}'>): string {
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
        .request('GET', '/agents/{agent_id}/agencies', { path: { agent_id: opts.agent } });
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
      // An option not given is undefined, which JSON leaves out.
      const body: AdminBody<'PATCH', '/agencies/{agency_id}'> = {
        name: opts.name,
        fallback_agent_id: opts.fallback,
        timezone: opts.timezone,
        claim_minutes: opts.claim ? opts.claimMinutes : null,
      };
      if (Object.values(body).every((value) => value === undefined))
        throw new CliError(
          'give what to change: --name, --fallback, --timezone, --claim-minutes or --no-claim',
        );
      const agency = await ctx
        .client()
        .request('PATCH', '/agencies/{agency_id}', { path: { agency_id: agencyId }, body });
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
        .request('POST', '/agencies/{agency_id}/sources', { path: { agency_id: agencyId }, body: { name } });
      ctx.print(opts, source, () =>
        issuedSource(source, ['source_id', 'agency_id', 'agent_id', 'name', 'active', 'created_at']),
      );
    });
}
