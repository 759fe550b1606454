import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { purgeExpiredKeys } from '../src/idempotency/key-store.ts';
import { createSource } from '../src/sources/source-repository.ts';
import { createTestApp, seedSource, type TestApp } from './support/app.ts';
import { countRows, deliver, deliverInParallel } from './support/deliver.ts';

let t: TestApp;
let src: { agent_id: string; source_id: string; token: string };
let baseUrl: string;

beforeAll(async () => {
  t = await createTestApp();
  src = await seedSource(t.db);
  baseUrl = await t.app.listen({ port: 0, host: '127.0.0.1' });
});
afterAll(() => t.close());

const leadsWithKey = (key: string) => countRows(t.db, 'leads', 'idempotency_key = $1', [key]);

describe('idempotent delivery', () => {
  it('when the same key is sent twice, then the first response is replayed with idempotent_replay: true', async () => {
    const body = { name: 'Rita Retry', phone: '2145550200', scheduled_at: '2027-03-01T16:00:00Z' };
    const first = await deliver(t.app, src.token, body, { headers: { 'idempotency-key': 'k-replay' } });
    const second = await deliver(t.app, src.token, body, { headers: { 'idempotency-key': 'k-replay' } });
    expect(first.statusCode).toBe(200);
    expect(second.statusCode).toBe(200);
    expect(second.json()).toEqual({ ...first.json(), idempotent_replay: true });
    expect(await leadsWithKey('k-replay')).toBe(1);
    expect(await countRows(t.db, 'appointments', 'lead_id = $1', [first.json().lead_id])).toBe(1);
  });

  it('when the key comes in the body, then it works the same; the header wins over the body', async () => {
    const a = await deliver(t.app, src.token, { name: 'Body Key', idempotency_key: 'k-body' });
    const b = await deliver(t.app, src.token, { name: 'Body Key', idempotency_key: 'k-body' });
    expect(b.json()).toMatchObject({ lead_id: a.json().lead_id, idempotent_replay: true });
    const c = await deliver(
      t.app,
      src.token,
      { name: 'Body Key', idempotency_key: 'k-body' },
      { headers: { 'idempotency-key': 'k-header-wins' } },
    );
    expect(c.json().idempotent_replay).toBeUndefined();
    expect(c.json().lead_id).not.toBe(a.json().lead_id);
    expect(await leadsWithKey('k-header-wins')).toBe(1);
  });

  it('when the key is quoted as a structured-field string, then it is the same key as the bare value', async () => {
    const a = await deliver(
      t.app,
      src.token,
      { name: 'Quoted Q' },
      { headers: { 'idempotency-key': '"k-quoted"' } },
    );
    const b = await deliver(
      t.app,
      src.token,
      { name: 'Quoted Q' },
      { headers: { 'idempotency-key': 'k-quoted' } },
    );
    expect(b.json()).toMatchObject({ lead_id: a.json().lead_id, idempotent_replay: true });
  });

  it('when the same key is used for a different contact, then 422 IDEMPOTENCY_KEY_REUSED', async () => {
    await deliver(
      t.app,
      src.token,
      { name: 'First Person', phone: '2145550300', email: 'a@example.com' },
      {
        headers: { 'idempotency-key': 'k-reused' },
      },
    );
    const res = await deliver(
      t.app,
      src.token,
      { name: 'Other Person', phone: '2145550399', email: 'b@example.com' },
      {
        headers: { 'idempotency-key': 'k-reused' },
      },
    );
    expect(res.statusCode).toBe(422);
    expect(res.json()).toMatchObject({ error_code: 'IDEMPOTENCY_KEY_REUSED' });
    const sameEmail = await deliver(
      t.app,
      src.token,
      { name: 'Renamed', email: 'A@example.com ' },
      {
        headers: { 'idempotency-key': 'k-reused' },
      },
    );
    expect(sameEmail.json().idempotent_replay).toBe(true);
    expect(await leadsWithKey('k-reused')).toBe(1);
  });

  it('when the first try failed with a 4xx, then a corrected retry with the same key goes through', async () => {
    const bad = await deliver(
      t.app,
      src.token,
      { phone: '2145550400' },
      { headers: { 'idempotency-key': 'k-fix' } },
    );
    expect(bad.statusCode).toBe(400);
    const good = await deliver(
      t.app,
      src.token,
      { name: 'Fixed Fay', phone: '2145550400' },
      {
        headers: { 'idempotency-key': 'k-fix' },
      },
    );
    expect(good.statusCode).toBe(200);
    expect(good.json().idempotent_replay).toBeUndefined();
  });

  it('when keys are per source, then the same key from another source of the same agent is a new delivery', async () => {
    // The same agent's: keys scoped by agent instead of by source would make this a replay.
    const other = await createSource(t.db, src.agent_id, 'Second Vendor');
    const a = await deliver(
      t.app,
      src.token,
      { name: 'Scope Sam' },
      { headers: { 'idempotency-key': 'k-scope' } },
    );
    const b = await deliver(
      t.app,
      other.token,
      { name: 'Scope Sam' },
      { headers: { 'idempotency-key': 'k-scope' } },
    );
    expect([a.statusCode, b.statusCode]).toEqual([200, 200]);
    expect(b.json().idempotent_replay).toBeUndefined();
    expect(b.json().lead_id).not.toBe(a.json().lead_id);
  });

  it('when 24 hours have passed, then the key is forgotten, purged, and a delivery is processed afresh', async () => {
    const first = await deliver(
      t.app,
      src.token,
      { name: 'Old Key' },
      { headers: { 'idempotency-key': 'k-expired' } },
    );
    await t.db.query(
      `UPDATE idempotency_keys SET expires_at = now() - interval '1 second' WHERE key = 'k-expired'`,
    );
    const again = await deliver(
      t.app,
      src.token,
      { name: 'Old Key' },
      { headers: { 'idempotency-key': 'k-expired' } },
    );
    expect(again.json().idempotent_replay).toBeUndefined();
    expect(again.json().lead_id).not.toBe(first.json().lead_id);
    await t.db.query(
      `UPDATE idempotency_keys SET expires_at = now() - interval '1 second' WHERE key = 'k-expired'`,
    );
    expect(await purgeExpiredKeys(t.db)).toBeGreaterThanOrEqual(1);
    expect(await countRows(t.db, 'idempotency_keys', "key = 'k-expired'")).toBe(0);
  });

  it('when 20 deliveries with one key arrive at the same moment, then exactly one lead and one lead_id for all', async () => {
    const results = await deliverInParallel(
      [baseUrl],
      src.token,
      20,
      () => ({ name: 'Concurrent Carl', phone: '2145550500', scheduled_at: '2027-04-01T15:00:00Z' }),
      () => ({ 'idempotency-key': 'k-concurrent' }),
    );
    expect(results.map((r) => r.status)).toEqual(Array(20).fill(200));
    const ids = new Set(results.map((r) => r.body.lead_id));
    expect(ids.size).toBe(1);
    expect(results.filter((r) => r.body.idempotent_replay !== true)).toHaveLength(1);
    expect(await leadsWithKey('k-concurrent')).toBe(1);
    expect(await countRows(t.db, 'appointments', 'lead_id = $1', [[...ids][0]])).toBe(1);
  });
});
