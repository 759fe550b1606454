/**
 * Money as people read and type it, for the console and the CLI alike: amounts are kept as whole
 * cents, shown as US dollars, and typed dollars are read back under the limits the admin API's
 * schemas take (src/limits.ts). Every folder may import this file; it imports only the limits.
 */
import { LIMITS } from './limits.ts';

const usd = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD' });
const wholeUsd = new Intl.NumberFormat('en-US', {
  style: 'currency',
  currency: 'USD',
  maximumFractionDigits: 0,
});

/** Cents as dollars, to the cent: `$1,450.50`. */
export const dollars = (cents: number): string => usd.format(cents / 100);

/** Cents as whole dollars, for a chart's labels: `$1,451`. */
export const wholeDollars = (cents: number): string => wholeUsd.format(cents / 100);

/** Cents as a form field's value: `1450.50`, no sign nor separators, what a person edits. */
export const plainDollars = (cents: number): string => (cents / 100).toFixed(2);

/** The largest amount each kind of money may be, in cents: the admin API's schema maxima. */
export const MAX_CENTS = { price: LIMITS.priceMaxCents, premium: LIMITS.premiumMaxCents } as const;

export type Money = keyof typeof MAX_CENTS;

/** Typed dollars as cents, or why not: not dollars at all, or more than that kind of money may be. */
export type ReadDollars = { ok: true; cents: number } | { ok: false; why: 'not_dollars' | 'too_large' };

// `25`, `12.50`, `$1,450.5`: what people type and what `dollars` and `plainDollars` write. Commas
// are taken only in groups of three, so `1,45` is a typo rather than 145 dollars.
const DOLLARS = /^\$?(\d{1,3}(?:,\d{3})+|\d+)(?:\.(\d{1,2}))?$/;

/** Reads typed dollars (blanks around them ignored) as whole cents, from 0 to `kind`'s maximum. */
export function readDollars(typed: string, kind: Money): ReadDollars {
  const match = DOLLARS.exec(typed.trim());
  if (!match) return { ok: false, why: 'not_dollars' };
  // Digits beyond the maximum only make the sum larger, so its imprecision can never let one through.
  const cents = Number((match[1] ?? '').replaceAll(',', '')) * 100 + Number((match[2] ?? '').padEnd(2, '0'));
  return cents > MAX_CENTS[kind] ? { ok: false, why: 'too_large' } : { ok: true, cents };
}
