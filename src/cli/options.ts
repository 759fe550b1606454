import { dollars, MAX_CENTS, readDollars, type Money } from '../money.ts';
import { CliError } from './api-client.ts';

/** Option values checked as commander reads them, so a bad one is refused before any request. */

/** A whole number from 1 to `max`. */
export function wholeNumber(value: string, name: string, max = Number.MAX_SAFE_INTEGER): number {
  const n = Number(value);
  if (!/^\d+$/.test(value) || n < 1 || n > max) {
    const range = max === Number.MAX_SAFE_INTEGER ? 'of at least 1' : `from 1 to ${max}`;
    throw new CliError(`${name} must be a whole number ${range}`);
  }
  return n;
}

/** Two-letter state codes, comma-separated (`TX,ok`): upper case, each once. Which codes exist, the server says. */
export function stateCodes(value: string, name: string): string[] {
  const codes = value
    .split(',')
    .map((code) => code.trim())
    .filter(Boolean);
  const bad = codes.filter((code) => !/^[A-Za-z]{2}$/.test(code));
  if (codes.length === 0 || bad.length > 0) {
    throw new CliError(
      `${name} takes two-letter state codes separated by commas, e.g. TX,OK${bad.length ? `; not ${bad.join(', ')}` : ''}`,
    );
  }
  return [...new Set(codes.map((code) => code.toUpperCase()))];
}

/** A whole number from 0 to `max`. */
export function countOf(value: string, name: string, max: number): number {
  const n = Number(value);
  if (!/^\d+$/.test(value) || n > max) throw new CliError(`${name} must be a whole number from 0 to ${max}`);
  return n;
}

/** Dollars with at most two decimals (`25`, `12.50`), as whole cents up to what the API takes. */
export function dollarsAsCents(value: string, name: string, kind: Money): number {
  const read = readDollars(value, kind);
  if (read.ok) return read.cents;
  if (read.why === 'too_large') throw new CliError(`${name} is at most ${dollars(MAX_CENTS[kind])}`);
  throw new CliError(`${name} takes dollars such as 25 or 12.50`);
}
