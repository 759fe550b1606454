import { LIMITS } from '../../limits.ts';
import { invalid, valid } from './result.ts';
import type { Normalized } from './result.ts';
import type { JsonValue } from '../../json.ts';

const { minAge: MIN_AGE, maxAge: MAX_AGE } = LIMITS;
const EXPECTED_AGE = `a whole number of years from ${MIN_AGE} to ${MAX_AGE}`;

// "45" and "45.0" are what form tools and spreadsheets send for 45; "45.5" or "45 years" are not ages.
const AGE_TEXT = /^\d{1,3}(?:\.0+)?$/;

/** Whole years 18–120 inclusive, as a JSON number or as digits in a string. */
export function normalizeAge(value: JsonValue): Normalized<number> {
  let age = Number.NaN;
  if (typeof value === 'number') age = value;
  else if (typeof value === 'string' && AGE_TEXT.test(value.trim())) age = Number(value.trim());
  return isAdultAge(age) ? valid(age) : invalid('INVALID_AGE', EXPECTED_AGE);
}

export function isAdultAge(age: number): boolean {
  return Number.isInteger(age) && age >= MIN_AGE && age <= MAX_AGE;
}
