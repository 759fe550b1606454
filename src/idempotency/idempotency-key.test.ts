import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { JsonValue } from '../json.ts';
import { parseIdempotencyKey, type KeyParse } from './idempotency-key.ts';

const ok = (key: string | undefined): KeyParse => ({ ok: true, key });
const bad = (details: string): KeyParse => ({ ok: false, details });
const LENGTH = 'The idempotency key must be 1 to 255 characters';

describe('parseIdempotencyKey', () => {
  it.each<[string, string | string[] | undefined, JsonValue | undefined, KeyParse]>([
    ['no key anywhere', undefined, undefined, ok(undefined)],
    ['a null body key', undefined, null, ok(undefined)],
    ['a header key', 'order-17', undefined, ok('order-17')],
    ['a body key', undefined, 'order-17', ok('order-17')],
    ['both: the header wins', 'from-header', 'from-body', ok('from-header')],
    ['both, the header invalid: the header still decides', '', 'from-body', bad(LENGTH)],
    ['a quoted structured-field string', '"order-17"', undefined, ok('order-17')],
    ['a quoted string with escapes', '"say \\"hi\\""', undefined, ok('say "hi"')],
    ['surrounding white space', '  order-17 ', undefined, ok('order-17')],
    ['a number in the body', undefined, 12345, ok('12345')],
    ['a header sent twice', ['a', 'b'], undefined, ok('a,b')],
    ['255 characters', 'k'.repeat(255), undefined, ok('k'.repeat(255))],
    ['256 characters', 'k'.repeat(256), undefined, bad(LENGTH)],
    ['an empty quoted string', '""', undefined, bad(LENGTH)],
    ['a blank key', '   ', undefined, bad(LENGTH)],
    ['a control character', undefined, 'a\u0007b', bad('The idempotency key must be printable characters')],
    ['Unicode', undefined, 'clé-✓', ok('clé-✓')],
    ['a boolean in the body', undefined, true, bad('idempotency_key must be a string')],
    ['an object in the body', undefined, { a: 1 }, bad('idempotency_key must be a string')],
    [
      'an infinite number in the body',
      undefined,
      Number.POSITIVE_INFINITY,
      bad('idempotency_key must be a string'),
    ],
  ])('When the delivery has %s, then the key is as the table says', (_label, header, body, expected) => {
    expect(parseIdempotencyKey(header, body)).toEqual(expected);
  });

  it('When a key is quoted or bare, then it is the same key', () => {
    fc.assert(
      fc.property(fc.stringMatching(/^[A-Za-z0-9._:-]{1,64}$/), (key) => {
        expect(parseIdempotencyKey(`"${key}"`, undefined)).toEqual(parseIdempotencyKey(key, undefined));
      }),
    );
  });

  it('When any value is sent, then parsing never throws and an accepted key is 1–255 printable characters', () => {
    const anyJson = fc.jsonValue() as fc.Arbitrary<JsonValue>;
    fc.assert(
      fc.property(fc.option(fc.string({ unit: 'binary' }), { nil: undefined }), anyJson, (header, body) => {
        const parsed = parseIdempotencyKey(header, body);
        if (parsed.ok && parsed.key !== undefined) {
          expect(parsed.key.length).toBeGreaterThanOrEqual(1);
          expect(parsed.key.length).toBeLessThanOrEqual(255);
          expect(parsed.key).not.toMatch(/\p{Cc}/u);
        }
      }),
      { numRuns: 1000 },
    );
  });
});
