/** Readable renderings for the terminal: `key: value` lines and aligned tables. */

export type Row = Record<string, unknown>;

export function show(value: unknown): string {
  if (value === null || value === undefined) return '-';
  if (typeof value === 'string') return value === '' ? '-' : value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return JSON.stringify(value);
}

/** `key: value` lines, keys padded to one column; `keys` picks and orders them. */
export function keyValues(row: Row, keys: readonly string[] = Object.keys(row)): string {
  const width = Math.max(0, ...keys.map((k) => k.length)) + 1;
  return keys.map((k) => `${`${k}:`.padEnd(width)} ${show(row[k])}`).join('\n');
}

/** A plain table with a header line; cells are single-line. */
export function table(headers: readonly string[], rows: readonly (readonly string[])[]): string {
  const clean = rows.map((r) => r.map((c) => c.replace(/\s+/g, ' ')));
  const widths = headers.map((h, i) => Math.max(h.length, ...clean.map((r) => (r[i] ?? '').length)));
  const line = (cells: readonly string[]) =>
    cells
      .map((c, i) => (i === cells.length - 1 ? c : c.padEnd(widths[i] ?? 0)))
      .join('  ')
      .trimEnd();
  return [line(headers), ...clean.map(line)].join('\n');
}

export function json(value: unknown): string {
  return JSON.stringify(value, null, 2);
}
