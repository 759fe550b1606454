import { createHash } from 'node:crypto';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { format, resolveConfig } from 'prettier';
import { afterAll, describe, expect, it } from 'vitest';
import {
  benchmarksSection,
  readmeSection,
  replaceMarked,
  writeSummaries,
  type BenchRun,
} from '../bench/summary.ts';

/** What `npm run bench` writes into the docs (bench/summary.ts), on copies: tests never write into the repository. */
const ROOT = new URL('..', import.meta.url).pathname;
const FILES = ['README.md', 'docs/benchmarks.md'];
const temps: string[] = [];
afterAll(() => temps.forEach((dir) => rmSync(dir, { recursive: true, force: true })));

const run: BenchRun = {
  started: '2027-01-04T15:02:11.000Z',
  finished: '2027-01-04T15:11:40.000Z',
  machine: '2 cores (Test CPU), 4 GB, Linux 6.1, Node v20.19.0, PostgreSQL 15.20',
  texts: 'sent at once (inside TX calling hours)',
  seconds: 10,
  connections: 50,
  rows: [
    { target: 'embedded', scenario: 'new lead', 'req/s': 1234, 'p99 ms': 88, 'peak RSS MB': 231 },
    { target: 'embedded', scenario: 'mix', 'req/s': 1111, 'p99 ms': 91, errors: 3, 'peak RSS MB': 240 },
    {
      target: 'reference',
      scenario: 'pgbench, one delivery’s SQL, 32 clients (ceiling b), after PostgreSQL',
      'req/s': 2000,
      'p50 ms': 12.5,
      'p99 ms': 40.25,
      'peak RSS MB': null,
    },
    {
      target: 'PostgreSQL',
      scenario: 'new lead',
      'req/s': 2345,
      'p99 ms': 45,
      'peak RSS MB': 160,
      'server µs/req': 410,
      'postgres µs/req': 380,
      'WAL KB/req': 6,
    },
    {
      target: 'PostgreSQL',
      scenario: '  beside it: invalid token',
      'req/s': 4000,
      'p99 ms': 30,
      'peak RSS MB': null,
    },
  ],
  ratios: { 'PostgreSQL new lead / pgbench': 1.1725 },
  checks: { PostgreSQL: { leads: 40000, 'keys with 2+ leads': 0 } },
  reports: [
    { target: 'embedded', leads: 100000, json_ms: 1250, csv_ms: 1300 },
    { target: 'PostgreSQL', leads: 100000, json_ms: 180, csv_ms: 190 },
  ],
};

function copyOfDocs(): string {
  const dir = mkdtempSync(join(tmpdir(), 'leadgate-bench-docs-'));
  temps.push(dir);
  mkdirSync(join(dir, 'docs'));
  for (const file of FILES) cpSync(join(ROOT, file), join(dir, file));
  return dir;
}

/** What lies between a file's bench markers, and the file with that part left out. */
function split(text: string, name: string): { inside: string; outside: string } {
  const start = `<!-- bench:${name}:start -->`;
  const from = text.indexOf(start) + start.length;
  const to = text.indexOf(`<!-- bench:${name}:end -->`);
  return { inside: text.slice(from, to).trim(), outside: text.slice(0, from) + text.slice(to) };
}

const digest = (path: string) => createHash('sha256').update(readFileSync(path)).digest('hex');

describe('the benchmark summary in the docs', () => {
  it('When a marked section is replaced, then only what lies between the markers changes', () => {
    const text = 'before\n<!-- bench:x:start -->\nold\n<!-- bench:x:end -->\nafter\n';
    expect(replaceMarked(text, 'x', 'new')).toBe(
      'before\n<!-- bench:x:start -->\n\nnew\n\n<!-- bench:x:end -->\nafter\n',
    );
    expect(() => replaceMarked('no markers', 'x', 'new')).toThrow(/bench:x:start/);
    expect(() => replaceMarked('<!-- bench:x:end --><!-- bench:x:start -->', 'x', 'new')).toThrow();
    expect(() => replaceMarked(`${text}${text}`, 'x', 'new')).toThrow();
  });

  it('When the bench writes a run, then the README and docs/benchmarks.md get its sections and keep the rest', () => {
    const dir = copyOfDocs();
    const before = FILES.map((file) => digest(join(ROOT, file)));
    expect(writeSummaries(run, dir)).toEqual(FILES);
    for (const [file, name, section] of [
      ['README.md', 'table', readmeSection(run)],
      ['docs/benchmarks.md', 'summary', benchmarksSection(run)],
    ] as const) {
      const original = split(readFileSync(join(ROOT, file), 'utf8'), name);
      const written = split(readFileSync(join(dir, file), 'utf8'), name);
      expect(written.outside).toBe(original.outside);
      expect(written.inside).toBe(section);
    }
    expect(FILES.map((file) => digest(join(ROOT, file)))).toEqual(before);
  });

  it('When a run is summarised, then its figures, wrong answers, ceilings, costs and machine are shown', () => {
    const section = benchmarksSection(run);
    expect(section).toContain('The run of 2027-01-04 15:02–15:11 UTC, on 2 cores (Test CPU)');
    expect(section).toMatch(/\| new lead +\| 1,234, 88 \(231\) +\| 2,345, 45 \(160\) +\|/);
    expect(section).toMatch(/\| mix +\| 1,111, 91 \(240\), 3 wrong +\| +\|/);
    expect(section).toMatch(/\| — beside it: invalid token +\| +\| 4,000, 30 +\|/);
    expect(section).toMatch(/\| pgbench[^|]+\| 2,000 +\| 12.5 +\| 40.3 +\|/);
    expect(section).toMatch(/\| new lead +\| 410 \/ 380 \/ 6.0 +\|/);
    expect(section).toContain('- PostgreSQL new lead / pgbench: 1.17');
    expect(section).toContain('PostgreSQL: leads 40,000, keys with 2+ leads 0');
    expect(section).toMatch(/\| Embedded +\| 100,000 +\| 1,250 +\| 1,300 +\|/);
    expect(section).toMatch(/\| PostgreSQL +\| 100,000 +\| 180 +\| 190 +\|/);
    expect(readmeSection(run)).not.toContain('beside it');
  });

  it('When the sections are written, then Prettier would leave them as they are', async () => {
    const options = { ...(await resolveConfig(join(ROOT, 'README.md'))), parser: 'markdown' };
    for (const section of [benchmarksSection(run), readmeSection(run)]) {
      expect(await format(section, options)).toBe(`${section}\n`);
    }
  });

  it("When the docs are as committed, then the README's table is rows of the run docs/benchmarks.md shows", () => {
    const readme = split(readFileSync(join(ROOT, 'README.md'), 'utf8'), 'table').inside;
    const summary = split(readFileSync(join(ROOT, 'docs/benchmarks.md'), 'utf8'), 'summary').inside;
    const runOf = (text: string) => /The run of ([^,]+), on ([^;]+);/.exec(text)?.slice(1);
    expect(runOf(readme)).toBeDefined();
    expect(runOf(readme)).toEqual(runOf(summary));
    const cells = (line: string) => line.split('|').map((cell) => cell.trim());
    const summaryRows = summary
      .split('\n')
      .filter((line) => line.startsWith('| '))
      .map(cells);
    const readmeRows = readme
      .split('\n')
      .filter((line) => line.startsWith('| '))
      .map(cells);
    expect(readmeRows.length).toBeGreaterThan(2);
    for (const row of readmeRows.slice(2)) expect(summaryRows).toContainEqual(row);
  });
});
