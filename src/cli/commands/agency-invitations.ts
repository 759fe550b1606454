import type { Command } from 'commander';
import type { CommandContext, JsonOpt } from '../io.ts';
import { stateCodes, wholeNumber } from '../options.ts';
import { keyValues, show, table } from '../output.ts';

/**
 * How a producer joins an agency with its own agreement: the manager invites with the terms, the
 * producer accepts with its own agent key (ADMIN_API_KEY=lgk_…), and may leave the same way.
 */
export function addAgencyInvitationCommands(agencies: Command, ctx: CommandContext): void {
  invite(agencies, ctx);
  invitations(agencies, ctx);
  join(agencies, ctx);
  memberships(agencies, ctx);
}

type InviteOpts = JsonOpt & { states: string[]; weight?: number; cap?: number; paused?: boolean };

function invite(agencies: Command, ctx: CommandContext): void {
  agencies
    .command('invite')
    .description('invite a producer with its terms; prints the invitation to hand to the producer')
    .argument('<agency_id>')
    .requiredOption('--states <codes>', 'where it is licensed: two-letter codes, e.g. TX,OK', (v) =>
      stateCodes(v, '--states'),
    )
    .option('--weight <n>', 'its share of the rotation (default 1)', (v) => wholeNumber(v, '--weight', 100))
    .option('--cap <n>', 'leads a day at most (default none)', (v) => wholeNumber(v, '--cap', 100_000))
    .option('--paused', 'joins paused: skipped by the rotation until made active')
    .option('--json', 'print the API response as JSON')
    .action(async (agencyId: string, opts: InviteOpts) => {
      const made = await ctx.client().request('POST', '/agencies/{agency_id}/invitations', {
        path: { agency_id: agencyId },
        body: {
          licensed_states: opts.states,
          weight: opts.weight,
          daily_cap: opts.cap,
          active: opts.paused ? false : undefined,
        },
      });
      ctx.print(opts, made, () =>
        [
          keyValues(made),
          '',
          `The producer accepts it once, before ${show(made.expires_at)}, with its own agent key:`,
          `  leadgate agencies join ${show(made.agency_id)} ${show(made.invitation_id)}`,
        ].join('\n'),
      );
    });
}

function invitations(agencies: Command, ctx: CommandContext): void {
  agencies
    .command('invitations')
    .description('the agency’s invitations not yet accepted nor expired')
    .argument('<agency_id>')
    .option('--json', 'print the API response as JSON')
    .action(async (agencyId: string, opts: JsonOpt) => {
      const data = await ctx
        .client()
        .request('GET', '/agencies/{agency_id}/invitations', { path: { agency_id: agencyId } });
      ctx.print(opts, data, () =>
        data.invitations.length === 0
          ? 'No open invitations.'
          : table(
              ['INVITATION_ID', 'STATES', 'WEIGHT', 'DAILY_CAP', 'EXPIRES_AT'],
              data.invitations.map((i) =>
                [i.invitation_id, states(i.licensed_states), i.weight, i.daily_cap, i.expires_at].map(show),
              ),
            ),
      );
    });
}

function join(agencies: Command, ctx: CommandContext): void {
  agencies
    .command('join')
    .description('accept an invitation, with the invited producer’s own agent key')
    .argument('<agency_id>')
    .argument('<invitation_id>')
    .option('--json', 'print the API response as JSON')
    .action(async (agencyId: string, invitationId: string, opts: JsonOpt) => {
      const joined = await ctx
        .client()
        .request('POST', '/agencies/{agency_id}/invitations/{invitation_id}/accept', {
          path: { agency_id: agencyId, invitation_id: invitationId },
        });
      ctx.print(opts, joined, () =>
        [`Joined ${show(joined.agency_name)} as a producer.`, keyValues(joined)].join('\n'),
      );
    });
}

function memberships(agencies: Command, ctx: CommandContext): void {
  agencies
    .command('memberships')
    .description('the agencies an agent is a producer of, with its terms in each')
    .requiredOption('--agent <agent_id>')
    .option('--json', 'print the API response as JSON')
    .action(async (opts: JsonOpt & { agent: string }) => {
      const data = await ctx
        .client()
        .request('GET', '/agents/{agent_id}/memberships', { path: { agent_id: opts.agent } });
      ctx.print(opts, data, () =>
        data.memberships.length === 0
          ? 'A producer of no agency.'
          : table(
              ['AGENCY_ID', 'STATES', 'WEIGHT', 'DAILY_CAP', 'ACTIVE', 'TODAY', 'NAME'],
              data.memberships.map((m) =>
                [
                  m.agency_id,
                  states(m.licensed_states),
                  m.weight,
                  m.daily_cap,
                  m.active ? 'yes' : 'paused',
                  m.assigned_today,
                  m.agency_name,
                ].map(show),
              ),
            ),
      );
    });
}

const states = (codes: unknown) => (Array.isArray(codes) ? codes.join(',') : codes);
