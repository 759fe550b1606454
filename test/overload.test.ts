import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { withBoundedWait, type Database } from '../src/db/index.ts';
import { createTestApp, seedSource, type TestApp } from './support/app.ts';
import { createTestDb, type TestDb } from './support/db.ts';
import { countRows, GATEWAY } from './support/deliver.ts';

describe('overload: more deliveries at once than the database can take', () => {
  let testDb: TestDb;
  let t: TestApp;
  let url: string;
  let src: { agent_id: string; source_id: string; token: string };
  let narrow: Database;

  beforeAll(async () => {
    testDb = await createTestDb();
    // The same database, with room for only 3 calls at once. A delivery is one short statement,
    // answered faster than requests arrive, so each call is slowed a little.
    narrow = withBoundedWait(slowed(testDb.db, 30), 3);
    t = await createTestApp({ testDb, db: narrow });
    src = await seedSource(testDb.db);
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    url = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
  }, 60_000);
  afterAll(async () => {
    await t.close();
    await testDb.cleanup();
  });

  const send = (
    i: number,
    key = `ov-${i}`,
    note = 'call after 5',
    at: string | null = '2027-03-01T16:00:00Z',
  ) =>
    fetch(`${url}${GATEWAY}`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'x-source-token': src.token,
        'idempotency-key': key,
      },
      body: JSON.stringify({
        name: `Crowd ${i}`,
        phone: `3125557${String(i).padStart(3, '0')}`,
        notes: note,
        ...(at ? { scheduled_at: at } : {}),
      }),
    });

  // New contacts arriving together share one statement, token lookups one query, and merges
  // without an appointment a read and a write, so the crowd is of repeat contacts booking an
  // appointment: each is a transaction of its own.
  it('When 60 repeat contacts booking appointments arrive at once, then each gets its answer or a 503 with Retry-After (refused before its transaction begins), every accepted merge is whole, and the retries all land once', async () => {
    const n = 60;
    for (let i = 0; i < n; i++) expect((await send(i, `seed-${i}`, 'first', null)).status).toBe(200);
    const history = await countRows(testDb.db, 'lead_history', 'agent_id = $1', [src.agent_id]);
    const outbox = await countRows(testDb.db, 'outbox', 'agent_id = $1', [src.agent_id]);

    const first = await Promise.all(
      Array.from({ length: n }, async (_, i) => {
        const res = await send(i);
        return {
          i,
          status: res.status,
          retryAfter: res.headers.get('retry-after'),
          body: (await res.json()) as Record<string, unknown>,
        };
      }),
    );
    const accepted = first.filter((r) => r.status === 200);
    const refused = first.filter((r) => r.status !== 200);
    expect(accepted.length).toBeGreaterThan(0);
    expect(refused.length).toBeGreaterThan(0);
    for (const r of refused) {
      expect(r.status).toBe(503);
      expect(r.retryAfter).toBe('1');
      expect(r.body.error_code).toBe('SERVICE_UNAVAILABLE');
    }
    for (const r of accepted) expect(r.body.resubmit).toBe(true);
    // Every accepted merge is whole: its history line, its appointment and its outbox messages (the
    // lead's update and the booking); no lead is added.
    expect(await countRows(testDb.db, 'leads', 'agent_id = $1', [src.agent_id])).toBe(n);
    const added = async (table: string, before: number) =>
      (await countRows(testDb.db, table, 'agent_id = $1', [src.agent_id])) - before;
    expect(await added('lead_history', history)).toBe(accepted.length);
    expect(await added('appointments', 0)).toBe(accepted.length);
    expect(await added('outbox', outbox)).toBe(2 * accepted.length);

    // Senders retry the refused ones with the same key, one at a time: every one lands, once.
    for (const r of refused) expect((await send(r.i)).status).toBe(200);
    for (const r of accepted)
      expect(((await (await send(r.i)).json()) as { idempotent_replay?: boolean }).idempotent_replay).toBe(
        true,
      );
    expect(await countRows(testDb.db, 'leads', 'agent_id = $1', [src.agent_id])).toBe(n);
    expect(await added('lead_history', history)).toBe(n);
    expect(await added('appointments', 0)).toBe(n);
  });
});

/** A database whose statements and transactions each take `ms` longer. */
function slowed(db: Database, ms: number): Database {
  const pause = () => new Promise((resolve) => setTimeout(resolve, ms));
  return {
    ...db,
    query: async (sql, params) => {
      await pause();
      return db.query(sql, params);
    },
    withTransaction: async (fn) => {
      await pause();
      return db.withTransaction(fn);
    },
    close: () => db.close(),
  };
}

describe('overload: a saturated event loop', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ maxEventLoopDelayMs: 100 });
  });
  afterAll(() => t.close());

  it('When the event loop has been blocked, then requests get 503 with Retry-After while /healthz still answers', async () => {
    // Keep the event loop busy in 200 ms slices, as a flood of CPU work would. The pressure plugin
    // reads the mean delay over each second (about a second and a slice apart, from when the app
    // started): 3 s of slices hold one whole reading, whatever its phase, and its answer lasts
    // past the end. In 1.5 s, a reading could straddle the end and its mean fall below 100 ms,
    // as it did when the test files shared a process and the app's start fell otherwise.
    const end = Date.now() + 3_000;
    while (Date.now() < end) {
      const slice = Date.now() + 200;
      while (Date.now() < slice) {
        // busy
      }
      await new Promise((resolve) => setImmediate(resolve));
    }
    // The reading within the slices answers 503 at once; the loop allows for a late timer.
    let res = await t.app.inject({ method: 'POST', url: GATEWAY, payload: '{}' });
    for (let i = 0; i < 30 && res.statusCode !== 503; i++) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      res = await t.app.inject({ method: 'POST', url: GATEWAY, payload: '{}' });
    }
    expect(res.statusCode).toBe(503);
    expect(res.headers['retry-after']).toBe('1');
    expect(res.json()).toMatchObject({ error_code: 'SERVICE_UNAVAILABLE' });
    expect((await t.app.inject({ method: 'GET', url: '/healthz' })).statusCode).toBe(200);
    expect((await t.app.inject({ method: 'GET', url: '/healthz?probe=liveness' })).statusCode).toBe(200);
  });
});
