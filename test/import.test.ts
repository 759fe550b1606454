import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../src/cli/program.ts';
import { countRows } from './support/deliver.ts';
import { ADMIN_KEY, createTestApp, seedSource, type TestApp } from './support/app.ts';

/** `leadgate send`: the bulk importer against a real gateway on the suite's database. */

let t: TestApp;
let url: string;
const dir = mkdtempSync(join(tmpdir(), 'leadgate-import-'));

beforeAll(async () => {
  // With the table upkeep `leadgate serve` runs, as an agent's import meets it: without it, the
  // 10,000-row import on the embedded database is now and then several times slower
  // (docs/benchmarks.md).
  t = await createTestApp({ upkeep: true });
  url = await t.app.listen({ port: 0, host: '127.0.0.1' });
});
afterAll(async () => {
  await t.close();
  rmSync(dir, { recursive: true, force: true });
});

/** A CSV of `n` leads with vendor column names; every 100th row has no name (refused MISSING_NAME). */
function csv(file: string, n: number, tag: string): string {
  const lines = ['Full Name,Phone Number,E-mail,Zip Code,Favorite Color'];
  for (let i = 1; i <= n; i++) {
    const name = i % 100 === 0 ? '' : `"${tag} Lead ${i}, Jr."`;
    lines.push(`${name},${String(2000000000 + i)},${tag.toLowerCase()}${i}@example.com,78701,teal`);
  }
  const path = join(dir, file);
  writeFileSync(path, `${lines.join('\n')}\n`);
  return path;
}

async function leadgate(args: string[]) {
  let out = '';
  let err = '';
  const code = await runCli(['node', 'leadgate', ...args], {
    out: (s) => (out += s),
    err: (s) => (err += s),
    env: { LEADGATE_URL: url, ADMIN_API_KEY: ADMIN_KEY },
  });
  return { code, out, err };
}

const results = (path: string) =>
  readFileSync(path, 'utf8')
    .trim()
    .split('\n')
    .map(
      (l) =>
        JSON.parse(l) as {
          row: number;
          outcome: string;
          lead_id?: string;
          error_code?: string;
          details?: string;
          warnings?: Array<{ field: string; code: string }>;
        },
    );

describe('leadgate send', () => {
  it('When a 10,000-row CSV with 1 % bad rows is sent, then the counts are exact and every row has its outcome', async () => {
    const s = await seedSource(t.db, 'Import Agent');
    const file = csv('ten-thousand.csv', 10_000, 'Big');
    const out = join(dir, 'ten-thousand.jsonl');
    const run = await leadgate([
      'send',
      file,
      '--token',
      s.token,
      '--results',
      out,
      '--concurrency',
      '32',
      '--allow-refused',
    ]);
    expect(run.code, run.err).toBe(0);
    expect(run.out).toMatch(/10000 rows .*created 9900, rejected 100/);
    expect(run.out).toContain('MISSING_NAME 100');
    expect(run.err).toBe(''); // not a terminal: no progress
    const lines = results(out);
    expect(lines.map((l) => l.row).sort((a, b) => a - b)).toEqual(
      Array.from({ length: 10_000 }, (_, i) => i + 1),
    );
    expect(
      lines
        .filter((l) => l.outcome === 'rejected')
        .every((l) => l.row % 100 === 0 && l.error_code === 'MISSING_NAME'),
    ).toBe(true);
    expect(await countRows(t.db, 'leads', 'agent_id = $1', [s.agent_id])).toBe(9900);
    const lead = await t.db.query<{ name: string; custom_fields: Record<string, unknown> }>(
      `SELECT name, custom_fields FROM leads WHERE agent_id = $1 AND phone = '2000000001'`,
      [s.agent_id],
    );
    expect(lead.rows[0]).toMatchObject({
      name: 'Big Lead 1, Jr.',
      custom_fields: { 'Favorite Color': 'teal' },
    });
    // Running a file again is the next test's, at 1,500 rows: replaying 10,000 adds nothing it checks.
  }, 240_000);

  it('When an import is killed half-way and run again, then no lead is created twice and every row is accounted for', async () => {
    const s = await seedSource(t.db, 'Killed Import');
    const file = csv('killed.csv', 1_500, 'Kill');
    const first = join(dir, 'killed-1.jsonl');
    const child = spawn(
      process.execPath,
      ['bin/leadgate.js', 'send', file, '--token', s.token, '--results', first],
      {
        env: { ...process.env, LEADGATE_URL: url, ADMIN_API_KEY: ADMIN_KEY },
        stdio: 'ignore',
      },
    );
    // Kill it once some rows are in, long before the end.
    for (let i = 0; i < 600; i++) {
      await new Promise((r) => setTimeout(r, 50));
      if ((await countRows(t.db, 'leads', 'agent_id = $1', [s.agent_id])) >= 200) break;
    }
    child.kill('SIGKILL');
    await new Promise((r) => child.once('exit', r));
    const before = await countRows(t.db, 'leads', 'agent_id = $1', [s.agent_id]);
    expect(before).toBeGreaterThanOrEqual(200);
    expect(before).toBeLessThan(1_485);

    const second = join(dir, 'killed-2.jsonl');
    const run = await leadgate(['send', file, '--token', s.token, '--results', second, '--allow-refused']);
    expect(run.code, run.err).toBe(0);
    const lines = results(second);
    expect(lines).toHaveLength(1_500);
    const counts = {
      rejected: lines.filter((l) => l.outcome === 'rejected'),
      created: lines.filter((l) => l.outcome === 'created'),
      replayed: lines.filter((l) => l.outcome === 'replayed'),
    };
    expect(counts.rejected).toHaveLength(15);
    expect(counts.created.length + counts.replayed.length).toBe(1_485);
    expect(counts.replayed.length).toBeGreaterThanOrEqual(before); // what the killed run had sent
    expect(await countRows(t.db, 'leads', 'agent_id = $1', [s.agent_id])).toBe(1_485);
    const phones = await t.db.query<{ n: number }>(
      `SELECT count(DISTINCT phone)::int AS n FROM leads WHERE agent_id = $1`,
      [s.agent_id],
    );
    expect(phones.rows[0]?.n).toBe(1_485);

    // A third run finds every row delivered.
    const again = await leadgate(['send', file, '--token', s.token, '--concurrency', '16']);
    expect(again.out).toMatch(/1500 rows .*: replayed 1485, rejected 15/);
    expect(await countRows(t.db, 'leads', 'agent_id = $1', [s.agent_id])).toBe(1_485);
  }, 240_000);

  it('When the source’s rate limit is hit by many rows at once, then the importer holds them all on 429 and Retry-After (showing progress on a terminal): every row delivered once, none given up', async () => {
    // 64 rows in flight against 20/s: each row retrying on its own schedule, some gave up after
    // six 429s (23 of 300 with bursts of 5); paced together, none does (src/cli/pace.test.ts).
    const limited = await createTestApp({ testDb: t.testDb, rateLimit: { rps: 20, burst: 20 } });
    try {
      const limitedUrl = await limited.app.listen({ port: 0, host: '127.0.0.1' });
      const s = await seedSource(t.db, 'Paced Import');
      const out = join(dir, 'paced.jsonl');
      let err = '';
      const code = await runCli(
        [
          'node',
          'leadgate',
          'send',
          csv('paced.csv', 150, 'Paced'),
          '--token',
          s.token,
          '--results',
          out,
          '--concurrency',
          '64',
          '--allow-refused',
        ],
        {
          out: () => undefined,
          err: (x) => (err += x),
          env: { LEADGATE_URL: limitedUrl, ADMIN_API_KEY: ADMIN_KEY },
          isTTY: true, // as on a terminal: progress on stderr
        },
      );
      expect(code, err).toBe(0);
      expect(limited.logs.some((l) => l.includes('"statusCode":429'))).toBe(true); // it was held
      expect(err).toMatch(/\r\d+ rows · created \d+/); // the progress line, rewritten in place
      const lines = results(out);
      expect(lines).toHaveLength(150);
      expect(lines.filter((l) => l.outcome === 'created')).toHaveLength(149);
      expect(lines.filter((l) => l.outcome === 'rejected').map((l) => l.row)).toEqual([100]);
      expect(await countRows(t.db, 'leads', 'agent_id = $1', [s.agent_id])).toBe(149);
    } finally {
      await limited.app.close();
    }
  }, 120_000);

  it('When a JSON Lines file has a broken line, then that row is rejected and the rest go; --listen creates nothing and says what maps where', async () => {
    const s = await seedSource(t.db, 'Lines Import');
    const file = join(dir, 'leads.jsonl');
    writeFileSync(
      file,
      [
        '{"name":"Line One","phone":"5125550001"}',
        'not json',
        '',
        '[1,2]',
        '{"first_name":"Line","zip":"78701"}',
      ].join('\n'),
    );
    const out = join(dir, 'leads-results.jsonl');
    const run = await leadgate(['send', file, '--token', s.token, '--results', out, '--allow-refused']);
    expect(run.code, run.err).toBe(0);
    expect(
      results(out)
        .sort((a, b) => a.row - b.row)
        .map((l) => [l.row, l.outcome, l.error_code]),
    ).toEqual([
      [1, 'created', undefined],
      [2, 'rejected', 'INVALID_JSON'],
      [3, 'rejected', 'INVALID_JSON'],
      [4, 'created', undefined],
    ]);
    const listen = await leadgate(['send', csv('listen.csv', 5, 'Listen'), '--token', s.token, '--listen']);
    expect(listen.code, listen.err).toBe(0);
    expect(listen.out).toMatch(/5 rows .*listened 5/);
    expect(listen.out).toContain('Full Name → name');
    expect(listen.out).toContain('Zip Code → zipcode');
    expect(listen.out).toContain('Favorite Color → custom_fields');
    expect(await countRows(t.db, 'leads', 'agent_id = $1', [s.agent_id])).toBe(2);
  });

  it('When the file is neither CSV nor JSON Lines, or the token is wrong, then it says so and exits non-zero', async () => {
    const txt = join(dir, 'leads.txt');
    writeFileSync(txt, 'hello');
    const wrongType = await leadgate(['send', txt, '--token', 'x']);
    expect(wrongType.code).toBe(1);
    expect(wrongType.err).toContain('give a .csv file');
    const badToken = await leadgate([
      'send',
      csv('bad-token.csv', 3, 'Bad'),
      '--token',
      '00000000-0000-4000-8000-000000000000',
    ]);
    expect(badToken.code).toBe(1); // every row got an outcome, and every one was refused
    expect(badToken.out).toContain('INVALID_SOURCE_TOKEN 3');
    expect(badToken.err).toContain('3 of 3 rows were refused');
  });

  it('When the file is missing or the results cannot be written, then one line says which and it exits 1 (the process went on)', async () => {
    const missing = await leadgate(['send', join(dir, 'no-such.csv'), '--token', 'x']);
    expect(missing).toMatchObject({ code: 1, err: expect.stringContaining('cannot read') as string });
    expect(missing.err).toContain('ENOENT');
    const unwritable = await leadgate([
      'send',
      csv('unwritable.csv', 1, 'Unwritable'),
      '--token',
      'x',
      '--results',
      join(dir, 'no-such-dir', 'out.jsonl'),
    ]);
    expect(unwritable).toMatchObject({ code: 1, err: expect.stringContaining('cannot write') as string });
  });

  it('When one row of three is refused, then send exits 1 saying how many and how to accept them; --allow-refused exits 0', async () => {
    const s = await seedSource(t.db, 'Refused Import');
    const file = csv('one-refused.csv', 100, 'Ref');
    const refused = await leadgate(['send', file, '--token', s.token]);
    expect(refused.code).toBe(1);
    expect(refused.out).toMatch(/100 rows .*: created 99, rejected 1/);
    expect(refused.err).toContain('1 of 100 rows were refused');
    expect(refused.err).toContain('--allow-refused');
    const accepted = await leadgate(['send', file, '--token', s.token, '--allow-refused']);
    expect(accepted.code, accepted.err).toBe(0);
    expect(accepted.out).toMatch(/replayed 99, rejected 1/);
  });

  it('When every row is created, then send exits 0', async () => {
    const s = await seedSource(t.db, 'Clean Import');
    const run = await leadgate(['send', csv('clean.csv', 20, 'Clean'), '--token', s.token]);
    expect(run.code, run.err).toBe(0);
    expect(run.out).toMatch(/20 rows .*: created 20/);
    expect(run.out).not.toContain('warnings');
  });

  it('When rows carry an invalid phone, state or ZIP, then each row’s warnings are in the summary and the results file, and the rows are created', async () => {
    const s = await seedSource(t.db, 'Warned Import');
    const file = join(dir, 'warned.csv');
    writeFileSync(
      file,
      [
        'name,phone,state,zip',
        'Good Row,5125550101,TX,78701',
        'Bad Phone,12345,TX,78701',
        'Bad State,5125550103,ZZ,78701',
        'Bad Zip,5125550104,TX,7870',
      ].join('\n'),
    );
    const out = join(dir, 'warned.jsonl');
    const run = await leadgate(['send', file, '--token', s.token, '--results', out]);
    expect(run.code, run.err).toBe(0);
    expect(run.out).toMatch(/4 rows .*: created 4/);
    expect(run.out).toMatch(/warnings \(kept, not refused\): .*INVALID_PHONE 1/);
    expect(run.out).toMatch(/row 2: INVALID_PHONE /);
    expect(run.out).toMatch(/row 3: INVALID_STATE /);
    expect(run.out).toMatch(/row 4: INVALID_ZIP/);
    const lines = results(out).sort((a, b) => a.row - b.row);
    expect(lines.map((l) => (l.warnings ?? []).map((w) => `${w.field}:${w.code}`))).toEqual([
      [],
      ['phone:INVALID_PHONE'],
      ['state:INVALID_STATE'],
      [expect.stringMatching(/^zipcode:INVALID_ZIP/)],
    ]);
  });

  it('When a row is refused for want of a name, then its results line carries the gateway’s details', async () => {
    const s = await seedSource(t.db, 'Nameless Import');
    const file = join(dir, 'nameless.jsonl');
    writeFileSync(file, '{"email":"nobody@example.com"}\n');
    const out = join(dir, 'nameless-results.jsonl');
    const run = await leadgate(['send', file, '--token', s.token, '--results', out]);
    expect(run.code).toBe(1);
    expect(JSON.parse(readFileSync(out, 'utf8'))).toMatchObject({
      row: 1,
      outcome: 'rejected',
      error_code: 'MISSING_NAME',
      details: expect.stringContaining('first_name'),
    });
  });
});
