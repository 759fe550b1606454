import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedSource } from './support/app.ts';
import { createTestDb, editQuery, TEST_DATABASE_URL, type TestDb } from './support/db.ts';
import { GATEWAY } from './support/deliver.ts';
import { startGatewayProcess, type GatewayProcess } from './support/processes.ts';

// A real connection killed under a real process: only a PostgreSQL server has connections to kill.
describe.runIf(TEST_DATABASE_URL)('a database connection dies inside a delivery', () => {
  let testDb: TestDb;
  let gateway: GatewayProcess;
  let src: { agent_id: string; source_id: string; token: string };

  beforeAll(async () => {
    testDb = await createTestDb();
    src = await seedSource(testDb.db);
    // Named, so the test finds this gateway's backends among every test file's.
    const url = editQuery(testDb.url ?? '', (p) =>
      p.set('options', `${p.get('options') ?? ''} -c application_name=${APP_NAME}`),
    );
    gateway = await startGatewayProcess({
      DATABASE_URL: url,
      ADMIN_API_KEY: 'k',
      LEADGATE_DEMO: '0',
    });
  }, 60_000);
  afterAll(async () => {
    await gateway.stop();
    await testDb.cleanup();
  });

  const post = (body: unknown) =>
    fetch(`${gateway.url}${GATEWAY}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-source-token': src.token },
      body: JSON.stringify(body),
    });

  it("when its backend is terminated while the delivery's write waits on a lock, then the process stays up and the next delivery succeeds", async () => {
    for (let round = 0; round < 5; round++) {
      const phone = `21455509${String(round).padStart(2, '0')}`;
      // Another transaction holds this contact's key, so the delivery's write waits for it.
      const holder = new pg.Client({ connectionString: testDb.url });
      await holder.connect();
      let res: Response;
      try {
        await holder.query('BEGIN');
        await holder.query(
          `INSERT INTO lead_contacts (agent_id, kind, value, lead_id) VALUES ($1, 'phone', $2, gen_random_uuid())`,
          [src.agent_id, phone],
        );
        const answer = post({ name: 'Cut Connection', phone });
        await holder.query('SELECT pg_terminate_backend($1)', [await waitingBackend(testDb)]);
        res = await answer;
      } finally {
        await holder.query('ROLLBACK');
        await holder.end();
      }

      expect(res.status).toBe(503);
      expect(res.headers.get('retry-after')).toBe('1');
      expect(((await res.json()) as { error_code: string }).error_code).toBe('SERVICE_UNAVAILABLE');
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(gateway.child.exitCode, gateway.output()).toBeNull();
      const next = await post({ name: 'After The Cut', phone: `31255509${String(round).padStart(2, '0')}` });
      expect(next.status, gateway.output()).toBe(200);
    }
    const { rows } = await testDb.db.query<{ n: number }>(
      "SELECT count(*)::int AS n FROM leads WHERE name = 'Cut Connection'",
    );
    expect(rows[0]?.n).toBe(0); // nothing half-written
  });
});

const APP_NAME = `leadgate_dbfail_${process.pid}`;

/**
 * The gateway's backend once it waits on the holder's lock. Asked on a connection of its own: inside
 * a transaction, pg_stat_activity is a snapshot that would never show the wait.
 */
async function waitingBackend(testDb: TestDb): Promise<number> {
  for (let i = 0; i < 250; i++) {
    const { rows } = await testDb.db.query<{ pid: number }>(
      `SELECT pid FROM pg_stat_activity
        WHERE application_name = $1 AND wait_event_type = 'Lock' AND query LIKE '%lead_contacts%'`,
      [APP_NAME],
    );
    if (rows[0]) return rows[0].pid;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error('the delivery never waited on the lock');
}
