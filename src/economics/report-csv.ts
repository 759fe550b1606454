import { REPORT_FIELDS, type ReportRow } from './report-row.ts';

/**
 * The report as CSV (RFC 4180): a header line of the row's fields, one line per source, no totals
 * line (a spreadsheet sums its own). A value with a comma, a quote or a line break is quoted; a
 * null is empty. Pure.
 */
export function reportCsv(rows: readonly ReportRow[]): string {
  const lines = [REPORT_FIELDS.join(',')];
  for (const row of rows) lines.push(REPORT_FIELDS.map((f) => cell(row[f])).join(','));
  return `${lines.join('\r\n')}\r\n`;
}

function cell(value: string | number | null): string {
  if (value === null) return '';
  const text = String(value);
  // A leading =, +, - or @ would be a formula to a spreadsheet: a vendor's name is data.
  const safe = typeof value === 'string' && /^[=+\-@]/.test(text) ? `'${text}` : text;
  return /[",\r\n]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
}
