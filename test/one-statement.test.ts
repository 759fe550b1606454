import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../src/db/index.ts';
import { parseIdempotencyKey } from '../src/idempotency/idempotency-key.ts';
import type { SourceClaim } from '../src/gateway/source-directory.ts';
import { prepareSourceLead } from '../src/gateway/source-rules.ts';
import { writeDelivery, writeInOneTransaction, type LiveDelivery } from '../src/gateway/write-delivery.ts';
import type { JsonObject } from '../src/json.ts';
import { findActiveSourceByToken } from '../src/sources/source-repository.ts';
import { hashToken } from '../src/sources/tokens.ts';
import { seedSource } from './support/app.ts';
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

/** Every row an agent has, ids, times and sequence numbers replaced by what they stand for. */
async function rowsOf(db: Database, agentId: string): Promise<unknown> {
  const tables: Array<[string, string]> = [
    ['leads', 'created_at'],
    ['appointments', 'created_at'],
    ['lead_history', 'seq'],
    ['outbox', 'seq'],
    ['lead_contacts', 'kind'],
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
