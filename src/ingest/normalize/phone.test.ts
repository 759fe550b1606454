import fc from 'fast-check';
import * as libphonenumber from 'libphonenumber-js';
import { describe, expect, it, vi } from 'vitest';
import { normalizePhone, parseWithLibrary } from './phone.ts';
import type { JsonValue } from '../../json.ts';

// The parser, counted: the plain writings must not need it (it costs ten times the shortcut).
vi.mock('libphonenumber-js', async (original) => {
  const actual = await original<typeof libphonenumber>();
  return { ...actual, parsePhoneNumberFromString: vi.fn(actual.parsePhoneNumberFromString) };
});
const parserCalls = () => vi.mocked(libphonenumber.parsePhoneNumberFromString).mock.calls.length;

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

describe('normalizePhone without the parser', () => {
  it('When a number is written plainly, with or without a common extension, then the parser is not asked', () => {
    const before = parserCalls();
    for (const text of [
      '(213) 373-4253',
      '+1 213.373.4253',
      '213-373-4253 x123',
      '(213) 373-4253 ext. 123',
      '2133734253 Ext 45',
      '213 373 4253 extension 9',
      '213-373-4253#77',
    ])
      expect(normalizePhone(text)).toMatchObject({ ok: true, value: '2133734253' });
    expect(parserCalls() - before).toBe(0);
    expect(normalizePhone('213-373-4253 x1234567890')).toMatchObject({ ok: false });
    expect(parserCalls() - before).toBe(1);
  });

  const digit = (from: number) => fc.integer({ min: from, max: 9 }).map(String);
  const digits = (n: number, from = 0) =>
    fc.array(digit(from), { minLength: n, maxLength: n }).map((d) => d.join(''));
  const separator = fc.constantFrom('', ' ', '-', '.', '  ', '/', '--');
  const writing = fc
    .record({
      prefix: fc.constantFrom('', '1', '1-', '1 ', '+1', '+1 ', '+1-', '+ 1', '0', '+44 ', '11'),
      area: fc.oneof(digits(3, 2), digits(3)),
      exchange: digits(3),
      line: fc.oneof(digits(4), digits(3), digits(5)),
      parens: fc.boolean(),
      seps: fc.tuple(separator, separator),
      around: fc.constantFrom(
        '',
        ' ',
        'a',
        ' x12',
        'x12',
        ' X12',
        ' x 12',
        ' x1234567',
        ' x0',
        ' ext. 7',
        ' ext.7',
        ' Ext 45',
        ' EXT. 123456',
        ' extension 9',
        ' Extension 9',
        ' ext 12345678901',
        ' #77',
        '#77',
        '  x12',
        ' xx12',
        ' ext',
        ' x12 ',
      ),
    })
    .map(
      (w) =>
        `${w.prefix}${w.parens ? `(${w.area})` : w.area}${w.seps[0]}${w.exchange}${w.seps[1]}${w.line}${w.around}`,
    );

  it('When a number is written any which way, then the answer is the one libphonenumber-js gives', () => {
    fc.assert(
      fc.property(writing, (text) => {
        expect(normalizePhone(text)).toEqual(parseWithLibrary(text.trim()));
      }),
      { numRuns: 5_000 },
    );
  });

  it('When any text has fewer than ten digits, then the answer is the one libphonenumber-js gives', () => {
    const short = fc.oneof(
      fc.stringMatching(/^[+1(]?[\d ().x#a-z-]{0,14}$/).filter((t) => t.replace(/\D/g, '').length < 10),
      fc.string({ maxLength: 20 }),
      fc.string({ unit: 'binary', maxLength: 16 }),
    );
    fc.assert(
      fc.property(short, (text) => {
        expect(normalizePhone(text)).toEqual(parseWithLibrary(text.trim()));
      }),
      { numRuns: 5_000 },
    );
  });
});
