import type { SourceChange } from '../use-cases/sources.ts';
import { US_STATES } from '../ingest/tables/us-states.ts';
import { dollars, MAX_CENTS, readDollars } from '../money.ts';

/** The terms form as posted: every field text, blank meaning "no such rule" (or the default). */
export type TermsForm = Record<string, string | undefined>;

/** What the form asks for, or the first field it cannot take, in the agent's words. */
export type ReadTerms = { ok: true; change: SourceChange } | { ok: false; why: string };

const WHOLE = /^\d+$/;

/**
 * The console's terms form as the admin API's change: dollars as cents, states as codes, a blank
 * rule or cap removed. The ranges are the API's; the API's schema is not run on text fields, so
 * they are checked here, and the use case checks the ages against each other. Pure.
 */
export function readTermsForm(f: TermsForm): ReadTerms {
  const text = (name: string) => (f[name] ?? '').trim();
  const whole = (name: string, words: string, min: number, max: number): number | null | string => {
    const v = text(name);
    if (v === '') return null;
    const n = Number(v);
    return WHOLE.test(v) && n >= min && n <= max
      ? n
      : `${words} must be a whole number from ${min} to ${max}`;
  };
  const price = readDollars(text('price'), 'price');
  if (!price.ok)
    return {
      ok: false,
      why:
        price.why === 'too_large'
          ? `the price is at most ${dollars(MAX_CENTS.price)}`
          : 'the price must be dollars such as 25 or 12.50',
    };
  const states = text('states')
    .split(/[\s,]+/)
    .filter(Boolean)
    .map((s) => s.toUpperCase());
  const unknown = states.filter((s) => !Object.hasOwn(US_STATES, s));
  if (unknown.length > 0)
    return {
      ok: false,
      why: `states must be two-letter codes separated by commas, e.g. TX, OK (not ${unknown.join(', ')})`,
    };
  const values = {
    window: whole('return_window_hours', 'the return window', 0, 8_760),
    duplicate: whole('duplicate_days', 'the duplicate days', 0, 3_650),
    min: whole('min_age', 'the youngest age', 0, 150),
    max: whole('max_age', 'the oldest age', 0, 150),
    daily: whole('daily', 'the daily cap', 1, 1_000_000),
    monthly: whole('monthly', 'the monthly cap', 1, 10_000_000),
  };
  const bad = Object.values(values).find((v) => typeof v === 'string');
  if (typeof bad === 'string') return { ok: false, why: bad };
  const n = (v: number | null | string) => (typeof v === 'number' ? v : null);
  return {
    ok: true,
    change: {
      price_cents: price.cents,
      return_window_hours: n(values.window) ?? 72,
      duplicate_days: n(values.duplicate) ?? 30,
      accept: {
        states: states.length ? [...new Set(states)] : null,
        min_age: n(values.min),
        max_age: n(values.max),
        require_consent: f.require_consent === 'on' ? true : null,
      },
      caps: { daily: n(values.daily), monthly: n(values.monthly) },
    },
  };
}
