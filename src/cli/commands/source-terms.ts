import type { Command } from 'commander';
import { dollars } from '../../money.ts';
import { CliError, type AdminAnswer, type AdminBody } from '../api-client.ts';
import type { CommandContext, JsonOpt } from '../io.ts';
import { countOf, dollarsAsCents, stateCodes, wholeNumber } from '../options.ts';
import { keyValues } from '../output.ts';

const TERMS_KEYS: readonly string[] = [
  'source_id',
  'name',
  'price',
  'return_window_hours',
  'duplicate_days',
  'accept',
  'caps',
] satisfies (keyof AdminAnswer<'PATCH', '/sources/{source_id}'> | 'price')[];
const RULES = ['states', 'min_age', 'max_age', 'require_consent'] as const;
const CAPS = ['daily', 'monthly'] as const;

interface TermsOpts extends JsonOpt {
  price?: number;
  returnWindowHours?: number;
  duplicateDays?: number;
  states?: string[];
  minAge?: number;
  maxAge?: number;
  requireConsent?: boolean;
  dailyCap?: number;
  monthlyCap?: number;
  remove?: string[];
}

/** `leadgate sources terms`: a source's price, return window, duplicate days, acceptance rules and caps. */
export function addTermsCommand(sources: Command, ctx: CommandContext): void {
  sources
    .command('terms')
    .description('show or set what a source’s leads cost, which it may deliver and how many')
    .argument('<source_id>')
    .option('--price <dollars>', 'what a billable lead costs, e.g. 25 or 12.50', (v) =>
      dollarsAsCents(v, '--price', 'price'),
    )
    .option('--return-window-hours <n>', 'hours the vendor takes returns (0: none)', (v) =>
      countOf(v, '--return-window-hours', 8_760),
    )
    .option('--duplicate-days <n>', 'a repeat within this many days is not billable (0: every one is)', (v) =>
      countOf(v, '--duplicate-days', 3_650),
    )
    .option('--states <codes>', 'take leads from these states only, e.g. TX,OK', (v) =>
      stateCodes(v, '--states'),
    )
    .option('--min-age <n>', 'youngest age taken', (v) => countOf(v, '--min-age', 150))
    .option('--max-age <n>', 'oldest age taken', (v) => countOf(v, '--max-age', 150))
    .option('--require-consent', 'take only leads with consent_cert_url or consent_token')
    .option('--daily-cap <n>', 'accepted leads a day at most', (v) =>
      wholeNumber(v, '--daily-cap', 1_000_000),
    )
    .option('--monthly-cap <n>', 'accepted leads a month at most', (v) =>
      wholeNumber(v, '--monthly-cap', 10_000_000),
    )
    .option('--remove <names>', `remove rules or caps: ${[...RULES, ...CAPS].join(', ')}`, removals)
    .option('--json', 'print the API response as JSON')
    .action(async (sourceId: string, opts: TermsOpts) => {
      const source = await ctx
        .client()
        .request('PATCH', '/sources/{source_id}', { path: { source_id: sourceId }, body: termsBody(opts) });
      ctx.print(opts, source, () => keyValues({ ...source, price: dollars(source.price_cents) }, TERMS_KEYS));
    });
}

type SourceChange = AdminBody<'PATCH', '/sources/{source_id}'>;
type Accept = NonNullable<SourceChange['accept']>;

/** `value` without its undefined entries: a rule or cap not given is left out, not sent empty. */
function given<T extends object>(value: T): T {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as T;
}

/** The PATCH body: what the options set, null for what --remove names; none at all shows the terms. */
function termsBody(opts: TermsOpts): SourceChange {
  const removed = new Set(opts.remove ?? []);
  const or = <T>(value: T, name: string) => (removed.has(name) ? null : value);
  const accept = given<Accept>({
    // Two-letter codes as typed: the server checks each is a state.
    states: or(opts.states as Accept['states'], 'states'),
    min_age: or(opts.minAge, 'min_age'),
    max_age: or(opts.maxAge, 'max_age'),
    require_consent: or(opts.requireConsent, 'require_consent'),
  });
  const caps = given<NonNullable<SourceChange['caps']>>({
    daily: or(opts.dailyCap, 'daily'),
    monthly: or(opts.monthlyCap, 'monthly'),
  });
  return given<SourceChange>({
    price_cents: opts.price,
    return_window_hours: opts.returnWindowHours,
    duplicate_days: opts.duplicateDays,
    accept: Object.keys(accept).length ? accept : undefined,
    caps: Object.keys(caps).length ? caps : undefined,
  });
}

function removals(value: string): string[] {
  const names = value
    .split(',')
    .map((n) => n.trim())
    .filter(Boolean);
  const known: readonly string[] = [...RULES, ...CAPS];
  const bad = names.filter((n) => !known.includes(n));
  if (names.length === 0 || bad.length > 0)
    throw new CliError(`--remove takes ${known.join(', ')}${bad.length ? `; not ${bad.join(', ')}` : ''}`);
  return names;
}
