import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { entryKind, parseEntries } from './entries.ts';

describe('parseEntries', () => {
  it.each([
    [{ phones: ['(312) 555-0142', '+1 312 555 0142', '312.555.0142'] }, { ok: true, values: ['3125550142'] }],
    [{ emails: [' Sue@Example.COM '] }, { ok: true, values: ['sue@example.com'] }],
    [
      { phones: ['3125550142'], emails: ['a@b.co'] },
      { ok: true, values: ['3125550142', 'a@b.co'] },
    ],
    [{}, { ok: true, values: [] }],
    [{ phones: ['3125550142', '555-0142'] }, { ok: false, field: 'phones[1]' }],
    [
      { phones: ['3125550142'], emails: ['a@b.co', 'nope'] },
      { ok: false, field: 'emails[1]' },
    ],
    [{ phones: ['a@b.co'] }, { ok: false, field: 'phones[0]' }],
  ])('When given %j, then %j', (given, expected) => {
    expect(parseEntries(given)).toMatchObject(expected);
  });

  it('When any 10-digit US number is written plainly or with +1, then it is stored as the same 10 digits, a phone', () => {
    fc.assert(
      fc.property(fc.integer({ min: 2_000_000_000, max: 9_999_999_999 }), (n) => {
        const digits = String(n);
        const parsed = parseEntries({ phones: [digits, `+1${digits}`] });
        expect(parsed).toEqual({ ok: true, values: [digits] });
        expect(entryKind(digits)).toBe('phone');
      }),
    );
  });
});
