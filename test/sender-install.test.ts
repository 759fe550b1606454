import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, seedSource, type TestApp } from './support/app.ts';
import { blocks } from './support/doc-blocks.ts';

/**
 * The sender client installed as the docs say, by someone outside the repository: a tarball
 * `npm pack` made of packages/sender, installed into an empty folder (no network: it has no
 * dependencies), and each documented example pasted into a `.mjs` file and run with node against
 * a live gateway. Only the gateway's address is replaced.
 */
const ROOT = new URL('..', import.meta.url).pathname;
const run = promisify(execFile);
const read = (file: string) => readFileSync(join(ROOT, file), 'utf8');

let t: TestApp;
let url: string;
let project: string;

beforeAll(async () => {
  t = await createTestApp();
  url = await t.app.listen({ port: 0, host: '127.0.0.1' });
  project = mkdtempSync(join(tmpdir(), 'leadgate-vendor-'));
  // --ignore-scripts: the package's prepack would rebuild dist/, which other test files are loading
  // right now; `npm install` in the repository built it, as the docs' first step says.
  const packed = await run(
    'npm',
    ['pack', './packages/sender', '--ignore-scripts', '--pack-destination', project],
    {
      cwd: ROOT,
      timeout: 60_000,
    },
  );
  const tarball = packed.stdout.trim().split('\n').at(-1) ?? '';
  expect(tarball).toBe('leadgate-sender-0.1.0.tgz');
  writeFileSync(join(project, 'package.json'), '{"name":"a-vendor","private":true}\n');
  await run('npm', ['install', '--offline', '--no-audit', '--no-fund', `./${tarball}`], {
    cwd: project,
    timeout: 60_000,
  });
}, 120_000);
afterAll(async () => {
  await t.close();
  rmSync(project, { recursive: true, force: true });
});

const EXAMPLES = [
  ['README.md', '## Send a lead', 'http://127.0.0.1:3000'],
  ['packages/sender/README.md', '## Use', 'https://leads.example.com'],
  ['docs/senders.md', '### Node (the client in this repository)', 'https://leads.example.com'],
] as const;

describe('the sender client, installed as documented', () => {
  it('When the package is installed from its tarball, then it holds the built client and its types, nothing else', () => {
    const pkg = JSON.parse(read('packages/sender/package.json')) as { version: string };
    const installed = JSON.parse(
      readFileSync(join(project, 'node_modules', '@leadgate', 'sender', 'package.json'), 'utf8'),
    ) as { version: string; dependencies?: object };
    expect(installed.version).toBe(pkg.version);
    expect(installed.dependencies).toBeUndefined();
  });

  it.each(EXAMPLES)(
    'When the example of %s (under “%s”) is pasted into a .mjs file and run, then its lead is created',
    async (doc, heading, address) => {
      const [code] = blocks(read(doc), heading, 'js');
      expect(code, `${doc}: a js block under ${heading}`).toContain("from '@leadgate/sender'");
      const source = await seedSource(t.db, `Vendor of ${doc}`);
      const file = join(project, 'send-lead.mjs');
      writeFileSync(file, (code ?? '').replaceAll(address, url));
      const { stdout } = await run(process.execPath, [file], {
        cwd: project,
        env: { PATH: process.env.PATH ?? '', LEADGATE_TOKEN: source.token },
        timeout: 20_000,
      });
      const [outcome, leadId] = stdout.trim().split(/\s+/);
      expect(outcome).toBe('created');
      const { rows } = await t.db.query<{ agent_id: string }>(
        'SELECT agent_id FROM leads WHERE lead_id = $1',
        [leadId ?? ''],
      );
      expect(rows).toEqual([{ agent_id: source.agent_id }]);
    },
  );
});
