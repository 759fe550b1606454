import type { Command } from 'commander';
import { CliError, type AdminAnswer, type AdminBody } from '../api-client.ts';
import type { CommandContext, JsonOpt } from '../io.ts';
import { show } from '../output.ts';

type SourceChange = AdminBody<'PATCH', '/sources/{source_id}'>;

interface MetaOpts extends JsonOpt {
  pageAccessToken?: string;
  appSecret?: string;
  verifyToken?: string;
  googleKey?: string;
  stdin?: boolean;
  listen?: boolean;
  live?: boolean;
  remove: string[];
}

const META_SECRETS = [
  'page_access_token',
  'app_secret',
  'verify_token',
] as const satisfies (keyof NonNullable<SourceChange['meta']>)[];
const SETTINGS = [...META_SECRETS, 'google_key'] as const;
type Setting = (typeof SETTINGS)[number];

const collect = (value: string, previous: string[]) => [
  ...previous,
  ...value.split(',').map((v) => v.trim()),
];

/**
 * `sources meta SOURCE_ID`: a source's Meta Lead Ads settings and Google key. The values are read
 * from the options or, with `--stdin`, from `name=value` lines on standard input (so they stay out
 * of the shell's history), and never printed: the answer says only which are set.
 */
export function addMetaCommand(sources: Command, ctx: CommandContext): void {
  sources
    .command('meta')
    .description(
      'connect Meta Lead Ads (and a Google Ads lead form key) to a source; values are never printed',
    )
    .argument('<source_id>')
    .option('--page-access-token <token>', 'the Page access token the leads are fetched with')
    .option('--app-secret <secret>', 'the Meta app’s secret, which signs every envelope')
    .option('--verify-token <token>', 'the verify token typed into the app’s webhook settings')
    .option('--google-key <key>', 'the key Google Ads lead form webhooks to this source must carry')
    .option(
      '--stdin',
      'read name=value lines (page_access_token, app_secret, verify_token, google_key) from stdin',
    )
    .option('--listen', 'fetched leads become Listen samples, not leads')
    .option('--live', 'fetched leads become leads (the default)')
    .option(
      '--remove <names>',
      `remove settings: ${SETTINGS.join(', ')} (comma-separated, repeatable)`,
      collect,
      [],
    )
    .option('--json', 'print the API response as JSON')
    .action(async (sourceId: string, opts: MetaOpts) => {
      const body = await changeOf(opts, ctx);
      const source = await ctx
        .client()
        .request('PATCH', '/sources/{source_id}', { path: { source_id: sourceId }, body });
      ctx.print(opts, source, () => describe(source));
    });
}

async function changeOf(opts: MetaOpts, ctx: CommandContext): Promise<SourceChange> {
  if (opts.listen && opts.live) throw new CliError('give --listen or --live, not both');
  const values: Partial<Record<Setting, string | null>> = {
    page_access_token: opts.pageAccessToken,
    app_secret: opts.appSecret,
    verify_token: opts.verifyToken,
    google_key: opts.googleKey,
  };
  if (opts.stdin) Object.assign(values, readLines(await ctx.readStdin()));
  for (const name of opts.remove) {
    if (!(SETTINGS as readonly string[]).includes(name))
      throw new CliError(`--remove takes ${SETTINGS.join(', ')}; not ${JSON.stringify(name)}`);
    values[name as Setting] = null;
  }
  const meta: NonNullable<SourceChange['meta']> = {};
  for (const name of META_SECRETS) if (values[name] !== undefined) meta[name] = values[name];
  if (opts.listen || opts.live) meta.listen = Boolean(opts.listen);
  const body: SourceChange = {};
  if (Object.keys(meta).length > 0) body.meta = meta;
  if (values.google_key !== undefined) body.google_key = values.google_key;
  if (Object.keys(body).length === 0)
    throw new CliError(
      'give a setting (--page-access-token, --app-secret, --verify-token, --google-key, --stdin), --listen/--live or --remove',
    );
  return body;
}

/** `name=value` lines; blank lines and `#` comments are skipped. */
function readLines(text: string): Partial<Record<Setting, string>> {
  const out: Partial<Record<Setting, string>> = {};
  for (const raw of text.split(/\r?\n/)) {
    const line = raw.trim();
    if (line === '' || line.startsWith('#')) continue;
    const at = line.indexOf('=');
    const name = at < 0 ? line : line.slice(0, at).trim();
    if (at < 0 || !(SETTINGS as readonly string[]).includes(name))
      // Never the line itself: it may hold a secret.
      throw new CliError(`standard input: each line must be name=value, name one of ${SETTINGS.join(', ')}`);
    out[name as Setting] = line.slice(at + 1).trim();
  }
  return out;
}

function describe(source: AdminAnswer<'PATCH', '/sources/{source_id}'>): string {
  const { meta } = source;
  const set = (value: unknown) => (value ? 'set' : 'not set');
  const lines = [
    `Source ${show(source.source_id)} (${show(source.name)})`,
    `Meta page access token: ${set(meta.page_access_token_set)}`,
    `Meta app secret:        ${set(meta.app_secret_set)}`,
    `Meta verify token:      ${set(meta.verify_token_set)}`,
    `Fetched leads become:   ${meta.listen ? 'Listen samples' : 'leads'}`,
    `Google key:             ${set(source.has_google_key)}`,
  ];
  if (meta.reconnect_needed_since)
    lines.push(
      `Reconnect Meta: the Graph API refused the page access token on ${show(meta.reconnect_needed_since)}`,
    );
  return lines.join('\n');
}
