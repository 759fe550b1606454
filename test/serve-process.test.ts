import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { deliverInParallel } from './support/deliver.ts';
import { migratedDataDir, TEST_DATABASE_URL } from './support/db.ts';
import { startBinProcess } from './support/processes.ts';

const dir = mkdtempSync(join(tmpdir(), 'leadgate-serve-'));
const dataDirs: string[] = [];
afterAll(() => {
  for (const d of [dir, ...dataDirs]) rmSync(d, { recursive: true, force: true });
});

// Loaded into each process of the server (NODE_OPTIONS: the launcher and the node it starts with
// its flags): the largest semi-space of its main thread, every 20 ms, and its node flags, printed
// as it stops.
const probe = join(dir, 'probe.mjs');
writeFileSync(
  probe,
  `import { getHeapSpaceStatistics } from 'node:v8';
import { isMainThread } from 'node:worker_threads';
if (isMainThread) {
  let max = 0;
  const read = () => {
    const s = getHeapSpaceStatistics().find((space) => space.space_name === 'new_space');
    max = Math.max(max, (s.space_used_size + s.space_available_size) / 2 ** 20);
  };
  setInterval(read, 20).unref();
  process.once('SIGTERM', () => {
    read();
    process.stdout.write('SEMI-SPACE PID ' + process.pid + ' PPID ' + process.ppid + ' MAX ' + max + ' FLAGS ' + process.execArgv.join(' ') + '\\n');
  });
}
`,
);

/**
 * The largest semi-space an embedded `leadgate serve` has while it starts and takes 300 leads, and
 * the node flags of the process that served: the compiled server, as `npm start` runs it.
 */
async function semiSpaceOfServeMb(
  env: Record<string, string>,
  name: string,
): Promise<{ mb: number; flags: string }> {
  const dataDir = migratedDataDir(`leadgate-serve-${name}-`);
  dataDirs.push(dataDir);
  const server = await startBinProcess(
    ['serve'],
    { DATABASE_URL: '', DATA_DIR: dataDir, ADMIN_API_KEY: 'k', NODE_OPTIONS: `--import ${probe}`, ...env },
    /listening on (http:\/\/\S+)/,
  );
  try {
    // To the demo source its first start makes (its token in the banner).
    const token = /Demo source token \(shown once\): (\S+)/.exec(server.output())?.[1] ?? '';
    const results = await deliverInParallel([server.url], token, 300, (i) => ({
      name: `Lead ${i}`,
      phone: `+1214555${String(i).padStart(4, '0')}`,
      state: 'TX',
    }));
    expect(results.filter((r) => r.status !== 200)).toEqual([]);
  } finally {
    await server.stop();
  }
  // The launcher's own line and the server's: the server is the launcher's child.
  const lines = [...server.output().matchAll(/SEMI-SPACE PID (\d+) PPID (\d+) MAX ([\d.]+) FLAGS (.*)/g)];
  const pids = new Set(lines.map((l) => l[1]));
  const served = lines.find((l) => pids.has(l[2] ?? ''));
  if (!served) throw new Error(`no probe output of the server:\n${server.output()}`);
  return { mb: Number(served[3]), flags: served[4] ?? '' };
}

// An embedded server's setting: the suite on PostgreSQL has no migrated embedded database to start from.
describe.skipIf(TEST_DATABASE_URL)('an embedded server on a small machine', () => {
  it('When leadgate serve starts on the embedded database, then its young generation is held to 4 MB and its heap growth to 50 %, where with SEMI_SPACE_MB=0 V8 grows the young generation past', async () => {
    const free = await semiSpaceOfServeMb({ SEMI_SPACE_MB: '0' }, 'v8');
    expect(free.mb).toBeGreaterThan(4);
    expect(free.flags).not.toContain('--max-semi-space-size');
    const limited = await semiSpaceOfServeMb({}, 'default');
    expect(limited.mb).toBeLessThanOrEqual(4);
    expect(limited.flags).toContain('--max-semi-space-size=4');
    expect(limited.flags).toContain('--heap-growing-percent=50');
  }, 150_000);
});

describe('a server started without the node flags it wants', () => {
  const start = (name: string) => {
    const dataDir = migratedDataDir(`leadgate-launch-${name}-`);
    dataDirs.push(dataDir);
    return startBinProcess(
      ['serve'],
      { DATABASE_URL: '', DATA_DIR: dataDir, ADMIN_API_KEY: 'k', LEADGATE_DEMO: '0' },
      /listening on (http:\/\/\S+)/,
    );
  };
  const answers = (url: string) =>
    fetch(`${url}/healthz`).then(
      (res) => res.ok,
      () => false,
    );

  it('When it is stopped with SIGTERM, then the node it runs in stops as a server does and the launcher exits 0', async () => {
    const server = await start('term');
    expect(await answers(server.url)).toBe(true);
    expect(await server.stop('SIGTERM')).toBe(0);
    expect(await answers(server.url)).toBe(false);
  }, 90_000);

  it('When its launcher is killed, then the server goes with it', async () => {
    const server = await start('kill');
    expect(await answers(server.url)).toBe(true);
    await server.stop('SIGKILL');
    const deadline = Date.now() + 10_000;
    while ((await answers(server.url)) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
    expect(await answers(server.url)).toBe(false);
  }, 90_000);
});
