import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { LIMITS } from './limits.ts';
import { dollars, MAX_CENTS, plainDollars, readDollars, wholeDollars, type Money } from './money.ts';

describe('money as shown', () => {
  it.each([
    [0, '$0.00', '$0', '0.00'],
    [5, '$0.05', '$0', '0.05'],
    [1250, '$12.50', '$13', '12.50'],
    [120000, '$1,200.00', '$1,200', '1200.00'],
    [145050, '$1,450.50', '$1,451', '1450.50'],
    [-4000, '-$40.00', '-$40', '-40.00'],
  ])(
    'When the amount is %i cents, then it reads %j, %j on a chart, %j in a form',
    (cents, exact, whole, plain) => {
      expect(dollars(cents)).toBe(exact);
      expect(wholeDollars(cents)).toBe(whole);
      expect(plainDollars(cents)).toBe(plain);
    },
  );
});

describe('money as typed', () => {
  it.each<[string, Money, number]>([
    ['25', 'price', 2500],
    ['12.50', 'price', 1250],
    ['12.5', 'price', 1250],
    ['0.05', 'price', 5],
    ['0', 'price', 0],
    ['  $12.50 ', 'price', 1250],
    ['$1,450.50', 'premium', 145050],
    ['1,200', 'premium', 120000],
    ['007', 'price', 700],
    ['1000000', 'price', 100_000_000],
    ['21474836.47', 'premium', 2_147_483_647],
  ])('When %j is typed as a %s, then it is %i cents', (typed, kind, cents) => {
    expect(readDollars(typed, kind)).toEqual({ ok: true, cents });
  });

  it.each<[string, Money, 'not_dollars' | 'too_large']>([
    ['', 'price', 'not_dollars'],
    ['cheap', 'price', 'not_dollars'],
    ['-5', 'price', 'not_dollars'],
    ['12.505', 'price', 'not_dollars'],
    ['.50', 'price', 'not_dollars'],
    ['12.', 'price', 'not_dollars'],
    ['1,45', 'premium', 'not_dollars'],
    ['1,2345', 'premium', 'not_dollars'],
    ['$ 12', 'price', 'not_dollars'],
    ['12 USD', 'price', 'not_dollars'],
    ['1e3', 'price', 'not_dollars'],
    ['1000000.01', 'price', 'too_large'],
    ['21474836.48', 'premium', 'too_large'],
    ['99999999999999999999999', 'premium', 'too_large'],
  ])('When %j is typed as a %s, then it is refused: %s', (typed, kind, why) => {
    expect(readDollars(typed, kind)).toEqual({ ok: false, why });
  });

  it('When the maxima are read, then they are the limits the admin API takes', () => {
    expect(MAX_CENTS).toEqual({ price: LIMITS.priceMaxCents, premium: LIMITS.premiumMaxCents });
  });

  it.each<Money>(['price', 'premium'])(
    'When any %s within its limit is written, then reading it back gives the same cents',
    (kind) => {
      fc.assert(
        fc.property(fc.integer({ min: 0, max: MAX_CENTS[kind] }), (cents) => {
          expect(readDollars(dollars(cents), kind)).toEqual({ ok: true, cents });
          expect(readDollars(plainDollars(cents), kind)).toEqual({ ok: true, cents });
        }),
        { numRuns: 2000 },
      );
    },
  );
});
