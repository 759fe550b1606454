import { randomUUID } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { APPOINTMENT_STATUSES } from '../src/appointments/transitions.ts';
import { splitStatements } from '../src/db/migrate.ts';
import { LEAD_STATUSES } from '../src/leads/lead-status.ts';
import { createTestDb, type TestDb } from './support/db.ts';
import { insertAgentSource } from './support/lead-rows.ts';

const SRC = new URL('../src/', import.meta.url).pathname;

let t: TestDb;
beforeAll(async () => {
  t = await createTestDb();
});
afterAll(() => t.cleanup());

/** The values a CHECK (column IN (…)) constraint of `table` allows for `column`. */
async function allowed(table: string, column: string): Promise<string[]> {
  const { rows } = await t.db.query<{ def: string }>(
    `SELECT pg_get_constraintdef(c.oid) AS def FROM pg_constraint c
      WHERE c.conrelid = $1::regclass AND c.contype = 'c'`,
    [table],
  );
  const def = rows
    .map((r) => r.def)
    .find((d) => d.includes(`(${column} = ANY`) || d.includes(`${column} = ANY`));
  if (!def) throw new Error(`no CHECK on ${table}.${column}`);
  return [...def.matchAll(/'([^']+)'::text/g)].map((m) => m[1] ?? '');
}

describe('the status lists: one in the code, the same in the database', () => {
  it('When the schema constrains lead and appointment statuses, then it allows exactly the code’s lists', async () => {
    expect(await allowed('leads', 'status')).toEqual([...LEAD_STATUSES]);
    expect(await allowed('appointments', 'status')).toEqual([...APPOINTMENT_STATUSES]);
  });
});

describe('ANALYZE leaves the JSON documents alone (migrations/0016-json-statistics.sql)', () => {
  it('When the schema has a jsonb column, then its statistics target is 0, every one', async () => {
    const { rows } = await t.db.query<{ col: string; target: number | null }>(
      `SELECT c.relname || '.' || a.attname AS col, a.attstattarget::int AS target
         FROM pg_attribute a JOIN pg_class c ON c.oid = a.attrelid
        WHERE c.relnamespace = current_schema()::regnamespace AND c.relkind = 'r'
          AND a.atttypid = 'jsonb'::regtype AND a.attnum > 0 AND NOT a.attisdropped
        ORDER BY 1`,
    );
    expect(rows.map((r) => r.col)).toContain('leads.fields');
    // A jsonb column added without its line in a migration fails here: decide whether a statement
    // will filter by the document (then its statistics matter) or not (then set it to 0).
    expect(rows.filter((r) => r.target !== 0).map((r) => r.col)).toEqual([]);
  });

  it('When the leads table is analyzed, then the plain columns have statistics and the documents none', async () => {
    const agent = randomUUID();
    const source = randomUUID();
    await insertAgentSource(t.db, agent, source, 'Stats');
    await t.db.query(
      `INSERT INTO leads (agent_id, lead_id, source_id, status, name, phone, fields, custom_fields, consent)
       SELECT $1, gen_random_uuid(), $2, 'New', 'Lead ' || i, '+1512' || lpad(i::text, 7, '0'),
              jsonb_build_object('state', 'TX', 'zip', '7870' || (i % 10)), '{"x": 1}', '{"tcpa": true}'
         FROM generate_series(1, 200) AS i`,
      [agent, source],
    );
    await t.db.query('ANALYZE leads');
    const { rows } = await t.db.query<{ attname: string }>(
      `SELECT attname FROM pg_stats WHERE schemaname = current_schema() AND tablename = 'leads'`,
    );
    const analyzed = rows.map((r) => r.attname);
    expect(analyzed).toEqual(expect.arrayContaining(['phone', 'status', 'name']));
    expect(analyzed.filter((c) => ['fields', 'custom_fields', 'consent'].includes(c))).toEqual([]);
  });

  it('When the code asks the database, then no statement filters by JSON containment (which would need those statistics)', () => {
    const files = readdirSync(SRC, { recursive: true, encoding: 'utf8' }).filter(
      (f) => f.endsWith('.ts') && !f.endsWith('.test.ts'),
    );
    const using = files.filter((f) => /@>|<@|jsonb_path_/.test(readFileSync(join(SRC, f), 'utf8')));
    expect(using).toEqual([]);
  });
});

describe('every index on leads is one a query reads by (migrations/0019-unused-email-index.sql)', () => {
  // Each index is written on every new lead. One added here needs the query that reads through it;
  // one no query reads is only a cost (leads_agent_email_idx was: a search matches email with ILIKE).
  const READ_BY = {
    leads_pkey: 'a lead by agent and id (foreign keys, updates)',
    leads_lead_id_idx: 'a lead by id (admin and console pages)',
    leads_claim_due_idx: 'the claim timer: leads of an agency due to move on (only those are in it)',
    leads_agent_created_idx: "an agent's leads, newest first, by cursor",
    leads_agent_phone_idx: 'the search for a whole phone number',
  };

  it('When the schema is migrated, then leads has exactly the indexes a query reads by', async () => {
    const { rows } = await t.db.query<{ name: string }>(
      `SELECT indexrelid::regclass::text AS name FROM pg_index WHERE indrelid = 'leads'::regclass ORDER BY 1`,
    );
    expect(rows.map((r) => r.name)).toEqual(Object.keys(READ_BY).sort());
  });
});

describe('lead emails are stored as intake normalizes them (migrations/0031-lead-emails-as-stored.sql)', () => {
  it('When a lead row holds an email in capitals or with blanks, then the migration stores it trimmed and lower case', async () => {
    const agent = randomUUID();
    const source = randomUUID();
    await insertAgentSource(t.db, agent, source, 'Mixed case');
    const insert = (email: string | null, fields: object) =>
      t.db.query<{ lead_id: string }>(
        `INSERT INTO leads (agent_id, lead_id, source_id, status, name, email, fields, custom_fields)
         VALUES ($1, gen_random_uuid(), $2, 'New', 'Mixed', $3, $4::jsonb, '{}') RETURNING lead_id`,
        [agent, source, email, JSON.stringify(fields)],
      );
    const mixed = (await insert(' Pat@Example.COM', { email: ' Pat@Example.COM', state: 'TX' })).rows[0];
    const none = (await insert(null, { state: 'OK' })).rows[0];
    const sql = readFileSync(
      new URL('../migrations/0031-lead-emails-as-stored.sql', import.meta.url),
      'utf8',
    );
    for (const statement of splitStatements(sql)) await t.db.query(statement);
    const { rows } = await t.db.query<{ lead_id: string; email: string | null; fields: unknown }>(
      'SELECT lead_id, email, fields FROM leads WHERE agent_id = $1',
      [agent],
    );
    const byId = new Map(rows.map((r) => [r.lead_id, r]));
    expect(byId.get(mixed?.lead_id ?? '')).toMatchObject({
      email: 'pat@example.com',
      fields: { email: 'pat@example.com', state: 'TX' },
    });
    expect(byId.get(none?.lead_id ?? '')).toMatchObject({ email: null, fields: { state: 'OK' } });
  });
});
