import type { Command } from 'commander';
import { CliError, type AdminAnswer } from '../api-client.ts';
import type { CommandContext, JsonOpt } from '../io.ts';
import { keyValues, show, table, type Row } from '../output.ts';
import { wholeNumber } from '../options.ts';
import { addMappingCommand } from './mapping.ts';
import { addMetaCommand } from './meta.ts';
import { addTermsCommand } from './source-terms.ts';

/** A source's fields as a change answers them, in the order they are shown. */
const SOURCE_KEYS: readonly string[] = [
  'source_id',
  'agent_id',
  'name',
  'active',
  'has_signing_key',
  'rate_limit_rps',
  'rate_limit_burst',
  'has_google_key',
  'created_at',
  'updated_at',
] satisfies (keyof AdminAnswer<'PATCH', '/sources/{source_id}'>)[];
const TOKEN_NOTE = 'Keep the token now: it is stored only as a hash and is not shown again.';

/** A source just made, with its token and webhook URL: shown this once. */
export function issuedSource(source: Row, keys: readonly string[] = SOURCE_KEYS): string {
  return [keyValues(source, [...keys, 'token', 'webhook_url']), '', TOKEN_NOTE].join('\n');
}

export function addSourceCommands(program: Command, ctx: CommandContext): void {
  const sources = program.command('sources').description('lead sources and their tokens');
  createSource(sources, ctx);
  listSources(sources, ctx);
  regenerateToken(sources, ctx);
  setSigningKey(sources, ctx);
  setRateLimit(sources, ctx);
  setActive(sources, ctx, 'disable', false);
  setActive(sources, ctx, 'enable', true);
  addMappingCommand(sources, ctx);
  addMetaCommand(sources, ctx);
  addTermsCommand(sources, ctx);
}

function createSource(sources: Command, ctx: CommandContext): void {
  sources
    .command('create')
    .description('create a lead source and print its token (shown only this once)')
    .requiredOption('--agent <agent_id>', 'the receiving agent')
    .requiredOption('--name <name>', 'the source’s name, e.g. the vendor')
    .option('--json', 'print the API response as JSON')
    .action(async (opts: JsonOpt & { agent: string; name: string }) => {
      const source = await ctx.client().request('POST', '/agents/{agent_id}/sources', {
        path: { agent_id: opts.agent },
        body: { name: opts.name },
      });
      ctx.print(opts, source, () => issuedSource(source));
    });
}

function listSources(sources: Command, ctx: CommandContext): void {
  sources
    .command('list')
    .description('list an agent’s lead sources (never their tokens)')
    .requiredOption('--agent <agent_id>', 'the agent')
    .option('--json', 'print the API response as JSON')
    .action(async (opts: JsonOpt & { agent: string }) => {
      const data = await ctx
        .client()
        .request('GET', '/agents/{agent_id}/sources', { path: { agent_id: opts.agent } });
      ctx.print(opts, data, () =>
        data.sources.length === 0
          ? 'No lead sources.'
          : table(
              ['SOURCE_ID', 'ACTIVE', 'SIGNED', 'CREATED_AT', 'NAME'],
              data.sources.map((s) =>
                [s.source_id, s.active, s.has_signing_key, s.created_at, s.name].map(show),
              ),
            ),
      );
    });
}

function regenerateToken(sources: Command, ctx: CommandContext): void {
  sources
    .command('regenerate')
    .description('issue a new token; the old one stops working at once')
    .argument('<source_id>')
    .option('--json', 'print the API response as JSON')
    .action(async (sourceId: string, opts: JsonOpt) => {
      const source = await ctx
        .client()
        .request('POST', '/sources/{source_id}/regenerate', { path: { source_id: sourceId } });
      ctx.print(opts, source, () => issuedSource(source, ['source_id', 'name', 'active']));
    });
}

function setSigningKey(sources: Command, ctx: CommandContext): void {
  sources
    .command('signing-key')
    .description('require booking-scheduler events to this source to be signed with KEY (--remove: stop)')
    .argument('<source_id>')
    .argument('[key]', 'the scheduler webhook signing key')
    .option('--remove', 'remove the key: events are accepted unsigned again')
    .option('--json', 'print the API response as JSON')
    .action(async (sourceId: string, key: string | undefined, opts: JsonOpt & { remove?: boolean }) => {
      if (!opts.remove && !key) throw new CliError('give the signing key, or --remove');
      const signingKey = opts.remove ? null : (key ?? null);
      const source = await ctx.client().request('PATCH', '/sources/{source_id}', {
        path: { source_id: sourceId },
        body: { signing_key: signingKey },
      });
      const state = signingKey ? 'requires signed scheduler events' : 'accepts unsigned events';
      ctx.print(opts, source, () =>
        [`Source ${show(source.source_id)} ${state}.`, keyValues(source, SOURCE_KEYS)].join('\n'),
      );
    });
}

function setRateLimit(sources: Command, ctx: CommandContext): void {
  sources
    .command('rate-limit')
    .description("give the source its own rate limit, e.g. for a big import (--default: the server's)")
    .argument('<source_id>')
    .option('--rps <n>', 'requests per second', (v) => wholeNumber(v, '--rps'))
    .option('--burst <n>', 'requests at once (default: twice --rps)', (v) => wholeNumber(v, '--burst'))
    .option('--default', "return to the server's RATE_LIMIT_RPS and RATE_LIMIT_BURST")
    .option('--json', 'print the API response as JSON')
    .action(async (sourceId: string, opts: JsonOpt & { rps?: number; burst?: number; default?: boolean }) => {
      if (!opts.default && opts.rps === undefined)
        throw new CliError('give --rps N (and --burst N), or --default');
      const body = opts.default
        ? { rate_limit_rps: null, rate_limit_burst: null }
        : { rate_limit_rps: opts.rps, rate_limit_burst: opts.burst ?? (opts.rps ?? 1) * 2 };
      const source = await ctx
        .client()
        .request('PATCH', '/sources/{source_id}', { path: { source_id: sourceId }, body });
      ctx.print(opts, source, () => keyValues(source, SOURCE_KEYS));
    });
}

function setActive(sources: Command, ctx: CommandContext, verb: 'enable' | 'disable', active: boolean): void {
  sources
    .command(verb)
    .description(
      active ? 'accept deliveries with the source’s token again' : 'refuse deliveries with the token',
    )
    .argument('<source_id>')
    .option('--json', 'print the API response as JSON')
    .action(async (sourceId: string, opts: JsonOpt) => {
      const source = await ctx
        .client()
        .request('PATCH', '/sources/{source_id}', { path: { source_id: sourceId }, body: { active } });
      ctx.print(opts, source, () =>
        [`Source ${show(source.source_id)} is ${verb}d.`, keyValues(source, SOURCE_KEYS)].join('\n'),
      );
    });
}
