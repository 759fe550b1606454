import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminInject, createTestApp, seedSource, type TestApp } from './support/app.ts';
import { createTestDb, type TestDb } from './support/db.ts';
import { countRows, deliver } from './support/deliver.ts';
import { faultyDb } from './support/faulty-db.ts';

// An exact resend — the very bytes of a delivery, under the key it used — is answered with the
// stored response by one short statement (src/gateway/exact-retries.ts), without the body being
// mapped again. A revoked token's exact resend is refused 401: test/source-memory.test.ts, "a
// retry under a used key".

let testDb: TestDb;
let t: TestApp;
let faults: ReturnType<typeof faultyDb>;

beforeAll(async () => {
  testDb = await createTestDb();
  faults = faultyDb(testDb.db);
  t = await createTestApp({ testDb, db: faults.db });
});
afterAll(async () => {
  await t.close();
  await testDb.cleanup();
});

const withKey = (key: string, more: Record<string, string> = {}) => ({
  headers: { 'idempotency-key': key, ...more },
});
const writes = (sql: string) => /\b(INSERT|UPDATE|DELETE)\b/i.test(sql);
/** A statement of the whole way: a write, or a merge's read of the contact's keys. */
const wholeWay = (sql: string) => writes(sql) || sql.includes('lead_contacts');

describe('exact retries', () => {
  it('When a sender resends the very bytes under the same key, then the first answer comes back from one statement that writes nothing', async () => {
    const s = await seedSource(t.db, 'Exact Agent');
    const body = { name: 'Ella Exact', phone: '2145550600', scheduled_at: '2027-03-01T16:00:00Z' };
    const first = await deliver(t.app, s.token, body, withKey('exact-1'));
    expect(first.statusCode).toBe(200);

    faults.state.seen.length = 0;
    const again = await deliver(t.app, s.token, body, withKey('exact-1'));
    expect(again.statusCode).toBe(200);
    expect(again.json()).toEqual({ ...first.json(), idempotent_replay: true });
    expect(faults.state.seen).toHaveLength(1);
    expect(faults.state.seen.some(writes)).toBe(false);
    expect(await countRows(t.db, 'leads', 'agent_id = $1', [s.agent_id])).toBe(1);
    expect(await countRows(t.db, 'appointments', 'agent_id = $1', [s.agent_id])).toBe(1);
  });

  it('When 20 exact resends arrive at once, then each gets the first answer, and they share statements', async () => {
    const s = await seedSource(t.db, 'Burst Agent');
    const bodies = Array.from({ length: 20 }, (_, i) => ({ name: `Burst ${i}`, phone: `21455507${10 + i}` }));
    const firsts = await Promise.all(bodies.map((b, i) => deliver(t.app, s.token, b, withKey(`burst-${i}`))));

    faults.state.seen.length = 0;
    const agains = await Promise.all(bodies.map((b, i) => deliver(t.app, s.token, b, withKey(`burst-${i}`))));
    agains.forEach((res, i) => {
      expect(res.json()).toEqual({ ...firsts[i]?.json(), idempotent_replay: true });
    });
    expect(faults.state.seen.length).toBeLessThan(20);
    expect(faults.state.seen.some(writes)).toBe(false);
  });

  it("When another process, which never saw the key used, gets an exact resend, then it replays on the database's word, and answers the next from one statement", async () => {
    const s = await seedSource(t.db, 'Other Process Agent');
    const body = { name: 'Otto Other', email: 'otto@example.com' };
    const first = await deliver(t.app, s.token, body, withKey('other-1'));
    const other = await createTestApp({ testDb, db: faults.db });
    try {
      faults.state.seen.length = 0;
      const second = await deliver(other.app, s.token, body, withKey('other-1'));
      expect(second.json()).toEqual({ ...first.json(), idempotent_replay: true });
      // The whole way (a write, or a merge's read), which found the key used.
      expect(faults.state.seen.some(wholeWay)).toBe(true);

      faults.state.seen.length = 0;
      const third = await deliver(other.app, s.token, body, withKey('other-1'));
      expect(third.json()).toEqual(second.json());
      expect(faults.state.seen).toHaveLength(1);
      expect(faults.state.seen.some(writes)).toBe(false);
    } finally {
      await other.close();
    }
  });

  it("When the source's mapping rules changed since, then an exact resend still gets its first answer, and other bytes that now name another contact are refused 422", async () => {
    const s = await seedSource(t.db, 'Rules Change Agent');
    const rules = async (map: Record<string, string>) =>
      expect(
        (await adminInject(t.app, 'PUT', `/sources/${s.source_id}/mapping`, { rules: map })).statusCode,
      ).toBe(200);
    await rules({ applicant: 'name' });
    const body = { applicant: 'Ada Applicant', spouse: 'Sam Spouse' };
    const first = await deliver(t.app, s.token, body, withKey('rules-1'));
    expect(first.json()).toMatchObject({ success: true });

    await rules({ spouse: 'name' });
    const exact = await deliver(t.app, s.token, body, withKey('rules-1'));
    expect(exact.json()).toEqual({ ...first.json(), idempotent_replay: true });
    // The same values in another order are other bytes: mapped afresh, they name Sam, not Ada.
    const reordered = await deliver(
      t.app,
      s.token,
      { spouse: 'Sam Spouse', applicant: 'Ada Applicant' },
      withKey('rules-1'),
    );
    expect(reordered.statusCode).toBe(422);
    expect(reordered.json().error_code).toBe('IDEMPOTENCY_KEY_REUSED');
  });

  it('When the key has expired, then an exact resend is delivered afresh', async () => {
    const s = await seedSource(t.db, 'Expired Agent');
    const body = { name: 'Eve Expired', phone: '2145550800' };
    const first = await deliver(t.app, s.token, body, withKey('expired-1'));
    await t.db.query(
      `UPDATE idempotency_keys SET expires_at = now() - interval '1 second' WHERE source_id = $1`,
      [s.source_id],
    );
    const again = await deliver(t.app, s.token, body, withKey('expired-1'));
    expect(again.statusCode).toBe(200);
    expect(again.json().idempotent_replay).toBeUndefined();
    expect(again.json()).toMatchObject({ lead_id: first.json().lead_id, resubmit: true }); // merged: same phone
    const next = await deliver(t.app, s.token, body, withKey('expired-1'));
    expect(next.json()).toEqual({ ...again.json(), idempotent_replay: true });
  });

  it('When the same bytes come under another key or another Content-Type, then they are not taken for a resend of the first', async () => {
    const s = await seedSource(t.db, 'Not Exact Agent');
    const body = { name: 'Nora Notexact', phone: '2145550900' };
    const first = await deliver(t.app, s.token, body, withKey('same-bytes-1'));
    const otherKey = await deliver(t.app, s.token, body, withKey('same-bytes-2'));
    expect(otherKey.json().idempotent_replay).toBeUndefined();
    expect(otherKey.json()).toMatchObject({ lead_id: first.json().lead_id, resubmit: true });

    faults.state.seen.length = 0;
    const otherType = await deliver(
      t.app,
      s.token,
      body,
      withKey('same-bytes-1', { 'content-type': 'text/plain' }),
    );
    // Still a retry (the same contact), found the whole way as before, not by the exact-resend statement.
    expect(otherType.json()).toEqual({ ...first.json(), idempotent_replay: true });
    expect(faults.state.seen.some(wholeWay)).toBe(true);
  });

  it('When the database is unreachable, then an exact resend is told 503 with Retry-After', async () => {
    const s = await seedSource(t.db, 'Down Agent');
    const body = { name: 'Dora Down', phone: '2145550950' };
    expect((await deliver(t.app, s.token, body, withKey('down-1'))).statusCode).toBe(200);
    faults.state.down = true;
    try {
      const res = await deliver(t.app, s.token, body, withKey('down-1'));
      expect(res.statusCode).toBe(503);
      expect(res.headers['retry-after']).toBeDefined();
      expect(res.json().error_code).toBe('SERVICE_UNAVAILABLE');
    } finally {
      faults.state.down = false;
    }
    const after = await deliver(t.app, s.token, body, withKey('down-1'));
    expect(after.json().idempotent_replay).toBe(true);
  });
});
