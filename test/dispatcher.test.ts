import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { webhookJobs } from '../src/automations/delivery-repository.ts';
import { createDb, type Database, type Queryable } from '../src/db/index.ts';
import { fanOut } from '../src/automations/fan-out.ts';
import { addDestination, createTestApp, seedSource, type TestApp } from './support/app.ts';
import { createDispatcher } from '../src/automations/dispatcher.ts';
import { LIMITS } from '../src/limits.ts';
import { heldSmsProvider, testAutomationConfig, testDispatcher } from './support/automations.ts';
import { countRows, deliver } from './support/deliver.ts';
import { TEST_DATABASE_URL } from './support/db.ts';
import { pausedAfter } from './support/faulty-db.ts';
import { startReceiver } from './support/receiver.ts';
import { signal } from './support/signal.ts';
import { until } from './support/until.ts';

async function withDestination(t: TestApp, url: string) {
  const src = await seedSource(t.db, `Dispatch Agent ${Math.random()}`);
  const res = await addDestination(t.app, src.source_id, { url });
  return { ...src, destination_id: (res.json() as { destination_id: string }).destination_id };
}

// Noon in Chicago: each consenting lead gets its call task and its first text at once.
const NOON_CHICAGO = new Date('2027-01-15T18:00:00Z');

/** Three leads who consent to texts, in Illinois, phones `${prefix}0` to `${prefix}2`. */
async function deliverTextable(t: TestApp, token: string, name: string, prefix: string) {
  for (let i = 0; i < 3; i++) {
    await deliver(t.app, token, {
      name: `${name} ${i}`,
      phone: `${prefix}${i}`,
      state: 'IL',
      sms_consent: true,
    });
  }
}

/**
 * The database, counting the waits inside its transactions: a wait is a statement sent while none
 * of the transaction's others was outstanding (statements sent together are one wait).
 */
function countingWaits(db: Database) {
  const waits: number[] = [];
  const counted: Database = {
    ...db,
    withTransaction: (fn) =>
      db.withTransaction((tx) => {
        let outstanding = 0;
        const at = waits.push(0) - 1;
        return fn({
          query: (sql, params) => {
            if (outstanding++ === 0) waits[at] = (waits[at] ?? 0) + 1;
            return tx.query(sql, params).finally(() => outstanding--);
          },
        } as Queryable);
      }),
  };
  return { db: counted, waits };
}

// Long enough that the survivor's first round surely ends inside the dead worker's lease.
const LEASE_MS = 1_000;

describe('dispatcher: rounds with a webhook destination', () => {
  let t: TestApp;
  let receiver: Awaited<ReturnType<typeof startReceiver>>;
  beforeAll(async () => {
    t = await createTestApp();
    receiver = await startReceiver();
  });
  afterAll(async () => {
    await t.close();
    await receiver.close();
  });

  it('When a worker took deliveries and died, then another sends them once its lease runs out, each once', async () => {
    const src = await withDestination(t, `${receiver.url}/lease`);
    await deliver(t.app, src.token, { name: 'Lease Lena', phone: '2145550501' });
    const survivor = testDispatcher(t.db, [0, 10], { leaseMs: LEASE_MS });
    await survivor.runOnce(); // fans out; sends too, unless another holds it
    await t.db.query(
      "UPDATE webhook_deliveries SET status = 'pending', attempts = 0 WHERE destination_id = $1",
      [src.destination_id],
    );
    receiver.received.length = 0;

    const taken = await webhookJobs.claim(t.db, 10, LEASE_MS); // the worker that will die
    expect(taken).toHaveLength(1);
    await survivor.runOnce();
    expect(receiver.received).toHaveLength(0); // still leased to the dead worker
    await new Promise((resolve) => setTimeout(resolve, LEASE_MS + 100));
    await survivor.runOnce();
    expect(receiver.received).toHaveLength(1);
    expect(
      await countRows(t.db, 'webhook_deliveries', "destination_id = $1 AND status = 'delivered'", [
        src.destination_id,
      ]),
    ).toBe(1);
  });

  it('When the text provider has not answered yet, then a later lead is still handed on and its webhook sent', async () => {
    const src = await withDestination(t, `${receiver.url}/apart`);
    const { sms, asked, release } = heldSmsProvider();
    // Noon in Chicago, within calling hours: the consenting lead is texted at once.
    const dispatcher = testDispatcher(t.db, [0], { sms, now: () => new Date('2027-01-15T18:00:00Z') });
    await deliver(t.app, src.token, {
      name: 'Texted Tess',
      phone: '3125550611',
      state: 'IL',
      sms_consent: true,
    });
    dispatcher.start();
    try {
      await until(() => asked.length === 1, 10_000);
      const later = await deliver(t.app, src.token, { name: 'Later Lou', phone: '3125550612' });
      const leadId = (later.json() as { lead_id: string }).lead_id;
      await until(
        () => receiver.received.some((r) => r.path === '/apart' && r.body.includes(leadId)),
        10_000,
      );
      expect(asked).toEqual(['+13125550611']); // the first text is still waiting for its answer
    } finally {
      release();
      await dispatcher.stop();
    }
  });

  it('When a round hands on leads with a destination, a call task and a text, then its transaction waits four times on PostgreSQL and once on the embedded database, however many leads', async () => {
    const src = await withDestination(t, `${receiver.url}/waits`);
    await deliverTextable(t, src.token, 'Waiting Will', '312555070');
    const { db, waits } = countingWaits(t.db);
    expect((await fanOut(db, 200, NOON_CHICAGO)).dispatched).toBe(3);
    // On PostgreSQL: the messages; what they need (leads, destinations, agents); the numbers'
    // opt-outs and texts of the day; every write (docs/decisions/0036). The embedded database's
    // round reads outside its transaction, which only writes.
    expect(waits).toEqual(t.db.kind === 'pglite' ? [1] : [4]);
    for (const table of ['webhook_deliveries', 'dial_tasks', 'sms_messages'])
      expect(await countRows(t.db, table, 'agent_id = $1', [src.agent_id])).toBe(3);
  });

  it.skipIf(TEST_DATABASE_URL)(
    'When a round reads on the embedded database, then a statement made meanwhile runs before the round writes',
    async () => {
      const src = await withDestination(t, `${receiver.url}/between`);
      await deliverTextable(t, src.token, 'Between Bea', '312555080');
      const order: string[] = [];
      let probed = false;
      const watched: Database = {
        ...t.db,
        async query<T>(sql: string, params?: readonly unknown[]) {
          const result = await t.db.query<T>(sql, params);
          // After the round's first read, as a delivery's statement would come.
          if (!probed) {
            probed = true;
            void t.db.query('SELECT 1').then(() => order.push('other statement'));
          }
          return result;
        },
        withTransaction: (fn) => {
          order.push('round writes');
          return t.db.withTransaction(fn);
        },
      };
      expect((await fanOut(watched, 200, NOON_CHICAGO)).dispatched).toBe(3);
      // Read inside the round's transaction, the other statement waited for its commit.
      expect(order).toEqual(['other statement', 'round writes']);
    },
  );

  it('When two rounds run at once, then each message is handed on once and each text handed to one sender', async () => {
    const src = await withDestination(t, `${receiver.url}/twice`);
    await deliverTextable(t, src.token, 'Twice Tom', '312555090');
    const claim = { texts: 200, leaseMs: 30_000 };
    const rounds = await Promise.all([
      fanOut(t.db, 200, NOON_CHICAGO, claim),
      fanOut(t.db, 200, NOON_CHICAGO, claim),
    ]);
    // PostgreSQL: the second round does not get the fan-out's lock. The embedded database: both
    // read the same messages, and the round that writes second finds them marked and writes nothing.
    expect(rounds.map((r) => r.dispatched).sort()).toEqual([0, 3]);
    expect(rounds.flatMap((r) => r.texts.map((x) => x.to_phone)).sort()).toEqual([
      '3125550900',
      '3125550901',
      '3125550902',
    ]);
    for (const table of ['webhook_deliveries', 'dial_tasks', 'sms_messages'])
      expect(await countRows(t.db, table, 'agent_id = $1', [src.agent_id])).toBe(3);
  });

  it.runIf(TEST_DATABASE_URL)(
    'When a round holds the fan-out’s lock, then a round beside it hands on nothing, not even the messages the first did not take, so the order holds (PostgreSQL)',
    async () => {
      while ((await fanOut(t.db, 1_000, NOON_CHICAGO)).dispatched > 0);
      const src = await seedSource(t.db, 'Turns Agent');
      for (let i = 0; i < 4; i++)
        await deliver(t.app, src.token, { name: `Turn ${i}`, phone: `31255509${20 + i}` });
      // The first round stops inside its transaction, its two messages read and locked.
      const hasRead = signal();
      const released = signal();
      const held = pausedAfter(
        t.db,
        (sql) => sql.includes('pg_try_advisory_xact_lock'),
        () => (hasRead.fire(), released.done),
      );
      const first = fanOut(held, 2, NOON_CHICAGO);
      await hasRead.done;
      // Without the lock, SKIP LOCKED would hand the later two on before the earlier two.
      const beside = await fanOut(t.db, 200, NOON_CHICAGO);
      released.fire();
      expect((await first).dispatched).toBe(2);
      expect(beside.dispatched).toBe(0);
      expect((await fanOut(t.db, 200, NOON_CHICAGO)).dispatched).toBe(2);
    },
  );
});

describe('dispatcher: a steady stream of leads', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it('When leads come in one at a time, then each hand-on round takes all that came in meanwhile, not one lead per round', async () => {
    const src = await seedSource(t.db, 'Stream Agent');
    const rounds: number[] = [];
    const log = {
      info: (obj: object) => {
        const dispatched = (obj as { dispatcher?: { dispatched?: number } }).dispatcher?.dispatched;
        if (dispatched) rounds.push(dispatched);
      },
      warn: () => undefined,
    };
    const dispatcher = createDispatcher(t.db, testAutomationConfig(), log);
    const started = Date.now();
    dispatcher.start();
    try {
      // Twenty senders, each sending its next lead as soon as the last is answered: while a round
      // runs, more leads come in.
      await Promise.all(
        Array.from({ length: 20 }, async (_, sender) => {
          for (let i = 0; i < 30; i++) {
            const phone = `21455${70000 + sender * 100 + i}`;
            await deliver(t.app, src.token, { name: `Stream ${sender}-${i}`, phone });
          }
        }),
      );
      await until(() => rounds.reduce((a, b) => a + b, 0) === 600, 20_000);
    } finally {
      await dispatcher.stop();
    }
    const elapsed = Date.now() - started;
    // A round that did not take a full batch is followed by a pause of LIMITS.dispatcherPollMs;
    // going again at once after any work made a round per turn of the senders (20 leads each).
    const partial = rounds.filter((n) => n < LIMITS.dispatcherBatch).length;
    expect(partial).toBeLessThanOrEqual(Math.ceil(elapsed / LIMITS.dispatcherPollMs) + 1);
  });
});

describe.runIf(TEST_DATABASE_URL)('dispatcher: two workers on one PostgreSQL', () => {
  let t: TestApp;
  let receiver: Awaited<ReturnType<typeof startReceiver>>;
  const pools: Database[] = [];
  beforeAll(async () => {
    t = await createTestApp();
    // A receiver that is slow and fails one answer in ten: retries and waiting lead events overlap.
    receiver = await startReceiver((_r, i) => (i % 10 === 3 ? 500 : 200), { delayMs: 5 });
  });
  afterAll(async () => {
    await t.close();
    await Promise.all(pools.map((p) => p.close()));
    await receiver.close();
  });

  it('When two workers share 500 events, then each event reaches the destination once, never twice at the same time, and each lead’s events in order', async () => {
    const src = await withDestination(t, `${receiver.url}/two-workers`);
    for (let i = 0; i < 250; i++) {
      const lead = { name: `Worker Lead ${i}`, phone: `21455${String(60000 + i)}` };
      await deliver(t.app, src.token, lead);
      await deliver(t.app, src.token, { ...lead, city: 'Austin' });
    }
    const workers = [0, 1].map(async () => {
      const db = await createDb({ databaseUrl: t.testDb.url });
      pools.push(db);
      const d = testDispatcher(db, [0, 20, 20, 20, 20, 20]);
      d.start();
      return d;
    });
    const started = await Promise.all(workers);
    const deadline = Date.now() + 60_000;
    while (
      (await countRows(t.db, 'webhook_deliveries', "destination_id = $1 AND status = 'delivered'", [
        src.destination_id,
      ])) < 500
    ) {
      if (Date.now() > deadline) throw new Error('not all delivered in time');
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    await Promise.all(started.map((d) => d.stop()));

    const ok = receiver.received.filter((r, i) => i % 10 !== 3);
    const ids = ok.map((r) => String(r.headers['webhook-id']));
    expect(new Set(ids).size).toBe(500);
    expect(ids).toHaveLength(500);
    expect(receiver.overlaps()).toBe(0);
    const seen = new Map<string, string[]>();
    for (const r of ok) {
      const body = JSON.parse(r.body) as { type: string; data: { lead_id: string } };
      seen.set(body.data.lead_id, [...(seen.get(body.data.lead_id) ?? []), body.type]);
    }
    for (const types of seen.values()) expect(types).toEqual(['lead.created', 'lead.updated']);
  }, 120_000);
});
