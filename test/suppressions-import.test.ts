import { mkdtempSync, readFileSync, rmSync, writeFileSync, existsSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../src/cli/program.ts';
import { ADMIN_KEY, adminInject, createTestApp, seedSource, type TestApp } from './support/app.ts';

/**
 * `leadgate suppressions import` (docs/compliance.md, "Loading lists") against a running test
 * server: a file of mixed writings, a stop in the middle and the continuation, and a rerun that
 * adds nothing. The import of a million numbers is measured, not tested: docs/compliance.md.
 */

let t: TestApp;
let url: string;
let dir: string;
beforeAll(async () => {
  t = await createTestApp();
  url = await t.app.listen({ port: 0, host: '127.0.0.1' });
  dir = mkdtempSync(join(tmpdir(), 'leadgate-suppressions-'));
});
afterAll(async () => {
  await t.close();
  rmSync(dir, { recursive: true, force: true });
});

async function leadgate(args: string[], server = url) {
  let out = '';
  let err = '';
  const code = await runCli(['node', 'leadgate', ...args], {
    out: (s) => (out += s),
    err: (s) => (err += s),
    env: { LEADGATE_URL: server, ADMIN_API_KEY: ADMIN_KEY },
  });
  return { code, out, err };
}

/**
 * 12,000 lines: a header, 10,000 distinct phones written four ways, 1,000 emails, 500 repeats of
 * earlier phones, 499 lines that are neither.
 */
function registryFile(): { path: string; distinct: number; lines: number; skipped: number } {
  const rows = ['phone,name,state'];
  const digits = (i: number) => `312${String(5_000_000 + i).padStart(7, '0')}`;
  for (let i = 0; i < 10_000; i++) {
    const d = digits(i);
    const writings = [
      d,
      `(${d.slice(0, 3)}) ${d.slice(3, 6)}-${d.slice(6)}`,
      `+1 ${d}`,
      `"${d.slice(0, 3)}.${d.slice(3, 6)}.${d.slice(6)}"`,
    ];
    rows.push(`${writings[i % 4]},Name ${i},IL`);
  }
  for (let i = 0; i < 1_000; i++) rows.push(`Person${i}@Example.com`);
  for (let i = 0; i < 500; i++) rows.push(digits(i * 7));
  for (let i = 0; i < 499; i++) rows.push(i % 2 ? 'no number here' : '555-0101');
  const path = join(dir, `registry-${Date.now()}.csv`);
  writeFileSync(path, `${rows.join('\r\n')}\n`);
  return { path, distinct: 11_000, lines: rows.length, skipped: 1 + 499 };
}

/** A server in front of the test server that refuses every request after the first `passes`. */
async function failingAfter(passes: number): Promise<{ url: string; close: () => Promise<void> }> {
  let seen = 0;
  const server: Server = createServer((req, res) => {
    let body = '';
    req.on('data', (d: Buffer) => (body += d.toString()));
    req.on('end', async () => {
      if (++seen > passes) {
        res.statusCode = 400;
        res.setHeader('content-type', 'application/json');
        res.end(
          JSON.stringify({
            error: 'Invalid request',
            error_code: 'VALIDATION_ERROR',
            details: 'the line went down',
          }),
        );
        return;
      }
      const answer = await fetch(`${url}${req.url}`, {
        method: req.method,
        headers: req.headers as Record<string, string>,
        body,
      });
      res.statusCode = answer.status;
      res.setHeader('content-type', 'application/json');
      res.end(await answer.text());
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

describe('leadgate suppressions import', () => {
  it('When the import stops midway, then the same command continues where it stopped; a rerun adds nothing', async () => {
    const src = await seedSource(t.db, 'Importing Agent');
    const file = registryFile();
    const args = [
      'suppressions',
      'import',
      file.path,
      '--list',
      'registry',
      '--agent',
      src.agent_id,
      '--batch',
      '1000',
      '--json',
    ];

    const down = await failingAfter(4);
    const stopped = await leadgate(args, down.url);
    await down.close();
    expect(stopped.code).toBe(1);
    expect(stopped.err).toContain('the line went down');
    const checkpoint = JSON.parse(readFileSync(`${file.path}.leadgate-import`, 'utf8'));
    expect(checkpoint).toMatchObject({ list: 'registry', added: 4_000 });

    const resumed = await leadgate(args);
    expect(resumed.code, resumed.err).toBe(0);
    expect(resumed.err).toContain(`continuing ${file.path} at line ${checkpoint.lines + 1}`);
    // Every line counted once over both runs; the second added only what the first had not.
    expect(JSON.parse(resumed.out)).toMatchObject({
      list: 'registry',
      lines: file.lines,
      skipped: file.skipped,
      added: file.distinct,
      total: file.distinct,
    });
    expect(existsSync(`${file.path}.leadgate-import`)).toBe(false);
    const { rows } = await t.db.query<{ n: number }>(
      'SELECT count(*)::int AS n FROM suppressions WHERE agent_id = $1',
      [src.agent_id],
    );
    expect(rows[0]?.n).toBe(file.distinct);

    const again = await leadgate(args);
    expect(again.code, again.err).toBe(0);
    expect(JSON.parse(again.out)).toMatchObject({ lines: file.lines, added: 0, total: file.distinct });
    const listed = (
      await adminInject(t.app, 'GET', `/agents/${src.agent_id}/suppressions?list=registry&limit=2`)
    ).json();
    expect(listed.entries.map((e: { phone?: string }) => e.phone)).toEqual(['3125000000', '3125000001']);
  });

  it('When an agency’s list is named, then the file goes to the agency’s list', async () => {
    const src = await seedSource(t.db, 'Agency Importer');
    const agency = (
      await adminInject(t.app, 'POST', '/agencies', {
        name: 'Importing agency',
        fallback_agent_id: src.agent_id,
      })
    ).json();
    const path = join(dir, 'litigators.txt');
    writeFileSync(path, 'sue@example.com\n(415) 555-0100\n');
    const run = await leadgate([
      'suppressions',
      'import',
      path,
      '--list',
      'litigator',
      '--agency',
      agency.agency_id,
      '--json',
    ]);
    expect(run.code, run.err).toBe(0);
    expect(JSON.parse(run.out)).toMatchObject({ lines: 2, added: 2, total: 2 });
    const listed = (await adminInject(t.app, 'GET', `/agencies/${agency.agency_id}/suppressions`)).json();
    expect(listed.entries).toEqual([
      { list: 'litigator', phone: '4155550100', added_at: expect.any(String) },
      { list: 'litigator', email: 'sue@example.com', added_at: expect.any(String) },
    ]);
  });

  it('When the options are wrong, then nothing is sent and the command says why', async () => {
    const file = registryFile();
    expect(
      (await leadgate(['suppressions', 'import', file.path, '--list', 'nope', '--agent', 'x'])).err,
    ).toContain('--list must be one of');
    expect((await leadgate(['suppressions', 'import', file.path, '--list', 'dnc'])).err).toContain(
      '--agent ID or --agency ID',
    );
    expect(
      (await leadgate(['suppressions', 'import', join(dir, 'missing.csv'), '--list', 'dnc', '--agent', 'x']))
        .err,
    ).toContain('cannot read');
    expect(
      (
        await leadgate([
          'suppressions',
          'import',
          file.path,
          '--list',
          'dnc',
          '--agent',
          'x',
          '--batch',
          '20000',
        ])
      ).code,
    ).toBe(1);
  });
});
