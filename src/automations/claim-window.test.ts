import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { afterWindowMinutes, contactRule, nextAllowedInstant } from './contact-window.ts';

const CHICAGO = 'America/Chicago';
const at = (iso: string) => new Date(iso);

describe('afterWindowMinutes: the claim timer counts calling-hours minutes only', () => {
  it.each<[string, string, number, string, string]>([
    ['inside the window', '2027-01-15T15:00:00Z', 15, 'TX', '2027-01-15T15:15:00.000Z'],
    ['before it opens (6 a.m. Chicago)', '2027-01-15T12:00:00Z', 15, 'TX', '2027-01-15T14:15:00.000Z'],
    ['at night (10 p.m. Chicago)', '2027-01-16T04:00:00Z', 15, 'TX', '2027-01-16T14:15:00.000Z'],
    [
      'across the close (8:50 p.m., 30 minutes)',
      '2027-01-16T02:50:00Z',
      30,
      'TX',
      '2027-01-16T14:20:00.000Z',
    ],
    ['a state that closes at 8 p.m. (Florida)', '2027-01-16T01:50:00Z', 30, 'FL', '2027-01-16T14:20:00.000Z'],
    ['a whole window and more', '2027-01-15T14:00:00Z', 13 * 60 + 10, 'TX', '2027-01-16T14:10:00.000Z'],
    [
      'over the night clocks go forward (8:30 p.m. CST, 60 minutes)',
      '2027-03-14T02:30:00Z',
      60,
      'TX',
      '2027-03-14T13:30:00.000Z',
    ],
  ])(
    'When a lead comes %s, then the claim time ends at the right instant',
    (_, start, minutes, state, end) => {
      expect(afterWindowMinutes(at(start), minutes, CHICAGO, contactRule(state)).toISOString()).toBe(end);
    },
  );

  it('When any start and any number of minutes, then the end is inside the window, no earlier than start + minutes, and monotone', () => {
    const rule = contactRule('TX');
    fc.assert(
      fc.property(
        fc.date({ min: at('2026-01-01T00:00:00Z'), max: at('2028-12-31T00:00:00Z'), noInvalidDate: true }),
        fc.integer({ min: 1, max: 3000 }),
        (start, minutes) => {
          const end = afterWindowMinutes(start, minutes, CHICAGO, rule);
          const longer = afterWindowMinutes(start, minutes + 1, CHICAGO, rule);
          // The end is an instant the window holds (or its very close), never before the wall-clock minutes.
          const inside =
            nextAllowedInstant(new Date(end.getTime() - 1), CHICAGO, rule).getTime() === end.getTime() - 1;
          return end.getTime() >= start.getTime() + minutes * 60_000 && inside && longer > end;
        },
      ),
      { numRuns: 300 },
    );
  });
});
