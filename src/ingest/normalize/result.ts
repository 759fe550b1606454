import type { JsonValue } from '../../json.ts';

/** Codes of the warnings the mapper raises for a value it could not use (see docs/field-mapping.md). */
export type InvalidCode =
  | 'INVALID_PHONE'
  | 'INVALID_EMAIL'
  | 'INVALID_STATE'
  | 'INVALID_ZIPCODE'
  | 'INVALID_AGE'
  | 'INVALID_DATE'
  | 'INVALID_GENDER'
  | 'INVALID_ENUM'
  | 'INVALID_BOOLEAN'
  | 'INVALID_TAGS'
  | 'INVALID_TYPE';

export type LeadValue = string | number | boolean | string[];

/**
 * A normalizer's answer. Failure is a value, not an exception: the mapper keeps the raw value and
 * turns `expected` into the warning message. `extra` carries side values worth keeping in
 * custom_fields (a phone extension), so a normalizer stays pure.
 */
export type Normalized<T extends LeadValue = LeadValue> =
  | { ok: true; value: T; extra?: Readonly<Record<string, string>> }
  | { ok: false; code: InvalidCode; expected: string };

export interface NormalizeContext {
  /** "Today" for date checks; injected so results do not depend on the clock. */
  now: Date;
}

export type Normalizer = (value: JsonValue, context: NormalizeContext) => Normalized;

export function valid<T extends LeadValue>(value: T): Normalized<T> {
  return { ok: true, value };
}

export function invalid<T extends LeadValue = never>(code: InvalidCode, expected: string): Normalized<T> {
  return { ok: false, code, expected };
}

/** null and whitespace-only strings carry no information: the mapper treats them as not sent. */
export function isBlank(value: JsonValue | undefined): boolean {
  return value === undefined || value === null || (typeof value === 'string' && value.trim() === '');
}

/** Lowercase words separated by single spaces: `Final_Expense`, `final-expense` → `final expense`. */
export function wordKey(text: string): string {
  return text
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim();
}
