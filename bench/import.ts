/**
 * The importer's throughput, as an agent would run it:
 *   npm run bench:import                                              # embedded database only
 *   BENCH_DATABASE_URL=postgres://postgres@127.0.0.1:5432/test npm run bench:import
 * Env: BENCH_IMPORT_ROWS (default 10000, with a raised limit), BENCH_IMPORT_DEFAULT_ROWS (default
 * 1000, at the default limit of 20/s, bursts of 100: that one is bound by the limit by design).
 *
 * Starts `leadgate serve` with the server's default rate limit, makes a source, writes a CSV of
 * realistic vendor rows, and runs `leadgate send FILE --token …` as a separate process: twice at the
 * default limit (4 rows in flight, the default, and 64), once after `leadgate sources rate-limit ID
 * --rps 2000 --burst 2000`. No timing is
 * asserted anywhere; this is for the closing note.
 */
import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  ADMIN_KEY,
  provisionSource,
  startLeadgate,
  stopLeadgate,
  withDataDir,
  withSchema,
} from './leadgate-process.ts';

const ROWS = Number(process.env.BENCH_IMPORT_ROWS ?? 10_000);
const DEFAULT_ROWS = Number(process.env.BENCH_IMPORT_DEFAULT_ROWS ?? 1_000);
const PG_URL = process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL;

function writeCsv(dir: string, name: string, n: number, offset: number): string {
  const lines = ['First Name,Last Name,Phone Number,E-mail,Zip Code,State,Lead Type,Coverage Amount,Notes'];
  for (let i = offset; i < offset + n; i++) {
    lines.push(
      `Prospect,Number ${i},${String(3000000000 + i)},p${i}@example.com,787${String(i % 100).padStart(2, '0')},TX,Final Expense,15000,"called about a quote, prefers mornings"`,
    );
  }
  const file = join(dir, name);
  writeFileSync(file, `${lines.join('\n')}\n`);
  return file;
}

function leadgate(args: string[], url: string): { seconds: number; out: string } {
  const started = performance.now();
  const run = spawnSync(process.execPath, ['bin/leadgate.js', ...args], {
    env: { ...process.env, LEADGATE_URL: url, ADMIN_API_KEY: ADMIN_KEY },
    encoding: 'utf8',
  });
  if (run.status !== 0) throw new Error(`leadgate ${args[0]}: ${run.status} ${run.stderr}`);
  return { seconds: (performance.now() - started) / 1000, out: run.stdout };
}

async function measure(database: string, env: Record<string, string>, dir: string) {
  // The server's own default limit (the bench helper turns it off unless told).
  const { child, match } = await startLeadgate(
    ['serve'],
    { ...env, RATE_LIMIT_RPS: '20', RATE_LIMIT_BURST: '100' },
    /listening on (http:\/\/\S+)/,
  );
  const url = match[1] ?? '';
  try {
    const source = await provisionSource(url);
    /** One `leadgate send` of `n` rows, timed, as a row of the table. */
    const send = (limit: string, file: string, n: number, extra: string[] = []) => {
      const { seconds, out } = leadgate(['send', file, '--token', source.token, ...extra], url);
      return {
        database,
        limit,
        rows: n,
        seconds: Number(seconds.toFixed(1)),
        'rows/s': Math.round(n / seconds),
        summary: out.split('\n')[0],
      };
    };
    const rows = [
      send('default (20/s, burst 100)', writeCsv(dir, 'default.csv', DEFAULT_ROWS, 0), DEFAULT_ROWS),
      // Many rows in flight against the default limit: the importer's pace (src/cli/pace.ts).
      send(
        'default, --concurrency 64',
        writeCsv(dir, 'default-64.csv', DEFAULT_ROWS, 2_000_000),
        DEFAULT_ROWS,
        ['--concurrency', '64'],
      ),
    ];
    leadgate(['sources', 'rate-limit', source.sourceId, '--rps', '2000', '--burst', '2000'], url);
    rows.push(
      send('raised (2000/s), --concurrency 16', writeCsv(dir, 'raised.csv', ROWS, 1_000_000), ROWS, [
        '--concurrency',
        '16',
      ]),
    );
    return rows;
  } finally {
    await stopLeadgate(child);
  }
}

const table = await withDataDir(async (dir) => {
  const rows = await measure('embedded (PGlite)', { DATA_DIR: join(dir, 'data') }, dir);
  if (PG_URL)
    rows.push(...(await withSchema(PG_URL, (url) => measure('PostgreSQL', { DATABASE_URL: url }, dir))));
  return rows;
});
process.stdout.write(
  `\nleadgate send: rows/s through the gateway, node ${process.version} (seconds include the CLI's start)\n`,
);
console.table(table);
