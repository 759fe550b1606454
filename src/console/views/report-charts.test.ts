import { DateTime } from 'luxon';
import { describe, expect, it } from 'vitest';
import { reportRow, type ReportCounts } from '../../economics/report-row.ts';
import { reportDays } from '../report.ts';
import { spendPremiumChart, speedChart } from './report-charts.ts';

const row = (name: string, spend: number, premium: number) =>
  reportRow({
    source_id: name,
    name,
    deliveries: 1,
    billable: 1,
    returned: 0,
    credited: 0,
    billed_cents: spend,
    credited_cents: 0,
    contacted: 0,
    appointments: 0,
    sales: premium ? 1 : 0,
    premium_cents: premium,
    first_text_minutes_p50: null,
    first_text_minutes_p90: null,
    first_call_minutes_p50: null,
    first_call_minutes_p90: null,
  } satisfies ReportCounts);

/** The bars' widths, in order (the legend's squares, at the top, left out). */
const widths = (svg: string) =>
  [...svg.matchAll(/<rect\s+x="150"\s+y="(\d+)"\s+width="([\d.]+)"/g)]
    .filter((m) => m[1] !== '4')
    .map((m) => Number(m[2]));

describe('the report’s SVG charts', () => {
  it('When sources spent and earned, then the bars are on one scale, the largest the full width, and names are escaped', () => {
    const svg = spendPremiumChart([row('<b>Vendor</b>', 10_000, 40_000), row('Other', 20_000, 0)]).text;
    expect(svg).toMatch(/^<svg/);
    expect(svg).toContain('role="img"');
    expect(svg).toContain('&lt;b&gt;Vendor&lt;/b&gt;');
    expect(widths(svg)).toEqual([100, 400, 200, 0]);
    expect(svg).toContain('$400');
  });

  it('When nothing was spent or earned, then the bars are empty, never NaN', () => {
    const svg = spendPremiumChart([row('Free', 0, 0)]).text;
    expect(svg).not.toContain('NaN');
    expect(widths(svg)).toEqual([0, 0]);
  });

  it('When weeks have medians, then each drawn week is a point, a week without one is left out, the line joins the rest', () => {
    const svg = speedChart([
      { week: '2027-01-04', leads: 3, first_text_minutes_p50: 2, first_call_minutes_p50: 10 },
      { week: '2027-01-11', leads: 1, first_text_minutes_p50: null, first_call_minutes_p50: 5 },
    ]).text;
    expect(svg.match(/<circle/g)).toHaveLength(3);
    expect(svg.match(/<polyline/g)).toHaveLength(1);
    expect(svg).toContain('01-04');
    expect(svg).not.toContain('NaN');
  });
});

describe('the report page’s period', () => {
  const now = DateTime.fromISO('2027-03-20T15:00:00Z');
  it('When no days are given, then the 30 days ending today in the agent’s zone', () => {
    expect(reportDays({}, 'America/Chicago', now)).toEqual({
      fromDay: '2027-02-19',
      toDay: '2027-03-20',
      range: { from: '2027-02-19T06:00:00.000Z', to: '2027-03-21T05:00:00.000Z' },
    });
  });

  it.each([
    [{ from: 'yesterday' }, 'from must be a day'],
    [{ to: '2027-02-30' }, 'to must be a day'],
    [{ from: '2027-03-10', to: '2027-03-01' }, 'to must not be before from'],
    [{ from: '2025-01-01', to: '2027-01-01' }, 'at most 366 days'],
  ])('When the period is %o, then it is refused: %s', (query, words) => {
    expect(() => reportDays(query, 'America/Chicago', now)).toThrow(
      expect.objectContaining({ code: 'VALIDATION_ERROR', details: expect.stringContaining(words) }),
    );
  });
});
