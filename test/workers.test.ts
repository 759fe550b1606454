import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedSource } from './support/app.ts';
import { createTestDb, TEST_DATABASE_URL, type TestDb } from './support/db.ts';
import { countRows, deliverInParallel } from './support/deliver.ts';
import { startCliProcess, type GatewayProcess } from './support/processes.ts';
import { until } from './support/until.ts';

const READY = /listening on (http:\/\/\S+)/;
const pidsIn = (output: string) =>
  [...output.matchAll(/worker (\d) \(pid (\d+)\) listening/g)].map((m) => ({
    index: Number(m[1]),
    pid: Number(m[2]),
  }));
/** Whether the process is there; a pid of 0 or less would signal a whole process group: refused. */
const alive = (pid: number) => {
  if (!(pid > 0)) throw new Error(`not a process id: ${pid}`);
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};
describe('leadgate serve --workers', () => {
  it('When the embedded database is configured, then --workers is refused with the reason and exit 1', async () => {
    const started = startCliProcess(['serve', '--workers', '2'], { DATABASE_URL: '' }, READY);
    await expect(started).rejects.toThrow(/exited with 1[\s\S]*--workers needs DATABASE_URL/);
  }, 30_000);

  it('When --workers is not a number from 1 to 64, then the command is refused', async () => {
    const started = startCliProcess(['serve', '--workers', '0'], {}, READY);
    await expect(started).rejects.toThrow(/exited with 1[\s\S]*a whole number from 1 to 64/);
  }, 30_000);
});

// Several processes share one database only on a PostgreSQL server.
describe.runIf(TEST_DATABASE_URL)('leadgate serve --workers 2 on PostgreSQL', () => {
  let testDb: TestDb;
  let server: GatewayProcess;
  let src: { agent_id: string; source_id: string; token: string };

  beforeAll(async () => {
    testDb = await createTestDb();
    src = await seedSource(testDb.db);
    const env = { DATABASE_URL: testDb.url ?? '', ADMIN_API_KEY: 'k', LEADGATE_DEMO: '0' };
    server = await startCliProcess(['serve', '--workers', '2'], env, READY);
  }, 90_000);
  afterAll(async () => {
    await server.stop();
    await testDb.cleanup();
  });

  it('When it starts, then two worker processes listen on the one URL the banner prints', () => {
    const workers = pidsIn(server.output());
    expect(workers.map((w) => w.index).sort()).toEqual([0, 1]);
    expect(workers.every((w) => alive(w.pid) && w.pid !== server.child.pid)).toBe(true);
  });

  it('When 30 deliveries with one key and 30 of one contact arrive at once, then one lead each', async () => {
    const keyed = await deliverInParallel(
      [server.url],
      src.token,
      30,
      () => ({ name: 'Cluster Key', phone: '2145550801' }),
      () => ({ 'idempotency-key': 'k-workers' }),
    );
    expect(keyed.map((r) => r.status)).toEqual(Array(30).fill(200));
    expect(new Set(keyed.map((r) => r.body.lead_id)).size).toBe(1);
    // One created, the rest replays of it: merging by phone alone would answer them all as created.
    expect(keyed.filter((r) => r.body.idempotent_replay !== true)).toHaveLength(1);
    const contact = await deliverInParallel([server.url], src.token, 30, () => ({
      name: 'Cluster Contact',
      phone: '214-555-0802',
    }));
    expect(contact.map((r) => r.status)).toEqual(Array(30).fill(200));
    expect(await countRows(testDb.db, 'leads', "phone in ('2145550801', '2145550802')")).toBe(2);
  });

  it('When a worker is killed, then the gateway keeps answering and the worker is restarted', async () => {
    const [first] = pidsIn(server.output());
    // A pid of 0 would kill the test's own process group.
    if (!first) throw new Error(`no worker's pid in the server's output:\n${server.output()}`);
    process.kill(first.pid, 'SIGKILL');
    // Its open connections die with it (a sender retries those); new ones go to the other worker.
    await until(() => /exited \(SIGKILL\); restarting it/.test(server.output()));
    const during = await deliverInParallel([server.url], src.token, 10, (i) => ({
      name: `After Crash ${i}`,
      phone: `21455509${String(i).padStart(2, '0')}`,
    }));
    expect(during.map((r) => r.status)).toEqual(Array(10).fill(200));
    await until(() => pidsIn(server.output()).filter((w) => w.index === first.index).length === 2);
    const replacement = pidsIn(server.output()).at(-1);
    expect(replacement?.pid).not.toBe(first.pid);
    expect(alive(replacement?.pid ?? 0)).toBe(true);
  }, 30_000);

  it('When the primary gets SIGTERM, then every worker stops and it exits 0', async () => {
    const workers = pidsIn(server.output()).filter((w) => alive(w.pid));
    expect(workers).toHaveLength(2);
    expect(await server.stop('SIGTERM')).toBe(0);
    await until(() => workers.every((w) => !alive(w.pid)), 5_000);
  }, 30_000);
});
