import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../src/db/index.ts';
import { parseIdempotencyKey } from '../src/idempotency/idempotency-key.ts';
import type { SourceClaim } from '../src/gateway/source-directory.ts';
import { prepareSourceLead } from '../src/gateway/source-rules.ts';
import { writeDelivery, writeInOneTransaction, type LiveDelivery } from '../src/gateway/write-delivery.ts';
import { writeKnownContact } from '../src/gateway/write-known-contact.ts';
import type { JsonObject } from '../src/json.ts';
import { findActiveSourceByToken } from '../src/sources/source-repository.ts';
import { hashToken } from '../src/sources/tokens.ts';
import { regenerateSourceToken } from '../src/sources/source-repository.ts';
import { seedSource } from './support/app.ts';
import { countRows } from './support/deliver.ts';
import { faultyDb } from './support/faulty-db.ts';
import { createTestDb, type TestDb } from './support/db.ts';

// A new contact is written by one statement (src/gateway/write-new-contact.ts), everything else by
// the general transaction (write-delivery.ts). Both must leave exactly the same rows: the same
// deliveries go to two agents, one each way, and every row is compared, ids and times aside.

let testDb: TestDb;
beforeAll(async () => {
  testDb = await createTestDb();
});
afterAll(() => testDb.cleanup());

async function claimOf(db: Database, token: string): Promise<SourceClaim> {
  const source = await findActiveSourceByToken(db, token);
  if (!source) throw new Error('no source');
  return { source, tokenHash: hashToken(token), confirmed: false };
}

function liveDelivery(claim: SourceClaim, body: JsonObject, key: string | undefined): LiveDelivery {
  const lead = prepareSourceLead(body, claim.source);
  const parsed = parseIdempotencyKey(key, lead.control.idempotency_key);
  const replayKey = parsed.ok ? (parsed.key ?? null) : null;
  return {
    lead,
    replayKey,
    bodyDigest: null,
    leadKey: replayKey,
    externalId: null,
    agenda: lead.appointment ? { kind: 'book' } : null,
    meeting: null,
    scheduler: null,
  };
}

/**
 * Every row an agent has, ids, times and sequence numbers replaced by what they stand for; rows in
 * the order of their lead's name (rows written by one statement share their time), then in order.
 */
async function rowsOf(db: Database, agentId: string): Promise<unknown> {
  const leadName = (table: string) => `(SELECT l.name FROM leads l WHERE l.lead_id = ${table}.lead_id)`;
  const tables: Array<[string, string]> = [
    ['leads', 'name'],
    ['appointments', `${leadName('appointments')}, scheduled_at`],
    ['lead_history', `${leadName('lead_history')}, seq`],
    ['outbox', `${leadName('outbox')}, seq`],
    ['lead_contacts', 'kind, value'],
    ['idempotency_keys', 'key'],
  ];
  const ids = new Map<string, string>();
  const name = (id: string) => {
    if (!ids.has(id)) ids.set(id, `<id ${ids.size}>`);
    return ids.get(id);
  };
  const out: Record<string, unknown> = {};
  for (const [table, order] of tables) {
    const { rows } = await db.query<Record<string, unknown>>(
      `SELECT * FROM ${table} WHERE agent_id = $1 ORDER BY ${order}`,
      [agentId],
    );
    out[table] = JSON.parse(
      JSON.stringify(rows, (key, value: unknown) => {
        if (['created_at', 'updated_at', 'expires_at', 'seq', 'received_at'].includes(key)) return '<time>';
        if (
          typeof value === 'string' &&
          /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/.test(value)
        )
          return name(value);
        return value;
      }),
    );
  }
  return out;
}

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
    const a = await writeDelivery(db, fastClaim, liveDelivery(fastClaim, body, key));
    const b = await writeInOneTransaction(db, generalClaim, liveDelivery(generalClaim, body, key));
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
  return { db: f.db, seen: f.state.seen, state: f.state };
};

// A repeat contact that only merges is written by one statement after it is planned
// (src/gateway/write-merge.ts): the same rows as the step-by-step writes.
const REPEATS: Array<[string, JsonObject, string | undefined]> = [
  [
    'the same contact with a new email and city',
    { name: 'Pat Plain', phone: '2145550101', email: 'pat@new.example', city: 'Plano' },
    'again-1',
  ],
  [
    'the same contact without a key, with consent and custom fields',
    {
      phone: '(214) 555-0101',
      sms_consent: 'yes',
      consent_cert_url: 'https://cert.trustedform.com/def',
      custom_fields: { vendor_ref: 'B-2' },
      notes: 'call after 5',
    },
    undefined,
  ],
  [
    'a known email from another number',
    { name: 'Pat P.', email: 'PAT@example.com', phone: '2145550199', tags: 'hot, vip' },
    'again-2',
  ],
];

describe('a merge in one statement and step by step', () => {
  it('When repeat contacts come, then the one-statement merge leaves the rows the step-by-step writes leave', async () => {
    const { db: recording, seen } = recorded();
    const one = await seedSource(testDb.db, 'One-Statement Merge Agent');
    const steps = await seedSource(testDb.db, 'Step-By-Step Merge Agent');
    const oneClaim = await claimOf(testDb.db, one.token);
    const stepsClaim = await claimOf(testDb.db, steps.token);
    const [, first, firstKey] = DELIVERIES[0] ?? ['', {}, undefined];
    await writeInOneTransaction(testDb.db, oneClaim, liveDelivery(oneClaim, first, firstKey));
    await writeInOneTransaction(testDb.db, stepsClaim, liveDelivery(stepsClaim, first, firstKey));
    for (const [, body, key] of REPEATS) {
      seen.length = 0;
      const a = await writeInOneTransaction(recording, oneClaim, liveDelivery(oneClaim, body, key));
      const b = await writeInOneTransaction(testDb.db, stepsClaim, liveDelivery(stepsClaim, body, key), {
        stepByStep: true,
      });
      expect([a.kind, b.kind]).toEqual(['merged', 'merged']);
      // The lead, its history, its outbox message, its keys and the idempotency key: one statement.
      expect(seen.filter((sql) => /^\s*WITH moved AS/.test(sql))).toHaveLength(1);
      expect(seen.some((sql) => /^\s*(UPDATE leads|INSERT INTO (lead_history|outbox))/.test(sql))).toBe(
        false,
      );
    }
    const [oneRows, stepRows] = [
      await rowsOf(testDb.db, one.agent_id),
      await rowsOf(testDb.db, steps.agent_id),
    ];
    expect(JSON.stringify(oneRows)).toContain('pat@new.example');
    expect(JSON.stringify(oneRows)).toContain('"response":{');
    expect(oneRows).toEqual(stepRows);
  });

  // A merge without an appointment is read by one statement and written by another, no
  // transaction between them (src/gateway/write-known-contact.ts): the same rows again.
  it('When repeat contacts come, then the read-and-write merge leaves the rows the step-by-step writes leave, in two statements and no transaction', async () => {
    const { db: recording, seen } = recorded();
    const two = await seedSource(testDb.db, 'Two-Statement Merge Agent');
    const steps = await seedSource(testDb.db, 'Step-By-Step Merge Agent 2');
    const twoClaim = await claimOf(testDb.db, two.token);
    const stepsClaim = await claimOf(testDb.db, steps.token);
    const [, first, firstKey] = DELIVERIES[0] ?? ['', {}, undefined];
    await writeInOneTransaction(testDb.db, twoClaim, liveDelivery(twoClaim, first, firstKey));
    await writeInOneTransaction(testDb.db, stepsClaim, liveDelivery(stepsClaim, first, firstKey));
    for (const [, body, key] of REPEATS) {
      const delivery = liveDelivery(twoClaim, body, key);
      seen.length = 0;
      const a = await writeKnownContact(recording, twoClaim, delivery);
      const b = await writeInOneTransaction(testDb.db, stepsClaim, liveDelivery(stepsClaim, body, key), {
        stepByStep: true,
      });
      expect([a?.kind, b.kind]).toEqual(['merged', 'merged']);
      expect(seen).toHaveLength(2);
      expect(seen).not.toContain('BEGIN');
    }
    const [twoRows, stepRows] = [
      await rowsOf(testDb.db, two.agent_id),
      await rowsOf(testDb.db, steps.agent_id),
    ];
    expect(JSON.stringify(twoRows)).toContain('pat@new.example');
    expect(JSON.stringify(twoRows)).toContain('"response":{');
    expect(twoRows).toEqual(stepRows);
  });
});

/** The test database, running `before` (awaited) ahead of each statement sent outside a transaction. */
function interfered(before: (sql: string) => Promise<void>): { db: Database; transactions: number } {
  const out = {
    transactions: 0,
    db: {
      kind: testDb.db.kind,
      async query(sql, params) {
        await before(sql);
        return testDb.db.query(sql, params);
      },
      withTransaction(fn) {
        out.transactions += 1;
        return testDb.db.withTransaction(fn);
      },
      close: () => testDb.db.close(),
    } satisfies Database as Database,
  };
  return out;
}

describe('a merge whose lead changes between its read and its write', () => {
  const isWrite = (sql: string) => sql.includes('leadgate_lead_changed()');

  it.each([
    ['with a key and a new email (the write claims both, then undoes itself)', 'late-1', 'late@example.com'],
    ['with neither (the write finds the lead changed and writes nothing)', undefined, undefined],
  ])(
    'When it comes %s, then the locking transaction merges it after the other, nothing lost',
    async (_what, key, email) => {
      const s = await seedSource(testDb.db, `Interfered Agent ${key ?? 'none'}`);
      const claim = await claimOf(testDb.db, s.token);
      const created = await writeInOneTransaction(
        testDb.db,
        claim,
        liveDelivery(claim, { name: 'Lee Late', phone: '2145550900', notes: 'first' }, undefined),
      );
      let writes = 0;
      const f = interfered(async (sql) => {
        if (!isWrite(sql) || (writes += 1) > 1) return;
        // Another delivery merges into the same lead between this one's read and its write.
        const other = liveDelivery(claim, { phone: '2145550900', notes: 'second', tags: 'other' }, undefined);
        expect((await writeInOneTransaction(testDb.db, claim, other)).kind).toBe('merged');
      });
      const body = { phone: '2145550900', notes: 'third', tags: 'late', ...(email ? { email } : {}) };
      const result = await writeDelivery(f.db, claim, liveDelivery(claim, body, key));
      expect(result.kind).toBe('merged');
      expect(writes).toBe(1);
      expect(f.transactions).toBe(1);

      const leadId = created.kind === 'created' ? created.lead.lead_id : '';
      const { rows } = await testDb.db.query<{ fields: { notes: string; tags: string[] } }>(
        'SELECT fields FROM leads WHERE lead_id = $1',
        [leadId],
      );
      expect(rows[0]?.fields.notes).toMatch(/first[\s\S]*second[\s\S]*third/);
      expect(rows[0]?.fields.tags.sort()).toEqual(['late', 'other']);
      const count = (table: string, where = 'TRUE', params: unknown[] = []) =>
        countRows(testDb.db, table, `agent_id = $1 AND ${where}`, [s.agent_id, ...params]);
      expect(await count('leads')).toBe(1);
      expect(await count('lead_history')).toBe(3);
      expect(await count('outbox')).toBe(3);
      expect(await count('lead_contacts', 'lead_id = $2', [leadId])).toBe(email ? 2 : 1);
      expect(await count('idempotency_keys', 'lead_id = $2', [leadId])).toBe(key ? 1 : 0);
    },
  );
});

// Merges made at the same moment share their read and their write (write-known-contact.ts): the
// many-row statements must leave the rows one merge after another would.
describe('merges written together', () => {
  const manyRows = (sql: string) => sql.includes('json_to_recordset($1::json)');
  const CONTACTS = ['2145550910', '2145550911', '2145550912'];
  const seedContacts = async (name: string) => {
    const s = await seedSource(testDb.db, name);
    const claim = await claimOf(testDb.db, s.token);
    for (const [i, phone] of CONTACTS.entries())
      await writeInOneTransaction(
        testDb.db,
        claim,
        liveDelivery(claim, { name: `Tia Together ${i}`, phone, notes: 'first' }, undefined),
      );
    return { s, claim };
  };
  const repeat = (i: number, extra: JsonObject = {}): [JsonObject, string | undefined] => [
    { phone: CONTACTS[i] ?? '', email: `tia${i}@example.com`, notes: `again ${i}`, ...extra },
    i === 1 ? undefined : `tt-${i}`,
  ];

  it('When repeat contacts of several leads come at once, then one statement reads them all and one writes them all, and the rows are what the step-by-step writes leave', async () => {
    const r = recorded();
    const a = await seedContacts('Together Merge Agent');
    const b = await seedContacts('Step-By-Step Merge Agent 3');
    r.seen.length = 0;
    const results = await Promise.all(
      CONTACTS.map((_, i) => {
        const [body, key] = repeat(i);
        return writeKnownContact(r.db, a.claim, liveDelivery(a.claim, body, key));
      }),
    );
    expect(results.map((x) => x?.kind)).toEqual(['merged', 'merged', 'merged']);
    expect(r.seen).toHaveLength(2);
    expect(r.seen.every(manyRows)).toBe(true);
    for (const i of CONTACTS.keys()) {
      const [body, key] = repeat(i);
      await writeInOneTransaction(testDb.db, b.claim, liveDelivery(b.claim, body, key), { stepByStep: true });
    }
    const [togetherRows, stepRows] = [
      await rowsOf(testDb.db, a.s.agent_id),
      await rowsOf(testDb.db, b.s.agent_id),
    ];
    expect(JSON.stringify(togetherRows)).toContain('tia2@example.com');
    expect(togetherRows).toEqual(stepRows);
  });

  it('When two of them are the same contact, then both merge, one after the other', async () => {
    const r = recorded();
    const { s, claim } = await seedContacts('Same Lead Together Agent');
    r.seen.length = 0;
    const bodies = [repeat(0), repeat(0, { notes: 'twice', email: 'other0@example.com' }), repeat(2)];
    bodies[1] = [bodies[1]?.[0] ?? {}, 'tt-0-again'];
    const results = await Promise.all(
      bodies.map(([body, key]) => writeDelivery(r.db, claim, liveDelivery(claim, body, key))),
    );
    expect(results.map((x) => x.kind)).toEqual(['merged', 'merged', 'merged']);
    // How the calls fall into statements depends on timing (on PostgreSQL, several at a time);
    // whichever of the two is written second finds the lead changed and takes the transaction.
    expect(r.seen.filter((sql) => sql === 'BEGIN').length).toBeLessThanOrEqual(1);
    const { rows } = await testDb.db.query<{ fields: { notes: string } }>(
      'SELECT fields FROM leads WHERE agent_id = $1 AND phone = $2',
      [s.agent_id, CONTACTS[0]],
    );
    expect(rows[0]?.fields.notes).toMatch(/first[\s\S]*(again 0[\s\S]*twice|twice[\s\S]*again 0)/);
    expect(await countRows(testDb.db, 'lead_history', 'agent_id = $1', [s.agent_id])).toBe(6);
    expect(await countRows(testDb.db, 'lead_contacts', 'agent_id = $1', [s.agent_id])).toBe(6);
  });

  it('When another write changes one of their leads between read and write, then the shared write undoes itself, and each merges by itself or by the transaction', async () => {
    const { s, claim } = await seedContacts('Interfered Together Agent');
    let writes = 0;
    const f = interfered(async (sql) => {
      if (!sql.includes('leadgate_lead_changed()') || (writes += 1) > 1) return;
      const other = liveDelivery(claim, { phone: CONTACTS[1] ?? '', notes: 'meanwhile' }, undefined);
      expect((await writeInOneTransaction(testDb.db, claim, other)).kind).toBe('merged');
    });
    const results = await Promise.all(
      CONTACTS.map((_, i) => {
        const [body, key] = repeat(i);
        return writeDelivery(f.db, claim, liveDelivery(claim, body, key));
      }),
    );
    expect(results.map((x) => x.kind)).toEqual(['merged', 'merged', 'merged']);
    expect(f.transactions).toBe(1);
    const { rows } = await testDb.db.query<{ fields: { notes: string } }>(
      'SELECT fields FROM leads WHERE agent_id = $1 ORDER BY name',
      [s.agent_id],
    );
    expect(rows.map((x) => x.fields.notes.replace(/\s+/g, ' '))).toEqual([
      expect.stringMatching(/first.*again 0$/),
      expect.stringMatching(/first.*meanwhile.*again 1$/),
      expect.stringMatching(/first.*again 2$/),
    ]);
    expect(await countRows(testDb.db, 'lead_history', 'agent_id = $1', [s.agent_id])).toBe(7);
    expect(await countRows(testDb.db, 'outbox', 'agent_id = $1', [s.agent_id])).toBe(7);
    expect(await countRows(testDb.db, 'idempotency_keys', 'agent_id = $1', [s.agent_id])).toBe(2);
    expect(await countRows(testDb.db, 'lead_contacts', 'agent_id = $1', [s.agent_id])).toBe(6);
  });
});

// New contacts arriving at the same moment share one many-row statement (writeNewContacts in
// write-new-contact.ts): it must leave the rows one statement each would, and a write that
// cannot share it must still be made.
describe('new contacts written together', () => {
  // The many-row new-contact statement (a merge's statement reads its history lines from JSON too).
  const many = (sql: string) => sql.includes('json_to_recordset') && sql.includes('INSERT INTO leads');

  it('When the deliveries come at once, then one statement writes them all, and the rows are what the general transaction writes', async () => {
    const r = recorded();
    const together = await seedSource(r.db, 'Together Agent');
    const general = await seedSource(testDb.db, 'General Agent 2');
    const togetherClaim = await claimOf(r.db, together.token);
    const generalClaim = await claimOf(testDb.db, general.token);
    r.seen.length = 0;
    const results = await Promise.all(
      DELIVERIES.map(([, body, key]) =>
        writeDelivery(r.db, togetherClaim, liveDelivery(togetherClaim, body, key)),
      ),
    );
    expect(results.map((x) => x.kind)).toEqual(['created', 'created', 'created']);
    expect(r.seen).toHaveLength(1);
    expect(many(r.seen[0] ?? '')).toBe(true);
    for (const [, body, key] of DELIVERIES)
      await writeInOneTransaction(testDb.db, generalClaim, liveDelivery(generalClaim, body, key));
    const [togetherRows, generalRows] = [
      await rowsOf(testDb.db, together.agent_id),
      await rowsOf(testDb.db, general.agent_id),
    ];
    expect(JSON.stringify(togetherRows)).toContain('"appointments":[{');
    expect(togetherRows).toEqual(generalRows);
  });

  it('When some at once share a phone or a key, or come with a revoked token, then each ends as it would alone', async () => {
    const r = recorded();
    const s = await seedSource(r.db, 'Mixed Agent');
    const revoked = await seedSource(r.db, 'Revoked Mixed Agent');
    const claim = await claimOf(r.db, s.token);
    const revokedClaim = await claimOf(r.db, revoked.token);
    await regenerateSourceToken(r.db, revoked.source_id);
    const known = await writeDelivery(
      r.db,
      claim,
      liveDelivery(claim, { name: 'Known Kay', phone: '2145550800' }, 'mk-0'),
    );
    expect(known.kind).toBe('created');
    r.seen.length = 0;
    const results = await Promise.all([
      writeDelivery(r.db, claim, liveDelivery(claim, { name: 'New Nia', phone: '2145550801' }, 'mk-1')),
      writeDelivery(r.db, claim, liveDelivery(claim, { name: 'Twin One', phone: '2145550802' }, undefined)),
      writeDelivery(r.db, claim, liveDelivery(claim, { name: 'Twin Two', phone: '2145550802' }, undefined)),
      writeDelivery(r.db, claim, liveDelivery(claim, { name: 'Kay Again', phone: '2145550800' }, undefined)),
      writeDelivery(r.db, claim, liveDelivery(claim, { name: 'Known Kay', phone: '2145550800' }, 'mk-0')),
      writeDelivery(r.db, claim, liveDelivery(claim, { name: 'Key Twin', phone: '2145550803' }, 'mk-2')),
      writeDelivery(r.db, claim, liveDelivery(claim, { name: 'Key Twin', phone: '2145550803' }, 'mk-2')),
      writeDelivery(r.db, revokedClaim, liveDelivery(revokedClaim, { name: 'Revoked Ray' }, undefined)),
      writeDelivery(
        r.db,
        claim,
        liveDelivery(claim, { name: 'Plain Pam', email: 'pam@example.com' }, 'mk-3'),
      ),
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
    const s = await seedSource(r.db, 'Fallback Agent');
    const claim = await claimOf(r.db, s.token);
    r.state.failWhen = many;
    const results = await Promise.all(
      [0, 1, 2, 3].map((i) =>
        writeDelivery(
          r.db,
          claim,
          liveDelivery(claim, { name: `Fall ${i}`, phone: `214555081${i}` }, `fb-${i}`),
        ),
      ),
    );
    expect(results.map((x) => x.kind)).toEqual(['created', 'created', 'created', 'created']);
    expect(r.seen.filter(many)).toHaveLength(1);
    expect(await countRows(testDb.db, 'leads', 'agent_id = $1', [s.agent_id])).toBe(4);
  });

  it('When a contact this process wrote comes again, then it goes straight to the merge, and a contact removed since is still written', async () => {
    const r = recorded();
    const s = await seedSource(r.db, 'Repeat Agent');
    const claim = await claimOf(r.db, s.token);
    const first = await writeDelivery(
      r.db,
      claim,
      liveDelivery(claim, { name: 'Rae Repeat', phone: '2145550880' }, undefined),
    );
    expect(first.kind).toBe('created');
    r.seen.length = 0;
    const again = await writeDelivery(
      r.db,
      claim,
      liveDelivery(claim, { name: 'Rae Repeat', phone: '2145550880', city: 'Plano' }, undefined),
    );
    expect(again.kind).toBe('merged');
    // No new-contact statement: the merge's read and its write, and no transaction.
    expect(r.seen.some((sql) => sql.includes('INSERT INTO leads'))).toBe(false);
    expect(r.seen).toHaveLength(2);
    expect(r.seen).not.toContain('BEGIN');

    // The database forgets the contact (its phone no longer names a lead); this process does not.
    await testDb.db.query('DELETE FROM lead_contacts WHERE agent_id = $1', [s.agent_id]);
    const afresh = await writeDelivery(
      r.db,
      claim,
      liveDelivery(claim, { name: 'Rae Repeat', phone: '2145550880' }, undefined),
    );
    expect(afresh.kind).toBe('created');
  });
});
