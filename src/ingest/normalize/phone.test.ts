import { describe, expect, it } from 'vitest';
import { normalizePhone } from './phone.ts';
import type { JsonValue } from '../../json.ts';

describe('normalizePhone', () => {
  it.each<[JsonValue, string]>([
    ['2133734253', '2133734253'],
    ['213-373-4253', '2133734253'],
    ['213.373.4253', '2133734253'],
    ['(213) 373-4253', '2133734253'],
    ['(213)373-4253', '2133734253'],
    [' 213 373 4253 ', '2133734253'],
    ['1-213-373-4253', '2133734253'],
    ['12133734253', '2133734253'],
    ['+1 (213) 373-4253', '2133734253'],
    ['+12133734253', '2133734253'],
    ['(555) 123-4567', '5551234567'],
    ['+1 416 555 0199', '4165550199'],
    ['+1 (876) 555-1234', '8765551234'],
    [2133734253, '2133734253'],
    [12133734253, '2133734253'],
  ])('When the phone is %j, then it becomes %s', (input, expected) => {
    expect(normalizePhone(input)).toEqual({ ok: true, value: expected });
  });

  it.each<[string, string]>([
    ['213-373-4253 x123', '123'],
    ['(213) 373-4253 ext. 123', '123'],
    ['213 373 4253 ext 45', '45'],
    ['213 373 4253 extension 9', '9'],
    ['213-373-4253 #77', '77'],
  ])('When the phone %j has an extension, then the extension %s is set aside', (input, ext) => {
    expect(normalizePhone(input)).toEqual({ ok: true, value: '2133734253', extra: { phone_extension: ext } });
  });

  it.each<JsonValue>([
    '373-4253',
    '213373425',
    '213373425312',
    '22133734253',
    '+44 20 7946 0958',
    '011 44 20 7946 0958',
    '0213373425',
    '121 337 3425',
    '1-800-FLOWERS',
    'call 213-373-4253 now',
    '2133734253abc',
    'n/a',
    2133734253.5,
    -2133734253,
    true,
    ['2133734253'],
    { number: '2133734253' },
  ])('When the phone is %j, then it is INVALID_PHONE', (input) => {
    expect(normalizePhone(input)).toMatchObject({ ok: false, code: 'INVALID_PHONE' });
  });
});
