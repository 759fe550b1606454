import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAgent } from '../src/admin/agent-repository.ts';
import type { Database } from '../src/db/index.ts';
import { createDeliveryWriter } from '../src/gateway/write-delivery.ts';
import type { JsonObject } from '../src/json.ts';
import { createAgency, putMember } from '../src/routing/agency-repository.ts';
import { addEntries } from '../src/screening/suppression-repository.ts';
import { createSource, updateSource } from '../src/sources/source-repository.ts';
import { seedSource } from './support/app.ts';
import { createTestDb, type TestDb } from './support/db.ts';
import { faultyDb } from './support/faulty-db.ts';
import { claimOf, inTransaction, liveDelivery, rowsOf } from './support/write-paths.ts';

// A repeat contact with nothing for the agenda is merged by one read and one statement
// (src/gateway/write-merge.ts); the transaction merges every other. For the same deliveries, the
// rows must be the same either way: each case goes to two agents, its first deliveries through the
// transaction, then its repeat through the writer for one and the transaction for the other.

let testDb: TestDb;
beforeAll(async () => {
  testDb = await createTestDb();
});
afterAll(() => testDb.cleanup());

type Delivery = [JsonObject, string | undefined];

interface Case {
  first: Delivery[];
  repeat: Delivery;
  /** Whether the writer merges it by the statement (else the transaction: caps, an appointment). */
  byStatement: boolean;
  setUp?: (db: Database, s: { agent_id: string; source_id: string }) => Promise<void>;
  /** Where the deliveries go (an agent's own source by default); `agent_id` is whose rows are compared. */
  make?: (db: Database, name: string) => Promise<{ agent_id: string; source_id: string; token: string }>;
}

/** An agency whose source routes every Texas lead to its one producer: the producer's rows are compared. */
async function agencyOfOne(db: Database, name: string) {
  const agent = (who: string) => createAgent(db, { name: `${name} ${who}`, timezone: 'America/Chicago' });
  const [boss, producer] = [await agent('Boss'), await agent('Producer')];
  const agency = await createAgency(db, {
    name,
    fallback_agent_id: boss.agent_id,
    timezone: 'America/Chicago',
    claim_minutes: null,
  });
  const member = { licensed_states: ['TX'], weight: 1, daily_cap: null, active: true };
  await putMember(db, agency.agency_id, producer.agent_id, member);
  const { source, token } = await createSource(db, boss.agent_id, `${name} source`, agency.agency_id);
  return { agent_id: producer.agent_id, source_id: source.source_id, token };
}

const CASES: Array<[string, Case]> = [
  [
    'a repeat in another format, with a note and a new email',
    {
      first: [[{ name: 'Pat Plain', phone: '(214) 555-0101', state: 'TX', notes: 'first' }, undefined]],
      repeat: [
        { name: 'Pat Plain', phone: '214.555.0101', email: 'Pat@Example.com', notes: 'again' },
        undefined,
      ],
      byStatement: true,
    },
  ],
  [
    'a repeat with a key, consent and custom fields',
    {
      first: [[{ first_name: 'Kim', last_name: 'Key', phone: '2145550102', custom_fields: { a: 1 } }, 'k-1']],
      repeat: [
        {
          first_name: 'Kim',
          last_name: 'Key',
          phone: '2145550102',
          sms_consent: 'yes',
          consent_cert_url: 'https://cert.trustedform.com/abc',
          custom_fields: { b: 2 },
          age: 'not a number',
        },
        'k-2',
      ],
      byStatement: true,
    },
  ],
  [
    'a phone of one lead and an email of another',
    {
      first: [
        [{ name: 'Phone Owner', phone: '2145550103' }, undefined],
        [{ name: 'Email Owner', email: 'owner@example.com' }, undefined],
      ],
      repeat: [{ name: 'Both', phone: '2145550103', email: 'owner@example.com' }, undefined],
      byStatement: true,
    },
  ],
  [
    'a screened contact, billed again at once (no duplicate days)',
    {
      first: [[{ name: 'Sam Screened', phone: '2145550104', email: 'sam@example.com' }, undefined]],
      repeat: [{ name: 'Sam Screened', phone: '2145550104', city: 'Plano' }, undefined],
      byStatement: true,
      setUp: async (db, s) => {
        await addEntries(db, { agent_id: s.agent_id }, 'dnc', ['2145550104']);
        await updateSource(db, s.source_id, { duplicate_days: 0 });
      },
    },
  ],
  [
    'a repeat that books an appointment over a booked one',
    {
      first: [
        [
          {
            name: 'Ann Booked',
            phone: '2145550105',
            appointment_date: '01/15/2027',
            appointment_time: '2:30 PM',
          },
          undefined,
        ],
      ],
      repeat: [
        {
          name: 'Ann Booked',
          phone: '2145550105',
          appointment_date: '01/16/2027',
          appointment_time: '3:30 PM',
        },
        undefined,
      ],
      byStatement: false,
    },
  ],
  [
    'a repeat to a capped source',
    {
      first: [[{ name: 'Cap Carl', phone: '2145550106' }, undefined]],
      repeat: [{ name: 'Cap Carl', phone: '2145550106', notes: 'again' }, undefined],
      byStatement: false,
      setUp: async (db, s) => {
        await updateSource(db, s.source_id, { caps: { daily: 10 } });
      },
    },
  ],
  [
    'a repeat to an agency, kept by the producer who has the contact',
    {
      first: [[{ name: 'Agnes Agency', phone: '2145550107', state: 'TX' }, undefined]],
      repeat: [{ name: 'Agnes Agency', phone: '2145550107', state: 'TX', notes: 'again' }, undefined],
      byStatement: false,
      make: agencyOfOne,
    },
  ],
];

describe('a repeat contact, through its statement and through the transaction', () => {
  it.each(CASES)('When %s is merged each way, then the rows are the same', async (_what, c) => {
    const f = faultyDb(testDb.db);
    const make = c.make ?? seedSource;
    const fast = await make(testDb.db, 'Fast Agent');
    const general = await make(testDb.db, 'General Agent');
    for (const s of [fast, general]) {
      await c.setUp?.(testDb.db, s);
      const claim = await claimOf(testDb.db, s.token);
      for (const [body, key] of c.first)
        await inTransaction(testDb.db, claim, liveDelivery(claim, body, key));
    }
    const fastClaim = await claimOf(f.db, fast.token);
    const generalClaim = await claimOf(testDb.db, general.token);
    f.state.seen.length = 0;
    const [body, key] = c.repeat;
    const a = await createDeliveryWriter(f.db)(fastClaim, liveDelivery(fastClaim, body, key));
    const b = await inTransaction(testDb.db, generalClaim, liveDelivery(generalClaim, body, key));
    expect(a).toEqual({
      ...b,
      lead: { ...(b.kind === 'merged' ? b.lead : {}), lead_id: expect.any(String), agent_id: fast.agent_id },
    });
    expect(a.kind).toBe('merged');
    expect(f.state.seen.includes('BEGIN')).toBe(!c.byStatement);
    const [fastRows, generalRows] = [
      await rowsOf(testDb.db, fast.agent_id),
      await rowsOf(testDb.db, general.agent_id),
    ];
    expect(JSON.stringify(fastRows)).toContain('"event":"merged"');
    expect(fastRows).toEqual(generalRows);
  });
});

describe('a repeat contact under a used key', () => {
  it('When a delivery comes again under its key, then the read answers its replay and writes nothing', async () => {
    const f = faultyDb(testDb.db);
    const s = await seedSource(testDb.db, 'Replayed Agent');
    const claim = await claimOf(f.db, s.token);
    const write = createDeliveryWriter(f.db);
    const body = { name: 'Reo Replay', phone: '2145550191' };
    const first = await write(claim, liveDelivery(claim, body, 'rk-1'));
    expect(first.kind).toBe('created');
    f.state.seen.length = 0;
    const again = await write(claim, liveDelivery(claim, body, 'rk-1'));
    expect(again.kind).toBe('replayed');
    // The contact is one this writer wrote: no new contact's statement, and the read answers.
    expect(f.state.seen).toHaveLength(1);
    const { rows } = await testDb.db.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM lead_history WHERE agent_id = $1`,
      [s.agent_id],
    );
    expect(rows[0]?.n).toBe(1);
  });
});

describe('a repeat contact the database changed under its statement', () => {
  it('When the lead is merged between the read and the statement, then the transaction merges it after that one', async () => {
    const f = faultyDb(testDb.db);
    const s = await seedSource(testDb.db, 'Raced Agent');
    const claim = await claimOf(f.db, s.token);
    // Another process merges the lead once this one has read it: the read's row version is gone.
    const other = createDeliveryWriter(testDb.db);
    let raced = false;
    const racing: Database = {
      ...f.db,
      async query(sql, params) {
        const result = await f.db.query(sql, params);
        if (!raced && sql.includes('xmin::text AS version')) {
          raced = true;
          const r = await other(
            claim,
            liveDelivery(claim, { name: 'Rita Race', phone: '2145550190', city: 'Waco' }, undefined),
          );
          expect(r.kind).toBe('merged');
        }
        return result as never;
      },
    };
    const write = createDeliveryWriter(racing);
    expect(
      (await write(claim, liveDelivery(claim, { name: 'Rita Race', phone: '2145550190' }, undefined))).kind,
    ).toBe('created');
    f.state.seen.length = 0;
    const result = await write(
      claim,
      liveDelivery(claim, { name: 'Rita Race', phone: '2145550190', notes: 'mine' }, undefined),
    );
    expect(result.kind).toBe('merged');
    expect(raced).toBe(true);
    expect(f.state.seen).toContain('BEGIN');
    const { rows } = await testDb.db.query<{ event: string; n: number }>(
      `SELECT event, count(*)::int AS n FROM lead_history WHERE agent_id = $1 GROUP BY event ORDER BY event`,
      [s.agent_id],
    );
    expect(rows).toEqual([
      { event: 'created', n: 1 },
      { event: 'merged', n: 2 },
    ]);
    const lead = await testDb.db.query<{ fields: { city?: string; notes?: string } }>(
      'SELECT fields FROM leads WHERE agent_id = $1',
      [s.agent_id],
    );
    expect(lead.rows[0]?.fields.city).toBe('Waco');
    expect(lead.rows[0]?.fields.notes).toContain('mine');
  });
});
