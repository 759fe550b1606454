import type { Command } from 'commander';
import { CliError, type AdminAnswer, type AdminBody } from '../api-client.ts';
import type { CommandContext, JsonOpt } from '../io.ts';
import { stateCodes, wholeNumber } from '../options.ts';
import { keyValues, show, table } from '../output.ts';

/** An agency's producers, and its fallback queue: the leads nobody else could take, given by hand. */
export function addAgencyMemberCommands(agencies: Command, ctx: CommandContext): void {
  putMember(agencies, ctx);
  removeMember(agencies, ctx);
  fallbackQueue(agencies, ctx);
  assignLead(agencies, ctx);
}

type MemberOpts = JsonOpt & {
  states?: string[];
  weight?: number;
  /** false with --no-cap. */
  cap?: number | false;
  paused?: boolean;
  active?: boolean;
};

function putMember(agencies: Command, ctx: CommandContext): void {
  agencies
    .command('member')
    .description('add a producer to an agency, or change it; what is not given stays as it was')
    .argument('<agency_id>')
    .argument('<agent_id>', 'the producer (an agent)')
    .option('--states <codes>', 'where it is licensed: two-letter codes, e.g. TX,OK', (v) =>
      stateCodes(v, '--states'),
    )
    .option('--weight <n>', 'its share of the rotation (a new producer: 1)', (v) =>
      wholeNumber(v, '--weight', 100),
    )
    .option('--cap <n>', 'leads a day at most', (v) => wholeNumber(v, '--cap', 100_000))
    .option('--no-cap', 'no daily cap (a new producer: none)')
    .option('--paused', 'skipped by the rotation until --active')
    .option('--active', 'back in the rotation (a new producer: active)')
    .option('--json', 'print the API response as JSON')
    .action(async (agencyId: string, agentId: string, opts: MemberOpts) => {
      if (opts.paused && opts.active) throw new CliError('give --paused or --active, not both');
      // The API replaces a producer whole: start from what it has, so an option left out stays.
      const agency = await ctx
        .client()
        .request('GET', '/agencies/{agency_id}', { path: { agency_id: agencyId } });
      const had = agency.members.find((m) => String(m.agent_id) === agentId.toLowerCase());
      const states = opts.states ?? had?.licensed_states;
      if (states === undefined)
        throw new CliError(`give --states: ${agentId} is not a producer of the agency yet`);
      const weight = opts.weight ?? had?.weight;
      const cap = opts.cap === false ? null : (opts.cap ?? had?.daily_cap);
      const active = opts.paused ? false : opts.active ? true : had?.active;
      const body: AdminBody<'PUT', '/agencies/{agency_id}/members/{agent_id}'> = {
        licensed_states: states,
        weight,
        daily_cap: cap,
        active,
      };
      const member = await ctx.client().request('PUT', '/agencies/{agency_id}/members/{agent_id}', {
        path: { agency_id: agencyId, agent_id: agentId },
        body,
      });
      ctx.print(opts, member, () =>
        [`${had ? 'Changed' : 'Added'} producer ${show(member.name)}.`, keyValues(member)].join('\n'),
      );
    });
}

function removeMember(agencies: Command, ctx: CommandContext): void {
  agencies
    .command('remove-member')
    .description(
      'remove a producer from an agency (or leave it, with the producer’s own key); its leads stay its own',
    )
    .argument('<agency_id>')
    .argument('<agent_id>')
    .option('--json', 'print {"removed": true}')
    .action(async (agencyId: string, agentId: string, opts: JsonOpt) => {
      await ctx.client().request('DELETE', '/agencies/{agency_id}/members/{agent_id}', {
        path: { agency_id: agencyId, agent_id: agentId },
      });
      ctx.print(opts, { removed: true }, () => `Producer ${agentId} removed; the leads it has stay its own.`);
    });
}

function fallbackQueue(agencies: Command, ctx: CommandContext): void {
  agencies
    .command('queue')
    .description('the fallback queue: leads nobody else could take, still New, newest first')
    .argument('<agency_id>')
    .option('--json', 'print the API response as JSON')
    .action(async (agencyId: string, opts: JsonOpt) => {
      const data = await ctx
        .client()
        .request('GET', '/agencies/{agency_id}/fallback-queue', { path: { agency_id: agencyId } });
      ctx.print(opts, data, () =>
        data.leads.length === 0
          ? 'The fallback queue is empty.'
          : [
              table(
                ['LEAD_ID', 'CREATED_AT', 'STATE', 'NAME', 'MAY_TAKE_IT'],
                data.leads.map((l) => [
                  ...[l.lead_id, l.created_at, l.state ?? 'unknown', l.name].map(show),
                  mayTakeIt(l.licensed),
                ]),
              ),
              '',
              `Give one: leadgate agencies assign ${agencyId} LEAD_ID AGENT_ID`,
            ].join('\n'),
      );
    });
}

type FallbackLead = AdminAnswer<'GET', '/agencies/{agency_id}/fallback-queue'>['leads'][number];

/** The producers licensed in a lead's state, `Name (agent_id)`, or none. */
function mayTakeIt(producers: FallbackLead['licensed']): string {
  return producers.length === 0
    ? 'nobody licensed there'
    : producers.map((p) => `${show(p.name)} (${show(p.agent_id)})`).join(', ');
}

function assignLead(agencies: Command, ctx: CommandContext): void {
  agencies
    .command('assign')
    .description('give a lead of the fallback queue to a producer licensed in its state')
    .argument('<agency_id>')
    .argument('<lead_id>')
    .argument('<agent_id>', 'the producer')
    .option('--json', 'print the lead’s new routing as JSON')
    .action(async (agencyId: string, leadId: string, agentId: string, opts: JsonOpt) => {
      const routing = await ctx
        .client()
        .request('POST', '/agencies/{agency_id}/fallback-queue/{lead_id}/assign', {
          path: { agency_id: agencyId, lead_id: leadId },
          body: {
            agent_id: agentId,
          },
        });
      ctx.print(opts, routing, () =>
        [
          `Lead ${leadId} given to ${agentId}.`,
          keyValues(routing, ['rule', 'state', 'tried', 'assigned_at']),
        ].join('\n'),
      );
    });
}
