import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  isReturnable,
  returnDeadline,
  returnEvidence,
  RETURN_REASONS,
  type ReturnFacts,
} from './return-rules.ts';

const BOUGHT = new Date('2027-03-01T12:00:00Z');
const hours = (n: number) => new Date(BOUGHT.getTime() + n * 3_600_000);

describe('the return window', () => {
  // [window hours, asked after hours, returnable]
  it.each<[number, number, boolean]>([
    [72, 0, true],
    [72, 71.99, true],
    [72, 72, false],
    [72, 100, false],
    [48, 47, true],
    [720, 719, true],
    [0, 0, false],
    [0, 1, false],
  ])(
    'When the window is %s hours and the return comes after %s, then returnable is %s',
    (window, after, ok) => {
      expect(isReturnable(BOUGHT, window, hours(after))).toBe(ok);
    },
  );

  it('When the window is 0, then there is no deadline at all', () => {
    expect(returnDeadline(BOUGHT, 0)).toBeNull();
    expect(returnDeadline(BOUGHT, 72)?.toISOString()).toBe('2027-03-04T12:00:00.000Z');
  });

  it('When any window and any moment, then returnable is exactly "before the deadline"', () => {
    fc.assert(
      fc.property(fc.nat(10_000), fc.integer({ min: -1_000_000, max: 40_000_000 }), (window, ms) => {
        const now = new Date(BOUGHT.getTime() + ms);
        const deadline = returnDeadline(BOUGHT, window);
        expect(isReturnable(BOUGHT, window, now)).toBe(deadline !== null && now < deadline);
      }),
    );
  });
});

describe('the evidence a return carries', () => {
  const facts: ReturnFacts = {
    calls: [
      { at: '2027-03-01T12:05:00.000Z', outcome: 'no_answer' },
      { at: '2027-03-01T15:00:00.000Z', outcome: 'bad_number' },
    ],
    phone: '3125550100',
    state: 'OH',
    age: '17',
    earlier: { source_id: 'src-1', delivered_at: '2027-02-20T10:00:00.000Z' },
  };
  const calls = { dial_attempts: 2, calls: facts.calls };

  it.each<[(typeof RETURN_REASONS)[number], Record<string, unknown>]>([
    ['disconnected', { ...calls, phone: '3125550100' }],
    ['wrong_number', { ...calls, phone: '3125550100' }],
    ['duplicate', { ...calls, earlier: facts.earlier }],
    ['out_of_area', { ...calls, state: 'OH' }],
    ['age', { ...calls, age: '17' }],
    ['consumer_denies', calls],
    ['fraud', calls],
    ['other', calls],
  ])(
    'When the reason is %s, then the evidence is the calls and what that reason needs',
    (reason, expected) => {
      expect(returnEvidence(reason, facts)).toEqual(expected);
    },
  );

  it('When a duplicate has no earlier delivery, then it says so with null', () => {
    expect(returnEvidence('duplicate', { ...facts, calls: [], earlier: null })).toEqual({
      dial_attempts: 0,
      calls: [],
      earlier: null,
    });
  });

  it('When any reason and any calls, then the attempts count the calls and nothing is lost or invented', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...RETURN_REASONS),
        fc.array(fc.record({ at: fc.string(), outcome: fc.string() }), { maxLength: 6 }),
        (reason, list) => {
          const evidence = returnEvidence(reason, { ...facts, calls: list });
          expect(evidence.dial_attempts).toBe(list.length);
          expect(evidence.calls).toEqual(list);
          expect(Object.keys(evidence).length).toBeLessThanOrEqual(3);
        },
      ),
    );
  });
});
