import { describe, expect, it } from 'vitest';
import {
  normalizeGender,
  normalizeHousingType,
  normalizeLeadCategory,
  normalizeMortgageType,
  normalizeScheduleType,
} from './enums.ts';
import { wordKey } from './result.ts';
import * as synonyms from '../tables/synonyms.ts';
import type { JsonValue } from '../../json.ts';

describe('synonym tables', () => {
  it('When a spelling is listed, then it is already in wordKey form and listed once', () => {
    for (const table of Object.values(synonyms)) {
      const seen = new Set<string>();
      for (const [value, spellings] of Object.entries(table)) {
        for (const spelling of [wordKey(value), ...(spellings as string[])]) {
          expect(wordKey(spelling)).toBe(spelling);
          expect(seen.has(spelling), spelling).toBe(false);
          seen.add(spelling);
        }
      }
    }
  });
});

describe('normalizeGender', () => {
  it.each<[string, string]>([
    ['Male', 'Male'],
    ['male', 'Male'],
    ['M', 'Male'],
    ['m', 'Male'],
    [' MAN ', 'Male'],
    ['Female', 'Female'],
    ['f', 'Female'],
    ['F', 'Female'],
    ['woman', 'Female'],
    ['FEMALE', 'Female'],
  ])('When the gender is %j, then it becomes %s', (input, expected) => {
    expect(normalizeGender(input)).toEqual({ ok: true, value: expected });
  });

  it.each<JsonValue>(['x', 'non-binary', 'unknown', 'mf', 1, true])(
    'When the gender is %j, then it is INVALID_GENDER',
    (input) => {
      expect(normalizeGender(input)).toMatchObject({ ok: false, code: 'INVALID_GENDER' });
    },
  );
});

describe('normalizeLeadCategory', () => {
  it.each<[string, string]>([
    ['veterans', 'veterans'],
    ['Vet', 'veterans'],
    ['vets', 'veterans'],
    ['VA', 'veterans'],
    ['Military', 'veterans'],
    ['FE', 'final-expense'],
    ['final expense', 'final-expense'],
    ['final_expense', 'final-expense'],
    ['Final-Expense', 'final-expense'],
    ['MP', 'mortgage-protection'],
    ['Mortgage Protection', 'mortgage-protection'],
    ['nurse', 'nurses'],
    ['Trucker', 'truckers'],
    ['IUL', 'iul'],
    ['first responder', 'first-responder'],
    ['Police', 'first-responder'],
    ['firefighter', 'first-responder'],
    ['fed', 'federal-employee'],
    ['Federal Employee', 'federal-employee'],
    ['seniors', 'senior'],
    ['Senior', 'senior'],
    ['teacher', 'teacher'],
    ['generic', 'generic'],
  ])('When the category is %j, then it becomes %s', (input, expected) => {
    expect(normalizeLeadCategory(input)).toEqual({ ok: true, value: expected });
  });

  it.each<JsonValue>(['auto', 'medicare', 'f e x x', 7, ['iul']])(
    'When the category is %j, then it is INVALID_ENUM',
    (input) => {
      expect(normalizeLeadCategory(input)).toMatchObject({ ok: false, code: 'INVALID_ENUM' });
    },
  );
});

describe('other enums', () => {
  it.each<[(v: JsonValue) => unknown, string, string]>([
    [normalizeHousingType, 'own', 'Own'],
    [normalizeHousingType, 'Homeowner', 'Own'],
    [normalizeHousingType, 'owner', 'Own'],
    [normalizeHousingType, 'RENT', 'Rent'],
    [normalizeHousingType, 'renting', 'Rent'],
    [normalizeHousingType, 'other', 'Other'],
    [normalizeMortgageType, 'fha', 'FHA'],
    [normalizeMortgageType, 'Conventional', 'Conventional'],
    [normalizeMortgageType, 'va', 'VA'],
    [normalizeMortgageType, 'fixed', 'Fixed'],
    [normalizeMortgageType, 'Fixed-Rate', 'Fixed'],
    [normalizeMortgageType, 'arm', 'ARM'],
    [normalizeMortgageType, 'usda', 'USDA'],
    [normalizeMortgageType, 'JUMBO', 'Jumbo'],
    [normalizeMortgageType, 'reverse', 'Reverse'],
    [normalizeScheduleType, 'appointment', 'appointment'],
    [normalizeScheduleType, 'follow_up', 'follow_up'],
    [normalizeScheduleType, 'Follow-Up', 'follow_up'],
    [normalizeScheduleType, 'followup', 'follow_up'],
    [normalizeScheduleType, 'callback', 'follow_up'],
  ])('When %o gets %j, then it gives %s', (normalize, input, expected) => {
    expect(normalize(input)).toEqual({ ok: true, value: expected });
  });

  it.each<[(v: JsonValue) => unknown, JsonValue]>([
    [normalizeHousingType, 'condo'],
    [normalizeMortgageType, 'balloon'],
    [normalizeScheduleType, 'lunch'],
    [normalizeScheduleType, false],
  ])('When %o gets %j, then it is INVALID_ENUM', (normalize, input) => {
    expect(normalize(input)).toMatchObject({ ok: false, code: 'INVALID_ENUM' });
  });
});
