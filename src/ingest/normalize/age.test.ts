import { describe, expect, it } from 'vitest';
import { normalizeAge } from './age.ts';
import type { JsonValue } from '../../json.ts';

describe('normalizeAge', () => {
  it.each<[JsonValue, number]>([
    [18, 18],
    [45, 45],
    [120, 120],
    ['45', 45],
    [' 45 ', 45],
    ['45.0', 45],
    ['045', 45],
    [45.0, 45],
  ])('When the age is %j, then it becomes %d', (input, expected) => {
    expect(normalizeAge(input)).toEqual({ ok: true, value: expected });
  });

  it.each<JsonValue>([
    17,
    121,
    0,
    -45,
    45.5,
    '45.5',
    '17',
    '121',
    '45 years',
    'forty',
    '+45',
    '4e1',
    true,
    [45],
  ])('When the age is %j, then it is INVALID_AGE', (input) => {
    expect(normalizeAge(input)).toMatchObject({ ok: false, code: 'INVALID_AGE' });
  });
});
