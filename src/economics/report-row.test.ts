import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { NO_COUNTS, perCount, rate, reportRow, REPORT_FIELDS, type ReportCounts } from './report-row.ts';

const counts = (c: Partial<ReportCounts>): ReportCounts => ({
  ...NO_COUNTS,
  source_id: 's',
  name: 'Vendor',
  ...c,
});

describe('the report row’s arithmetic', () => {
  // [label, counts, spend, per lead, per appointment, per sale, return rate]
  it.each<
    [string, Partial<ReportCounts>, number, number | null, number | null, number | null, number | null]
  >([
    ['nothing delivered', {}, 0, null, null, null, null],
    [
      '10 billable at $25 of 11, 2 returned, 1 credited, no appointment',
      { deliveries: 11, billable: 10, billed_cents: 25_000, returned: 2, credited: 1, credited_cents: 2_500 },
      22_500,
      2_500,
      null,
      null,
      0.2,
    ],
    [
      'the same with 3 appointments and 1 sale',
      {
        billable: 10,
        billed_cents: 25_000,
        returned: 2,
        credited: 1,
        credited_cents: 2_500,
        appointments: 3,
        sales: 1,
      },
      22_500,
      2_500,
      7_500,
      22_500,
      0.2,
    ],
    [
      'a third of a cent rounds to the nearest',
      { billable: 3, billed_cents: 1_000, appointments: 3 },
      1_000,
      333,
      333,
      null,
      0,
    ],
    ['a half cent rounds up', { billable: 2, billed_cents: 5, sales: 2 }, 5, 3, null, 3, 0],
    [
      'every billable one credited',
      { billable: 2, billed_cents: 800, returned: 2, credited: 2, credited_cents: 800 },
      0,
      null,
      null,
      null,
      1,
    ],
    ['free leads', { deliveries: 4, billable: 4, appointments: 2, sales: 1 }, 0, 0, 0, 0, 0],
    ['one of three returned', { billable: 3, returned: 1 }, 0, 0, null, null, 0.3333],
  ])(
    'When %s, then spend, costs and rate are as counted by hand',
    (_label, c, spend, lead, appt, sale, returnRate) => {
      const row = reportRow(counts(c));
      expect(row.spend_cents).toBe(spend);
      expect(row.cost_per_lead_cents).toBe(lead);
      expect(row.cost_per_appointment_cents).toBe(appt);
      expect(row.cost_per_sale_cents).toBe(sale);
      expect(row.return_rate).toBe(returnRate);
    },
  );

  it('When minutes are counted, then they keep one decimal, and none stays null', () => {
    const row = reportRow(counts({ first_text_minutes_p50: 1.26, first_call_minutes_p90: 12.04 }));
    expect([row.first_text_minutes_p50, row.first_text_minutes_p90]).toEqual([1.3, null]);
    expect([row.first_call_minutes_p50, row.first_call_minutes_p90]).toEqual([null, 12]);
  });

  it('When any counts come, then the row has exactly the report’s fields, a cost is null exactly when nothing divides, and never more than the spend', () => {
    fc.assert(
      fc.property(
        fc.record({
          billable: fc.nat(500),
          credited: fc.nat(500),
          returned: fc.nat(500),
          price: fc.nat(10_000),
          appointments: fc.nat(500),
          sales: fc.nat(500),
        }),
        ({ billable, credited: c, returned: r, price, appointments, sales }) => {
          const credited = Math.min(c, billable);
          const returned = Math.max(Math.min(r, billable), credited);
          const row = reportRow(
            counts({
              deliveries: billable,
              billable,
              returned,
              credited,
              billed_cents: billable * price,
              credited_cents: credited * price,
              appointments,
              sales,
            }),
          );
          expect(Object.keys(row)).toEqual([...REPORT_FIELDS]);
          expect(row.spend_cents).toBe((billable - credited) * price);
          expect(row.cost_per_lead_cents === null).toBe(billable - credited === 0);
          if (row.cost_per_lead_cents !== null) expect(row.cost_per_lead_cents).toBe(price);
          expect(row.cost_per_appointment_cents === null).toBe(appointments === 0);
          expect(row.cost_per_sale_cents === null).toBe(sales === 0);
          for (const cost of [row.cost_per_appointment_cents, row.cost_per_sale_cents]) {
            if (cost !== null) expect(cost).toBeLessThanOrEqual(row.spend_cents);
          }
          expect(row.return_rate === null).toBe(billable === 0);
          if (row.return_rate !== null) expect(row.return_rate).toBeGreaterThanOrEqual(0);
          if (row.return_rate !== null) expect(row.return_rate).toBeLessThanOrEqual(1);
        },
      ),
    );
  });

  it('When a count is divided, then perCount and rate give null for nothing to divide by, never Infinity or NaN', () => {
    expect(perCount(100, 0)).toBeNull();
    expect(perCount(-7, 2)).toBe(-4);
    expect(rate(1, 0)).toBeNull();
    fc.assert(
      fc.property(fc.integer({ min: -1e9, max: 1e9 }), fc.integer({ min: -5, max: 1e6 }), (cents, count) => {
        const each = perCount(cents, count);
        expect(each === null || Number.isFinite(each)).toBe(true);
        const part = rate(Math.abs(cents) % (Math.max(count, 0) + 1), count);
        expect(part === null || Number.isFinite(part)).toBe(true);
      }),
    );
  });
});
