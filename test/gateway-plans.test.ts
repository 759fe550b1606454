import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EXACT_RETRIES } from '../src/gateway/exact-retries.ts';
import { NEW_CONTACT } from '../src/gateway/write-new-contact.ts';
import { createTestDb, type TestDb } from './support/db.ts';
import { insertAgentSource } from './support/lead-rows.ts';
import { seqScans } from './support/plans.ts';

/**
 * A delivery must cost the same at an agent's thousandth lead as at the first. The statements that
 * write several deliveries at once read their records from JSON, which the planner guesses at 100
 * rows whatever it holds; joined to a table, that guess can make it hash the agent's every lead,
 * key or contact key for each statement, a cost that grows with the agent's book. Each plan, on an
 * agent with thousands of leads (statistics taken), must read those tables by index.
 */
let t: TestDb;
const agent = randomUUID();
const source = randomUUID();
const LEADS = 3_000;
const BIG = ['leads', 'lead_contacts', 'idempotency_keys', 'lead_history', 'outbox'];
/** Three deliveries' records (their values do not change the plan; absent ones read as null). */
const RECORDS = JSON.stringify([{ n: 1 }, { n: 2 }, { n: 3 }]);

beforeAll(async () => {
  t = await createTestDb();
  await insertAgentSource(t.db, agent, source, 'Plans');
  await t.db.query(
    `INSERT INTO leads (agent_id, lead_id, source_id, status, name, phone, email)
     SELECT $1, gen_random_uuid(), $2, 'New', 'Lead ' || i, '+1512' || lpad(i::text, 7, '0'), 'lead' || i || '@example.com'
       FROM generate_series(1, $3::int) AS i`,
    [agent, source, LEADS],
  );
  await t.db.query(
    `INSERT INTO lead_contacts (agent_id, kind, value, lead_id)
     SELECT agent_id, k.kind, k.value, lead_id FROM leads, LATERAL (VALUES ('phone', phone), ('email', email)) AS k (kind, value)`,
  );
  await t.db.query(
    `INSERT INTO idempotency_keys (agent_id, source_id, key, contact, expires_at, lead_id)
     SELECT agent_id, source_id, 'key-' || lead_id, '{}', now() + interval '1 day', lead_id FROM leads`,
  );
  for (const table of BIG) await t.db.query(`ANALYZE ${table}`);
});
afterAll(() => t.cleanup());

describe('deliveries written together, on an agent with thousands of leads', () => {
  it('When new contacts are written by one statement, then its plan reads no table of the agent whole', async () => {
    const scanned = await seqScans(t.db, NEW_CONTACT.many.text, [RECORDS]);
    expect(scanned.filter((table) => BIG.includes(table))).toEqual([]);
  });

  it('When exact resends are looked up together, then the plan reads no table of the agent whole', async () => {
    const many = (value: string) => [value, value, value];
    const scanned = await seqScans(
      t.db,
      EXACT_RETRIES.text,
      EXACT_RETRIES.values({
        token_hashes: many('plans'),
        source_ids: many(source),
        revisions: [1, 1, 1],
        keys: many('key'),
        digests: many('digest'),
      }),
    );
    expect(scanned.filter((table) => BIG.includes(table))).toEqual([]);
  });
});
