import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedSource } from './support/app.ts';
import { createTestDb, TEST_DATABASE_URL, type TestDb } from './support/db.ts';
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
    gateway = await startGatewayProcess({
      DATABASE_URL: testDb.url ?? '',
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

  it('when its backend is terminated while the delivery holds it in a transaction, then the process stays up and the next delivery succeeds', async () => {
    for (let round = 0; round < 5; round++) {
      const phone = `21455509${String(round).padStart(2, '0')}`;
      // Another transaction holds this contact's key, so the delivery waits inside its own transaction.
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
        await holder.query('SELECT pg_terminate_backend($1)', [await waitingBackend(holder)]);
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

/** The backend waiting on the holder's lock, once it waits. */
async function waitingBackend(holder: pg.Client): Promise<number> {
  for (let i = 0; i < 100; i++) {
    const { rows } = await holder.query<{ pid: number }>(
      `SELECT pid FROM pg_stat_activity
        WHERE datname = current_database() AND wait_event_type = 'Lock' AND pid <> pg_backend_pid()`,
    );
    if (rows[0]) return rows[0].pid;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error('the delivery never waited on the lock');
}
