import { describe, expect, it } from 'vitest';
import { normalizeZip } from './zip.ts';
import type { JsonValue } from '../../json.ts';

describe('normalizeZip', () => {
  it.each<[JsonValue, string]>([
    ['90210', '90210'],
    [' 02134 ', '02134'],
    ['00501', '00501'],
    ['12345-6789', '12345'],
    ['12345 6789', '12345'],
    ['123456789', '12345'],
    ['02134-1234', '02134'],
    [90210, '90210'],
    [2134, '02134'],
    [501, '00501'],
    [123456789, '12345'],
    [21341234, '02134'],
    [5011234, '00501'],
  ])('When the ZIP is %j, then it becomes %s', (input, expected) => {
    expect(normalizeZip(input)).toEqual({ ok: true, value: expected });
  });

  it.each<JsonValue>([
    '2134',
    '1234',
    '123456',
    '12345-678',
    '12345-67890',
    'ABCDE',
    '9021O',
    '00000',
    0,
    12,
    123456,
    1234567890,
    2134.5,
    -2134,
    true,
    ['90210'],
  ])('When the ZIP is %j, then it is INVALID_ZIPCODE', (input) => {
    expect(normalizeZip(input)).toMatchObject({ ok: false, code: 'INVALID_ZIPCODE' });
  });
});
