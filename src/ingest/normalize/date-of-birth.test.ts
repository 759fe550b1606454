import { describe, expect, it } from 'vitest';
import { ageOn, normalizeDateOfBirth } from './date-of-birth.ts';
import type { JsonValue } from '../../json.ts';

const NOW = new Date('2026-03-01T12:00:00Z');

describe('normalizeDateOfBirth', () => {
  it.each<[string, string]>([
    ['1980-05-04', '1980-05-04'],
    [' 1980-05-04 ', '1980-05-04'],
    ['05/04/1980', '1980-05-04'],
    ['5/4/1980', '1980-05-04'],
    ['05-04-1980', '1980-05-04'],
    ['5.4.1980', '1980-05-04'],
    ['02/29/2000', '2000-02-29'],
    ['1980-05-04T00:00:00Z', '1980-05-04'],
    ['1980-05-04T00:00:00.000Z', '1980-05-04'],
    ['1900-01-01', '1900-01-01'],
    ['2026-03-01', '2026-03-01'],
  ])('When the date of birth is %j, then it becomes %s', (input, expected) => {
    expect(normalizeDateOfBirth(input, NOW)).toEqual({ ok: true, value: expected });
  });

  it.each<JsonValue>([
    '1980-13-01',
    '1980-02-30',
    '1900-02-29',
    '02/29/2001',
    '31/12/1980',
    '1980/05/04',
    '5/4/80',
    '1980-5-4',
    '1980-05-04T13:45:00Z',
    '2026-03-02',
    '2030-01-01',
    '1899-12-31',
    'May 4, 1980',
    '',
    19800504,
    true,
  ])('When the date of birth is %j, then it is INVALID_DATE', (input) => {
    expect(normalizeDateOfBirth(input, NOW)).toMatchObject({ ok: false, code: 'INVALID_DATE' });
  });
});

describe('ageOn', () => {
  it.each<[string, number]>([
    ['1980-03-01', 46],
    ['1980-03-02', 45],
    ['1980-02-29', 46],
    ['2008-03-01', 18],
    ['2008-03-02', 17],
  ])('When born %s, then on 2026-03-01 the age is %d', (dob, age) => {
    expect(ageOn(dob, NOW)).toBe(age);
  });
});
