import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDb, type Database } from '../src/db/index.ts';
import { regenerateSourceToken, updateSource } from '../src/sources/source-repository.ts';
import { seedSource } from './support/app.ts';
import { loadMigrations, migrate } from '../src/db/migrate.ts';
import { createTestDb, TEST_DATABASE_URL, urlWithSchema, type TestDb } from './support/db.ts';
import { countRows, deliverInParallel, GATEWAY } from './support/deliver.ts';
import { startGatewayProcess, startTcpProxy, type GatewayProcess } from './support/processes.ts';

// Several gateway processes share one database only on a PostgreSQL server.
describe.runIf(TEST_DATABASE_URL)('two gateway processes on one PostgreSQL', () => {
  let testDb: TestDb;
  let db: Database;
  let gateways: GatewayProcess[] = [];
  let src: { agent_id: string; source_id: string; token: string };

  beforeAll(async () => {
    testDb = await createTestDb();
    db = testDb.db;
    src = await seedSource(db);
    const env = { DATABASE_URL: testDb.url ?? '', ADMIN_API_KEY: 'k', LEADGATE_DEMO: '0' };
    gateways = await Promise.all([startGatewayProcess(env), startGatewayProcess(env)]);
  }, 90_000);
  afterAll(async () => {
    await Promise.all(gateways.map((g) => g.stop()));
    await testDb.cleanup();
  });

  const post = (url: string, token: string, body: unknown) =>
    fetch(`${url}${GATEWAY}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-source-token': token },
      body: JSON.stringify(body),
    });

  it('when 20 deliveries with one key hit both processes at once, then exactly one lead and one lead_id', async () => {
    const results = await deliverInParallel(
      gateways.map((g) => g.url),
      src.token,
      20,
      () => ({ name: 'Split Brain', phone: '2145550700', scheduled_at: '2027-06-01T15:00:00Z' }),
      () => ({ 'idempotency-key': 'k-two-processes' }),
    );
    expect(results.map((r) => r.status)).toEqual(Array(20).fill(200));
    const ids = new Set(results.map((r) => r.body.lead_id));
    expect(ids.size).toBe(1);
    expect(results.filter((r) => r.body.idempotent_replay !== true)).toHaveLength(1);
    expect(await countRows(db, 'leads', "idempotency_key = 'k-two-processes'")).toBe(1);
    expect(await countRows(db, 'appointments', 'lead_id = $1', [[...ids][0]])).toBe(1);
  });

  it('when 20 first deliveries of one contact (no key) hit both processes at once, then exactly one lead', async () => {
    const results = await deliverInParallel(
      gateways.map((g) => g.url),
      src.token,
      20,
      (i) => ({
        name: 'Same Person',
        phone: '214-555-0777',
        email: i % 3 ? 'same.person@example.com' : undefined,
      }),
    );
    expect(results.map((r) => r.status)).toEqual(Array(20).fill(200));
    expect(new Set(results.map((r) => r.body.lead_id)).size).toBe(1);
    expect(results.filter((r) => r.body.resubmit !== true)).toHaveLength(1);
    expect(await countRows(db, 'leads', "phone = '2145550777'")).toBe(1);
  });

  it('when 40 repeats of one stored contact hit both processes at once, then every merge is kept', async () => {
    // Merged by one read and one statement where nothing changed in between, else by the
    // transaction: either way each repeat's tag, history line and purchase are there.
    const first = await post(gateways[0]?.url ?? '', src.token, { name: 'Often Again', phone: '2145550788' });
    const leadId = ((await first.json()) as { lead_id: string }).lead_id;
    const results = await deliverInParallel(
      gateways.map((g) => g.url),
      src.token,
      40,
      (i) => ({ name: 'Often Again', phone: '214-555-0788', tags: [`r${i}`] }),
      (i): Record<string, string> => (i % 2 ? { 'idempotency-key': `often-${i}` } : {}),
    );
    expect(results.map((r) => r.status)).toEqual(Array(40).fill(200));
    expect(new Set(results.map((r) => r.body.lead_id))).toEqual(new Set([leadId]));
    const { rows } = await db.query<{ tags: string[] }>(
      `SELECT fields -> 'tags' AS tags FROM leads WHERE lead_id = $1`,
      [leadId],
    );
    expect([...(rows[0]?.tags ?? [])].sort()).toEqual(Array.from({ length: 40 }, (_, i) => `r${i}`).sort());
    expect(await countRows(db, 'lead_history', "lead_id = $1 AND event = 'merged'", [leadId])).toBe(40);
    expect(await countRows(db, 'lead_purchases', 'lead_id = $1', [leadId])).toBe(41);
    expect(await countRows(db, 'idempotency_keys', "key LIKE 'often-%' AND lead_id = $1", [leadId])).toBe(20);
  });

  it('when a token is regenerated or disabled, then both processes refuse it on the very next request', async () => {
    const s = await seedSource(db, 'Revoked Vendor');
    for (const g of gateways) expect((await post(g.url, s.token, { name: 'Before' })).status).toBe(200);
    const fresh = (await regenerateSourceToken(db, s.source_id))?.token ?? '';
    for (const g of gateways) {
      const old = await post(g.url, s.token, { name: 'Old' });
      expect(old.status).toBe(401);
      expect(((await old.json()) as { error_code: string }).error_code).toBe('INVALID_SOURCE_TOKEN');
      expect((await post(g.url, fresh, { name: 'New' })).status).toBe(200);
    }
    await updateSource(db, s.source_id, { active: false });
    for (const g of gateways) expect((await post(g.url, fresh, { name: 'Disabled' })).status).toBe(401);
  });

  it('when one process disables and enables a source, then the other refuses it while disabled and takes its very next delivery after', async () => {
    const s = await seedSource(db, 'Paused Across');
    const [a, b] = gateways.map((g) => g.url) as [string, string];
    const patch = (active: boolean) =>
      fetch(`${a}/v1/admin/sources/${s.source_id}`, {
        method: 'PATCH',
        headers: { authorization: 'Bearer k', 'content-type': 'application/json' },
        body: JSON.stringify({ active }),
      });
    for (const url of [a, b]) expect((await post(url, s.token, { name: 'Before' })).status).toBe(200);
    expect((await patch(false)).status).toBe(200);
    for (let i = 0; i < 3; i++) {
      for (const url of [b, a]) expect((await post(url, s.token, { name: 'Paused' })).status).toBe(401);
    }
    expect((await patch(true)).status).toBe(200);
    for (const url of [b, a]) expect((await post(url, s.token, { name: 'Back' })).status).toBe(200);
  });

  it('when PostgreSQL becomes unreachable mid-service, then 503 SERVICE_UNAVAILABLE with Retry-After, and the retry after it returns creates one lead', async () => {
    const target = new URL(testDb.url ?? '');
    const proxy = await startTcpProxy(Number(target.port || 5432), target.hostname);
    target.port = String(proxy.port);
    const gw = await startGatewayProcess({
      DATABASE_URL: target.toString(),
      ADMIN_API_KEY: 'k',
      LEADGATE_DEMO: '0',
    });
    try {
      const body = { name: 'Proxy Outage', phone: '2145550800', idempotency_key: 'k-proxy-outage' };
      expect((await post(gw.url, src.token, { name: 'Warm Up' })).status).toBe(200);
      proxy.down();
      const during = await post(gw.url, src.token, body);
      expect(during.status).toBe(503);
      expect(during.headers.get('retry-after')).toBe('1');
      expect(((await during.json()) as { error_code: string }).error_code).toBe('SERVICE_UNAVAILABLE');
      expect((await fetch(`${gw.url}/readyz`)).status).toBe(503);
      proxy.up();
      const answers: Array<{ code: number; replay?: boolean }> = [];
      for (let i = 0; i < 3; i++) {
        const res = await post(gw.url, src.token, body);
        const { idempotent_replay } = (await res.json()) as { idempotent_replay?: boolean };
        answers.push({ code: res.status, replay: idempotent_replay });
      }
      expect(answers.map((a) => a.code)).toEqual([200, 200, 200]);
      // The first retry created it and the key answered the others (not a merge by phone).
      expect(answers.map((a) => a.replay)).toEqual([undefined, true, true]);
      expect(await countRows(db, 'leads', "name = 'Proxy Outage'")).toBe(1);
    } finally {
      await gw.stop();
      await proxy.close();
    }
  });

  it('when two processes migrate an empty schema at once, then each migration is applied once and neither fails', async () => {
    // Two connections of their own, as two processes starting together have (the gateways above
    // started on a schema createTestDb had already migrated).
    const schema = `t_migrate_${Date.now().toString(36)}`;
    await db.query(`CREATE SCHEMA ${schema}`);
    const url = urlWithSchema(TEST_DATABASE_URL ?? '', schema);
    const [a, b] = await Promise.all([createDb({ databaseUrl: url }), createDb({ databaseUrl: url })]);
    try {
      const applied = await Promise.all([migrate(a), migrate(b)]);
      const all = loadMigrations().map((m) => m.name);
      expect(all.length).toBeGreaterThan(1);
      expect(applied.flat().sort()).toEqual([...all].sort());
      expect(await countRows(a, 'schema_migrations')).toBe(all.length);
    } finally {
      await Promise.all([a.close(), b.close()]);
      await db.query(`DROP SCHEMA ${schema} CASCADE`);
    }
  });
});
