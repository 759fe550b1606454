import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDeliveryWriter } from '../src/gateway/write-delivery.ts';
import type { JsonObject } from '../src/json.ts';
import { regenerateSourceToken } from '../src/sources/source-repository.ts';
import { seedSource } from './support/app.ts';
import { countRows } from './support/deliver.ts';
import { faultyDb } from './support/faulty-db.ts';
import { createTestDb, type TestDb } from './support/db.ts';
import { claimOf, inTransaction, liveDelivery, rowsOf } from './support/write-paths.ts';

// A new contact is written by one statement (src/gateway/write-new-contact.ts), everything else by
// the transaction (write-delivery.ts). Both must leave exactly the same rows: the same deliveries
// go to two agents, one each way, and every row is compared, ids and times aside.

let testDb: TestDb;
beforeAll(async () => {
  testDb = await createTestDb();
});
afterAll(() => testDb.cleanup());

const DELIVERIES: Array<[string, JsonObject, string | undefined]> = [
  [
    'a plain lead',
    { name: 'Pat Plain', phone: '(214) 555-0101', email: 'Pat@Example.com', state: 'TX' },
    undefined,
  ],
  [
    'a lead with an appointment, consent and a key',
    {
      first_name: 'Ann',
      last_name: 'Appointment',
      phone: '2145550102',
      zip: '75201',
      appointment_date: '01/15/2027',
      appointment_time: '2:30 PM',
      setter: 'Sam Setter',
      sms_consent: 'yes',
      consent_cert_url: 'https://cert.trustedform.com/abc',
      join_url: 'https://meet.example.com/x',
      custom_fields: { vendor_ref: 'A-1' },
      unknown_thing: 'kept',
      age: 'not a number',
    },
    'key-1',
  ],
  ['a lead with neither phone nor email', { name: 'Nobody Reachable', city: 'Austin' }, 'key-2'],
];

describe('the one-statement write and the general transaction', () => {
  it.each(DELIVERIES)('When %s is written each way, then the rows are the same', async (_what, body, key) => {
    const db = testDb.db;
    const fast = await seedSource(db, 'Fast Agent');
    const general = await seedSource(db, 'General Agent');
    const fastClaim = await claimOf(db, fast.token);
    const generalClaim = await claimOf(db, general.token);
    const a = await createDeliveryWriter(db)(fastClaim, liveDelivery(fastClaim, body, key));
    const b = await inTransaction(db, generalClaim, liveDelivery(generalClaim, body, key));
    expect(a.kind).toBe('created');
    expect(b.kind).toBe('created');
    const [fastRows, generalRows] = [await rowsOf(db, fast.agent_id), await rowsOf(db, general.agent_id)];
    expect(JSON.stringify(fastRows)).toContain('"leads":[{');
    expect(fastRows).toEqual(generalRows);
  });
});

/** The test database, with every statement it is sent recorded in `seen`. */
const recorded = () => {
  const f = faultyDb(testDb.db);
  return { db: f.db, seen: f.state.seen, state: f.state, write: createDeliveryWriter(f.db) };
};

describe('new contacts that arrive at the same moment', () => {
  // The new-contact statement, in its many-row form.
  const many = (sql: string) => sql.includes('json_to_recordset') && sql.includes('INSERT INTO leads');

  it('When the deliveries come at once, then one statement writes them all, and the rows are what the general transaction writes', async () => {
    const r = recorded();
    const write = r.write;
    const together = await seedSource(r.db, 'Together Agent');
    const general = await seedSource(testDb.db, 'General Agent 2');
    const togetherClaim = await claimOf(r.db, together.token);
    const generalClaim = await claimOf(testDb.db, general.token);
    r.seen.length = 0;
    const results = await Promise.all(
      DELIVERIES.map(([, body, key]) => write(togetherClaim, liveDelivery(togetherClaim, body, key))),
    );
    expect(results.map((x) => x.kind)).toEqual(['created', 'created', 'created']);
    expect(r.seen).toHaveLength(1);
    expect(many(r.seen[0] ?? '')).toBe(true);
    for (const [, body, key] of DELIVERIES)
      await inTransaction(testDb.db, generalClaim, liveDelivery(generalClaim, body, key));
    const [togetherRows, generalRows] = [
      await rowsOf(testDb.db, together.agent_id),
      await rowsOf(testDb.db, general.agent_id),
    ];
    expect(JSON.stringify(togetherRows)).toContain('"appointments":[{');
    expect(togetherRows).toEqual(generalRows);
  });

  it('When some at once share a phone or a key, or come with a revoked token, then each ends as it would alone', async () => {
    const r = recorded();
    const write = r.write;
    const s = await seedSource(r.db, 'Mixed Agent');
    const revoked = await seedSource(r.db, 'Revoked Mixed Agent');
    const claim = await claimOf(r.db, s.token);
    const revokedClaim = await claimOf(r.db, revoked.token);
    await regenerateSourceToken(r.db, revoked.source_id);
    const known = await write(claim, liveDelivery(claim, { name: 'Known Kay', phone: '2145550800' }, 'mk-0'));
    expect(known.kind).toBe('created');
    r.seen.length = 0;
    const results = await Promise.all([
      write(claim, liveDelivery(claim, { name: 'New Nia', phone: '2145550801' }, 'mk-1')),
      write(claim, liveDelivery(claim, { name: 'Twin One', phone: '2145550802' }, undefined)),
      write(claim, liveDelivery(claim, { name: 'Twin Two', phone: '2145550802' }, undefined)),
      write(claim, liveDelivery(claim, { name: 'Kay Again', phone: '2145550800' }, undefined)),
      write(claim, liveDelivery(claim, { name: 'Known Kay', phone: '2145550800' }, 'mk-0')),
      write(claim, liveDelivery(claim, { name: 'Key Twin', phone: '2145550803' }, 'mk-2')),
      write(claim, liveDelivery(claim, { name: 'Key Twin', phone: '2145550803' }, 'mk-2')),
      write(revokedClaim, liveDelivery(revokedClaim, { name: 'Revoked Ray' }, undefined)),
      write(claim, liveDelivery(claim, { name: 'Plain Pam', email: 'pam@example.com' }, 'mk-3')),
    ]);
    expect(r.seen.filter(many)).toHaveLength(1);
    expect(results.map((x) => x.kind)).toEqual([
      'created',
      expect.stringMatching(/^(created|merged)$/),
      expect.stringMatching(/^(created|merged)$/),
      'merged',
      'replayed',
      expect.stringMatching(/^(created|replayed)$/),
      expect.stringMatching(/^(created|replayed)$/),
      'unconfirmed',
      'created',
    ]);
    const kinds = results.map((x) => x.kind);
    expect([kinds[1], kinds[2]].sort()).toEqual(['created', 'merged']);
    expect([kinds[5], kinds[6]].sort()).toEqual(['created', 'replayed']);
    const count = (where: string, params: unknown[]) => countRows(testDb.db, 'leads', where, params);
    expect(await count('agent_id = $1', [s.agent_id])).toBe(5);
    expect(await count('agent_id = $1 AND phone = $2', [s.agent_id, '2145550802'])).toBe(1);
    expect(await count('agent_id = $1', [revoked.agent_id])).toBe(0);
  });

  it('When the many-row statement fails, then each of its deliveries is written by itself', async () => {
    const r = recorded();
    const write = r.write;
    const s = await seedSource(r.db, 'Fallback Agent');
    const claim = await claimOf(r.db, s.token);
    r.state.failWhen = many;
    const results = await Promise.all(
      [0, 1, 2, 3].map((i) =>
        write(claim, liveDelivery(claim, { name: `Fall ${i}`, phone: `214555081${i}` }, `fb-${i}`)),
      ),
    );
    expect(results.map((x) => x.kind)).toEqual(['created', 'created', 'created', 'created']);
    expect(r.seen.filter(many)).toHaveLength(1);
    expect(await countRows(testDb.db, 'leads', 'agent_id = $1', [s.agent_id])).toBe(4);
  });

  it("When a contact this writer wrote comes again, then it goes straight to the repeat contact's statement, and a contact removed since is still written", async () => {
    const r = recorded();
    const write = r.write;
    const s = await seedSource(r.db, 'Repeat Agent');
    const claim = await claimOf(r.db, s.token);
    const first = await write(
      claim,
      liveDelivery(claim, { name: 'Rae Repeat', phone: '2145550880' }, undefined),
    );
    expect(first.kind).toBe('created');
    r.seen.length = 0;
    const again = await write(
      claim,
      liveDelivery(claim, { name: 'Rae Repeat', phone: '2145550880', city: 'Plano' }, undefined),
    );
    expect(again.kind).toBe('merged');
    // No new-contact statement and no transaction: the repeat's read, then its statement.
    expect(r.seen.some((sql) => sql.includes('INSERT INTO leads'))).toBe(false);
    expect(r.seen).not.toContain('BEGIN');
    expect(r.seen).toHaveLength(2);

    // The database forgets the contact (its phone no longer names a lead); this process does not.
    await testDb.db.query('DELETE FROM lead_contacts WHERE agent_id = $1', [s.agent_id]);
    const afresh = await write(
      claim,
      liveDelivery(claim, { name: 'Rae Repeat', phone: '2145550880' }, undefined),
    );
    expect(afresh.kind).toBe('created');
  });
});
