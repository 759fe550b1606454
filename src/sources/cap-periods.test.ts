import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { capPeriods } from './cap-periods.ts';

describe('capPeriods: the day and month a delivery counts in, in the agent’s zone', () => {
  it.each([
    [
      'a minute before midnight in Chicago',
      '2026-12-01T05:59:00Z',
      'America/Chicago',
      '2026-11-30',
      '2026-11-01',
    ],
    ['midnight in Chicago', '2026-12-01T06:00:00Z', 'America/Chicago', '2026-12-01', '2026-12-01'],
    [
      'the same instant in Los Angeles',
      '2026-12-01T06:00:00Z',
      'America/Los_Angeles',
      '2026-11-30',
      '2026-11-01',
    ],
    ['New Year in New York', '2027-01-01T05:00:00Z', 'America/New_York', '2027-01-01', '2027-01-01'],
    ['an unknown zone counts in UTC', '2026-12-01T00:30:00Z', 'Nowhere/Else', '2026-12-01', '2026-12-01'],
  ])('When it is %s', (_, at, zone, day, month) => {
    expect(capPeriods(Date.parse(at), zone)).toEqual({ day, month });
  });

  it('When any instant is counted, then its month is the first of its day’s month', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: Date.parse('2000-01-01'), max: Date.parse('2100-01-01') }),
        fc.constantFrom('America/Chicago', 'Pacific/Honolulu', 'Asia/Kolkata', 'UTC'),
        (at, zone) => {
          const { day, month } = capPeriods(at, zone);
          expect(month).toBe(`${day.slice(0, 8)}01`);
        },
      ),
      { numRuns: 400 },
    );
  });
});
