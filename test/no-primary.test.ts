import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDb, type Database } from '../src/db/index.ts';
import { ADMIN_KEY, createTestApp, seedSource, type TestApp } from './support/app.ts';
import { createTestDb, editQuery, readOnlyUrl, TEST_DATABASE_URL, type TestDb } from './support/db.ts';
import { GATEWAY } from './support/deliver.ts';

/**
 * The moment of a failover when no host takes writes (docs/high-availability.md): the gateway's
 * only host is read-only, as a standby not yet promoted is, and DATABASE_URL asks for read-write.
 * The fault suite's failover case does it with a real standby; this is the same answer in `npm test`.
 */
describe.runIf(TEST_DATABASE_URL)('no host of DATABASE_URL takes writes', () => {
  let testDb: TestDb;
  let standbyOnly: Database;
  let t: TestApp;
  let src: { agent_id: string; token: string };

  beforeAll(async () => {
    testDb = await createTestDb();
    src = await seedSource(testDb.db);
    const url = editQuery(readOnlyUrl(testDb.url ?? ''), (p) => p.set('target_session_attrs', 'read-write'));
    standbyOnly = await createDb({ databaseUrl: url });
    // The app is built while its database takes writes (it keeps a setting at start), then loses it.
    let current: Database = testDb.db;
    const db: Database = {
      kind: 'postgres',
      query: (sql, params) => current.query(sql, params),
      withTransaction: (fn) => current.withTransaction(fn),
      close: async () => undefined,
    };
    t = await createTestApp({ db, testDb });
    current = standbyOnly;
  });
  afterAll(async () => {
    await t.close();
    await standbyOnly.close();
    await testDb.cleanup();
  });

  it('When a sender delivers, then it is told 503 with Retry-After and nothing is written', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: GATEWAY,
      headers: { 'content-type': 'application/json', 'x-source-token': src.token },
      payload: { name: 'Gap Lead', phone: '2145550187' },
    });
    expect(res.statusCode).toBe(503);
    expect(res.headers['retry-after']).toBe('1');
    expect(res.json()).toMatchObject({ error_code: 'SERVICE_UNAVAILABLE' });
    const { rows } = await testDb.db.query<{ n: number }>('SELECT count(*)::int AS n FROM leads');
    expect(rows[0]?.n).toBe(0);
  });

  it('When a load balancer asks /readyz, or the agent the admin API, then both are told unavailable, never 500', async () => {
    const ready = await t.app.inject({ method: 'GET', url: '/readyz' });
    expect(ready.statusCode).toBe(503);
    expect(ready.json()).toEqual({ status: 'unavailable', database: 'postgres' });
    const admin = await t.app.inject({
      method: 'GET',
      url: `/v1/admin/agents/${src.agent_id}`,
      headers: { authorization: `Bearer ${ADMIN_KEY}` },
    });
    expect(admin.statusCode).toBe(503);
    expect(admin.headers['retry-after']).toBe('1');
  });
});
