/**
 * What `npm run bench` writes into the docs after a whole run: the full summary (every scenario, the
 * ceilings, what a request cost, the ratios, the machine) between markers in docs/benchmarks.md, and
 * its one table between markers in the README. Everything outside the markers is kept as it is
 * (docs/decisions/0050-docs-and-generated-results.md). Pure but for `writeSummaries`.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { cpus, release, totalmem, type } from 'node:os';
import { join } from 'node:path';

/** A row of the bench's table, as much of it as the summary shows. */
export interface SummaryRow {
  target: string;
  scenario: string;
  'req/s': number | null;
  'p50 ms'?: number | null;
  'p99 ms': number | null;
  errors?: number;
  'peak RSS MB': number | null;
  'server µs/req'?: number | null;
  'postgres µs/req'?: number | null;
  'WAL KB/req'?: number | null;
}

/** One run of the bench, as the docs show it. */
export interface BenchRun {
  /** ISO instants. */
  started: string;
  finished: string;
  machine: string;
  /** Whether the prospects' first texts were sent during the run or only scheduled. */
  texts: string;
  seconds: number;
  connections: number;
  rows: SummaryRow[];
  ratios: Record<string, number>;
  /** Per PostgreSQL target: leads counted after the run, and what must be 0. */
  checks: Record<string, Record<string, number>>;
  /** The lead report's server time (median ms) per database, with how many leads it counted. */
  reports?: Array<{ target: string; leads: number; json_ms: number; csv_ms: number }>;
  /** Said first, when the figures did not come from the bench's own writing (a seeded section). */
  note?: string;
}

/** The markers' names, and the files they are in. */
const TARGET_FILES = { table: 'README.md', summary: 'docs/benchmarks.md' } as const;
/** The README's rows: the scenarios a newcomer compares. */
const README_SCENARIOS = [
  'new lead',
  'appointment',
  'repeat contact',
  'retry with a used key',
  'mix',
  'invalid',
];
const REFERENCE = 'reference';
const BESIDE = '  beside it: ';

/** The machine the bench ran on, and the PostgreSQL server's version when there was one. */
export function describeMachine(postgres: string | null): string {
  const cores = cpus();
  const model = cores[0]?.model.trim() ?? 'unknown processor';
  const memory = Math.round(totalmem() / 2 ** 30);
  const database = postgres ? `PostgreSQL ${postgres}` : 'no PostgreSQL';
  return `${cores.length} cores (${model}), ${memory} GB, ${type()} ${release()}, Node ${process.version}, ${database}`;
}

const fmt = (n: number | null | undefined): string =>
  n === null || n === undefined ? '—' : n.toLocaleString('en-US', { maximumFractionDigits: 1 });

/** A Markdown table laid out as Prettier lays it out, so a rewritten file passes `prettier --check`. */
export function markdownTable(header: string[], rows: string[][]): string {
  const widths = header.map((h, i) => Math.max(3, h.length, ...rows.map((r) => (r[i] ?? '').length)));
  const line = (cells: string[]) => `| ${widths.map((w, i) => (cells[i] ?? '').padEnd(w)).join(' | ')} |`;
  return [line(header), line(widths.map((w) => '-'.repeat(w))), ...rows.map(line)].join('\n');
}

const gatewayRows = (run: BenchRun) => run.rows.filter((r) => r.target !== REFERENCE);
const unique = (values: string[]) => [...new Set(values)];
const targetsOf = (run: BenchRun) => unique(gatewayRows(run).map((r) => r.target));
const scenarioLabel = (name: string) =>
  name.startsWith(BESIDE) ? `— beside it: ${name.slice(BESIDE.length)}` : name;
const titled = (target: string) => target.charAt(0).toUpperCase() + target.slice(1);

/** Scenarios down, targets across, each cell `cell(row)`; a scenario whose cells are all empty is left out. */
function byTarget(
  run: BenchRun,
  corner: string,
  cell: (row: SummaryRow) => string,
  names?: string[],
): string {
  const targets = targetsOf(run);
  const scenarios = unique(gatewayRows(run).map((r) => r.scenario)).filter(
    (s) => !names || names.some((name) => s.startsWith(name)),
  );
  const cells = scenarios.map((scenario) =>
    targets.map((target) => {
      const row = run.rows.find((r) => r.target === target && r.scenario === scenario);
      return row ? cell(row) : '';
    }),
  );
  const shown = targets.map((_, i) => cells.some((row) => row[i])).map((any, i) => (any ? i : -1));
  const columns = shown.filter((i) => i >= 0);
  const rows = scenarios
    .map((scenario, s) => [scenarioLabel(scenario), ...columns.map((i) => cells[s]?.[i] ?? '')])
    .filter((row) => row.slice(1).some(Boolean));
  return markdownTable([corner, ...columns.map((i) => titled(targets[i] ?? ''))], rows);
}

function rateCell(row: SummaryRow): string {
  const rss = row['peak RSS MB'] === null ? '' : ` (${fmt(row['peak RSS MB'])})`;
  const wrong = row.errors ? `, ${fmt(row.errors)} wrong` : '';
  return `${fmt(row['req/s'])}, ${fmt(row['p99 ms'])}${rss}${wrong}`;
}

function costCell(row: SummaryRow): string {
  const parts = [row['server µs/req'], row['postgres µs/req'], row['WAL KB/req']];
  if (parts.every((n) => n === null || n === undefined)) return '';
  const wal = row['WAL KB/req'];
  return row['postgres µs/req'] === null || row['postgres µs/req'] === undefined
    ? fmt(row['server µs/req'])
    : `${fmt(row['server µs/req'])} / ${fmt(row['postgres µs/req'])} / ${wal === null || wal === undefined ? '—' : wal.toFixed(1)}`;
}

/** `2026-12-01 20:38–20:45 UTC`. */
function when(run: BenchRun): string {
  const [fromDay, fromTime] = run.started.slice(0, 16).split('T');
  const [toDay, toTime] = run.finished.slice(0, 16).split('T');
  return `${fromDay} ${fromTime}–${toDay === fromDay ? '' : `${toDay} `}${toTime} UTC`;
}

/** The section of docs/benchmarks.md. */
export function benchmarksSection(run: BenchRun): string {
  const ceilings = run.rows
    .filter((r) => r.target === REFERENCE)
    .map((r) => [r.scenario, fmt(r['req/s']), fmt(r['p50 ms']), fmt(r['p99 ms'])]);
  const checks = Object.entries(run.checks).map(
    ([target, counts]) =>
      `${target}: ${Object.entries(counts)
        .map(([name, n]) => `${name} ${fmt(n)}`)
        .join(', ')}`,
  );
  return [
    ...(run.note ? [run.note, ''] : []),
    `The run of ${when(run)}, on ${run.machine}; ${run.seconds} s a scenario at ${run.connections} ` +
      `connections; new leads' first texts: ${run.texts}.`,
    '',
    byTarget(run, 'Scenario: req/s, p99 ms (peak RSS MB)', rateCell),
    '',
    'The ceilings, each measured next to what it is compared with:',
    '',
    markdownTable(['Ceiling', 'req/s', 'p50 ms', 'p99 ms'], ceilings),
    '',
    "What a request cost, from the scenario's start until its follow-ups were sent:",
    '',
    byTarget(run, 'Scenario: server µs (/ PostgreSQL µs / WAL KB)', costCell),
    '',
    'Ratios:',
    '',
    ...Object.entries(run.ratios).map(([name, ratio]) => `- ${name}: ${ratio.toFixed(2)}`),
    ...(checks.length > 0
      ? ['', `Counted after the run (all but the leads must be 0): ${checks.join('; ')}.`]
      : []),
    ...(run.reports?.length
      ? [
          '',
          "The lead report's server time, the median of its requests (`npm run bench:report`):",
          '',
          markdownTable(
            ['Database', 'Leads in the period', 'JSON ms', 'CSV ms'],
            run.reports.map((r) => [titled(r.target), fmt(r.leads), fmt(r.json_ms), fmt(r.csv_ms)]),
          ),
        ]
      : []),
  ].join('\n');
}

/** The README's one table. */
export function readmeSection(run: BenchRun): string {
  return [
    byTarget(run, 'Scenario: req/s, p99 ms (peak RSS MB)', rateCell, README_SCENARIOS),
    '',
    `The run of ${when(run)}, on ${run.machine}; every scenario, the ceilings and what a request ` +
      'costs: [docs/benchmarks.md](docs/benchmarks.md#latest-results).',
  ].join('\n');
}

/** `text` with what lies between `<!-- bench:NAME:start -->` and `<!-- bench:NAME:end -->` replaced by `body`. */
export function replaceMarked(text: string, name: string, body: string): string {
  const start = `<!-- bench:${name}:start -->`;
  const end = `<!-- bench:${name}:end -->`;
  const from = text.indexOf(start);
  const to = text.indexOf(end);
  if (from < 0 || to < from || text.indexOf(start, from + 1) >= 0 || text.indexOf(end, to + 1) >= 0)
    throw new Error(`expected one ${start} followed by one ${end}`);
  return `${text.slice(0, from + start.length)}\n\n${body.trim()}\n\n${text.slice(to)}`;
}

/** Rewrites the marked sections of the README and docs/benchmarks.md below `root`; returns the files. */
export function writeSummaries(run: BenchRun, root = '.'): string[] {
  const sections = { table: readmeSection(run), summary: benchmarksSection(run) };
  return Object.entries(TARGET_FILES).map(([name, file]) => {
    const path = join(root, file);
    writeFileSync(
      path,
      replaceMarked(readFileSync(path, 'utf8'), name, sections[name as keyof typeof sections]),
    );
    return file;
  });
}
