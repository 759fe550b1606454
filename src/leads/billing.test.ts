import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { billDelivery } from './billing.ts';

const DAY = 86_400_000;
const NOW = new Date('2026-12-02T12:00:00Z');
const ago = (ms: number) => new Date(NOW.getTime() - ms);

describe('billDelivery: whether a vendor may bill a delivery', () => {
  it.each<[string, number, Date | null, boolean]>([
    ['a new contact', 30, null, true],
    ['a repeat a day after the last bill, inside 30 days', 30, ago(DAY), false],
    ['a repeat a second inside the window', 30, ago(30 * DAY - 1000), false],
    ['a repeat exactly at the end of the window', 30, ago(30 * DAY), true],
    ['a repeat 31 days later', 30, ago(31 * DAY), true],
    ['a repeat at once, when the source bills every repeat', 0, ago(1000), true],
  ])('When it is %s', (_, days, last, billable) => {
    expect(billDelivery(days, last, NOW)).toEqual(
      billable ? { billable: true, reason: null } : { billable: false, reason: 'duplicate' },
    );
  });

  it('When a delivery is not billable, then the reason says why, and a longer window never bills it', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 365 }), fc.integer({ min: 0, max: 400 * DAY }), (days, gap) => {
        const bill = billDelivery(days, ago(gap), NOW);
        expect(bill.reason === null).toBe(bill.billable);
        if (!bill.billable) expect(billDelivery(days + 1, ago(gap), NOW).billable).toBe(false);
      }),
      { numRuns: 400 },
    );
  });
});
