import { describe, expect, it } from 'vitest';
import { reportCsv } from './report-csv.ts';
import { REPORT_FIELDS, reportRow, type ReportCounts } from './report-row.ts';

const row = (name: string, extra: Partial<ReportCounts> = {}) =>
  reportRow({
    source_id: '0190a000-0000-7000-8000-000000000001',
    name,
    deliveries: 2,
    billable: 2,
    returned: 0,
    credited: 0,
    billed_cents: 5_000,
    credited_cents: 0,
    contacted: 1,
    appointments: 0,
    sales: 0,
    premium_cents: 0,
    first_text_minutes_p50: 1.5,
    first_text_minutes_p90: null,
    first_call_minutes_p50: null,
    first_call_minutes_p90: null,
    ...extra,
  });

describe('the report as CSV', () => {
  it('When there are no sources, then it is the header line alone', () => {
    expect(reportCsv([])).toBe(`${REPORT_FIELDS.join(',')}\r\n`);
  });

  it('When a source has figures, then its line has them in the header’s order, nulls empty', () => {
    const [, line] = reportCsv([row('Quote Hub')]).split('\r\n');
    expect(line).toBe('0190a000-0000-7000-8000-000000000001,Quote Hub,2,2,0,0,5000,1,0,0,0,2500,,,0,1.5,,,');
  });

  it.each([
    ['a comma', 'Leads, Inc.', '"Leads, Inc."'],
    ['a quote', 'The "Best" Leads', '"The ""Best"" Leads"'],
    ['a line break', 'Two\nlines', '"Two\nlines"'],
    ['a formula', '=HYPERLINK("x")', `"'=HYPERLINK(""x"")"`],
  ])('When a name has %s, then it stays one cell', (_label, name, cell) => {
    const text = reportCsv([row(name)]);
    expect(
      text
        .split('\r\n')[1]
        ?.split(',')[1]
        ?.startsWith(cell.split(',')[0] ?? ''),
    ).toBe(true);
    expect(text).toContain(`,${cell},`);
  });
});
