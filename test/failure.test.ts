import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, seedSource, type TestApp } from './support/app.ts';
import { createTestDb, type TestDb } from './support/db.ts';
import { countRows, deliver } from './support/deliver.ts';
import { faultyDb } from './support/faulty-db.ts';

let testDb: TestDb;
let t: TestApp;
let fault: ReturnType<typeof faultyDb>['state'];
let src: { agent_id: string; source_id: string; token: string };

beforeAll(async () => {
  testDb = await createTestDb();
  const faulty = faultyDb(testDb.db);
  fault = faulty.state;
  t = await createTestApp({ db: faulty.db, testDb });
  src = await seedSource(testDb.db);
});
afterAll(async () => {
  await t.close();
  await testDb.cleanup();
});

const scheduled = (name: string) => ({ name, phone: '2145550600', scheduled_at: '2027-05-01T15:00:00Z' });

describe('a database error inside a delivery', () => {
  // A new contact's write is one statement: failing it as it is sent tests the answer and the key;
  // that the statement itself writes all or nothing is the next test's (a constraint inside it).
  it("when a new contact's statement fails, then 500 SERVER_ERROR, nothing is kept (no lead, no key, no message), and the retry creates the lead", async () => {
    fault.failWhen = (sql) => sql.includes('INSERT INTO appointments');
    try {
      const res = await deliver(t.app, src.token, scheduled('Rollback Rob'), {
        headers: { 'idempotency-key': 'k-rollback' },
      });
      expect(res.statusCode).toBe(500);
      expect(res.json()).toEqual({ error: 'Internal server error', error_code: 'SERVER_ERROR' });
      expect(res.body).not.toContain('injected');
    } finally {
      fault.failWhen = undefined;
    }
    expect(await countRows(testDb.db, 'leads', "name = 'Rollback Rob'")).toBe(0);
    expect(await countRows(testDb.db, 'idempotency_keys', "key = 'k-rollback'")).toBe(0);
    expect(await countRows(testDb.db, 'outbox', "payload->>'name' = 'Rollback Rob'")).toBe(0);
    const retry = await deliver(t.app, src.token, scheduled('Rollback Rob'), {
      headers: { 'idempotency-key': 'k-rollback' },
    });
    expect(retry.statusCode).toBe(200);
    expect(retry.json().idempotent_replay).toBeUndefined();
    expect(await countRows(testDb.db, 'leads', "name = 'Rollback Rob'")).toBe(1);
    expect(await countRows(testDb.db, 'appointments', 'lead_id = $1', [retry.json().lead_id])).toBe(1);
  });

  it("when the database refuses a new contact's appointment, then its one statement writes nothing at all (no lead, key, contact key, history or message)", async () => {
    await testDb.db.query(
      `ALTER TABLE appointments ADD CONSTRAINT no_bad_setter CHECK (setter_dialer_name IS DISTINCT FROM 'Bad Setter')`,
    );
    try {
      const res = await deliver(
        t.app,
        src.token,
        { ...scheduled('Atomic Ann'), phone: '2145550611', email: 'ann@example.com', setter: 'Bad Setter' },
        { headers: { 'idempotency-key': 'k-atomic' } },
      );
      expect(res.statusCode).toBe(500);
      expect(res.json()).toMatchObject({ error_code: 'INSERT_FAILED' });
    } finally {
      await testDb.db.query('ALTER TABLE appointments DROP CONSTRAINT no_bad_setter');
    }
    expect(await countRows(testDb.db, 'leads', "name = 'Atomic Ann'")).toBe(0);
    expect(await countRows(testDb.db, 'idempotency_keys', "key = 'k-atomic'")).toBe(0);
    expect(await countRows(testDb.db, 'lead_contacts', "value IN ('2145550611', 'ann@example.com')")).toBe(0);
    expect(await countRows(testDb.db, 'outbox', "payload->>'name' = 'Atomic Ann'")).toBe(0);
  });

  it('when the appointment insert of a repeat contact fails, then the merge is rolled back whole and 500 SERVER_ERROR', async () => {
    const first = await deliver(t.app, src.token, { name: 'Merge Mona', phone: '2145550622' });
    expect(first.statusCode).toBe(200);
    const leadId = first.json().lead_id as string;
    const historyBefore = await countRows(testDb.db, 'lead_history', 'lead_id = $1', [leadId]);
    fault.failWhen = (sql) => sql.startsWith('INSERT INTO appointments');
    try {
      const res = await deliver(t.app, src.token, {
        ...scheduled('Merge Mona'),
        phone: '2145550622',
        city: 'Plano',
      });
      expect(res.statusCode).toBe(500);
    } finally {
      fault.failWhen = undefined;
    }
    expect(await countRows(testDb.db, 'lead_history', 'lead_id = $1', [leadId])).toBe(historyBefore);
    expect(await countRows(testDb.db, 'leads', "lead_id = $1 AND status = 'New'", [leadId])).toBe(1);
    expect(await countRows(testDb.db, 'appointments', 'lead_id = $1', [leadId])).toBe(0);
  });

  it('when a database constraint refuses the lead, then 500 INSERT_FAILED with details', async () => {
    await testDb.db.query(
      `ALTER TABLE leads ADD CONSTRAINT no_forbidden_names CHECK (name <> 'Forbidden Fred')`,
    );
    try {
      const res = await deliver(t.app, src.token, { name: 'Forbidden Fred' });
      expect(res.statusCode).toBe(500);
      expect(res.json()).toMatchObject({ error: 'Failed to create lead', error_code: 'INSERT_FAILED' });
      expect(res.json().details).toContain('no_forbidden_names');
    } finally {
      await testDb.db.query('ALTER TABLE leads DROP CONSTRAINT no_forbidden_names');
    }
  });

  it('when the database is down, then 503 SERVICE_UNAVAILABLE with Retry-After; after it is back, the retry creates the lead exactly once', async () => {
    // A phone of her own: one already stored would merge the retries whatever their key did.
    const olga = { ...scheduled('Outage Olga'), phone: '2145550630' };
    fault.down = true;
    try {
      const res = await deliver(t.app, src.token, olga, {
        headers: { 'idempotency-key': 'k-outage' },
      });
      expect(res.statusCode).toBe(503);
      expect(res.json().error_code).toBe('SERVICE_UNAVAILABLE');
      expect(res.headers['retry-after']).toBe('1');
      expect(res.body).not.toContain('ECONNREFUSED');
      const ready = await t.app.inject({ method: 'GET', url: '/readyz' });
      expect(ready.statusCode).toBe(503);
    } finally {
      fault.down = false;
    }
    const results = [];
    for (let i = 0; i < 3; i++) {
      results.push(
        await deliver(t.app, src.token, olga, {
          headers: { 'idempotency-key': 'k-outage' },
        }),
      );
    }
    expect(results.map((r) => r.statusCode)).toEqual([200, 200, 200]);
    expect(results.map((r) => r.json().message)).toEqual(
      Array(3).fill('Lead created and appointment scheduled'),
    );
    expect(results.map((r) => r.json().idempotent_replay)).toEqual([undefined, true, true]);
    expect(new Set(results.map((r) => r.json().lead_id)).size).toBe(1);
    expect(await countRows(testDb.db, 'leads', "name = 'Outage Olga'")).toBe(1);
  });

  it('when a Listen sample cannot be stored, then 500 LISTEN_INSERT_FAILED', async () => {
    await testDb.db.query(
      `ALTER TABLE listen_samples ADD CONSTRAINT no_samples CHECK (error_code IS NOT NULL)`,
    );
    try {
      const res = await deliver(t.app, src.token, { name: 'Listen Lou', listen: true });
      expect(res.statusCode).toBe(500);
      expect(res.json()).toMatchObject({
        error_code: 'LISTEN_INSERT_FAILED',
        error: 'Failed to store listen sample',
      });
    } finally {
      await testDb.db.query('ALTER TABLE listen_samples DROP CONSTRAINT no_samples');
    }
  });
});
