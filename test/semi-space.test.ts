import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { deliverInParallel } from './support/deliver.ts';
import { migratedDataDir, TEST_DATABASE_URL } from './support/db.ts';
import { startBinProcess } from './support/processes.ts';

const dir = mkdtempSync(join(tmpdir(), 'leadgate-semi-'));
const dataDirs: string[] = [];
afterAll(() => {
  for (const d of [dir, ...dataDirs]) rmSync(d, { recursive: true, force: true });
});

// Loaded into the server (NODE_OPTIONS): the largest semi-space of its main thread, every 20 ms,
// printed as it stops.
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
  process.once('SIGTERM', () => { read(); process.stdout.write('SEMI-SPACE MAX ' + max + '\\n'); });
}
`,
);

/**
 * The largest semi-space an embedded `leadgate serve` has while it starts and takes 300 leads: the
 * compiled server, as `npm start` runs it (from the sources, tsx's loader threads would reconfigure
 * V8's heap at moments of their own; see src/heap.ts).
 */
async function semiSpaceOfServeMb(env: Record<string, string>, name: string): Promise<number> {
  const dataDir = migratedDataDir(`leadgate-semi-${name}-`);
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
  const max = /SEMI-SPACE MAX ([\d.]+)/.exec(server.output());
  if (!max) throw new Error(`no probe output:\n${server.output()}`);
  return Number(max[1]);
}

// An embedded server's setting: the suite on PostgreSQL has no migrated embedded database to start from.
describe.skipIf(TEST_DATABASE_URL)('an embedded server’s young generation', () => {
  it('When leadgate serve starts on the embedded database, then its semi-space grows to SEMI_SPACE_MB’s 4 MB and no further, where with 0 V8 grows it past', async () => {
    expect(await semiSpaceOfServeMb({ SEMI_SPACE_MB: '0' }, 'v8')).toBeGreaterThan(4);
    const limited = await semiSpaceOfServeMb({}, 'default');
    expect(limited).toBeLessThanOrEqual(4);
    expect(limited).toBeGreaterThan(2); // held while starting (1-2 MB), let grow to the limit once listening
  }, 90_000);
});
