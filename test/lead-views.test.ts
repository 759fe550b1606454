import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LEAD_FIELDS } from '../src/ingest/fields.ts';
import { getLeadView, getLeadViews } from '../src/leads/lead-queries.ts';
import { createTestDb, type TestDb } from './support/db.ts';
import { insertAgentSource } from './support/lead-rows.ts';

/**
 * A lead as the admin API and the dispatcher read it: the record's ids, every canonical field (null
 * when the lead has none) with any other stored field after them, then the record's own columns,
 * which nothing stored in `fields` may shadow or displace.
 */
let t: TestDb;
const agent = randomUUID();
const source = randomUUID();

beforeAll(async () => {
  t = await createTestDb();
  await insertAgentSource(t.db, agent, source, 'Views');
});
afterAll(() => t.cleanup());

async function storeLead(fields: string): Promise<string> {
  const id = randomUUID();
  await t.db.query(
    `INSERT INTO leads (agent_id, lead_id, source_id, status, name, first_name, phone, fields)
     VALUES ($1, $2, $3, 'New', 'Ada Lovelace', 'Ada', '2145550100', $4::jsonb)`,
    [agent, id, source, fields],
  );
  return id;
}

describe("a stored lead's view", () => {
  it('lists the ids, every canonical field in order, the other stored fields, then the columns', async () => {
    const id = await storeLead('{"vendor_extra": "x", "state": "TX", "zipcode": "75201"}');
    const view = (await getLeadView(t.db, id)) as Record<string, unknown>;
    const canonical = Object.keys(LEAD_FIELDS);
    const keys = Object.keys(view);
    // A column that is also a canonical field (status, name, phone …) keeps the field's place.
    expect(keys.slice(0, 3 + canonical.length + 1)).toEqual([
      'lead_id',
      'agent_id',
      'source_id',
      ...canonical,
      'vendor_extra',
    ]);
    expect(keys.slice(-9)).toEqual([
      'idempotency_key',
      'custom_fields',
      'consent',
      'consent_check',
      'screening',
      'body_format',
      'created_at',
      'updated_at',
      'opt_out',
    ]);
    expect(keys).toHaveLength(3 + canonical.length + 1 + 9);
    expect(view).toMatchObject({
      lead_id: id,
      state: 'TX',
      zipcode: '75201',
      vendor_extra: 'x',
      first_name: 'Ada',
    });
    expect(view.email).toBeNull();
    expect(view.city).toBeNull();
  });

  it('keeps the columns when a stored field has the same name', async () => {
    const id = await storeLead('{"status": "Sold", "phone": "9999999999", "lead_id": "not-it"}');
    const [view] = [...(await getLeadViews(t.db, [id])).values()];
    expect(view).toMatchObject({ lead_id: id, status: 'New', phone: '2145550100' });
  });

  it('takes nothing from a stored "__proto__" field: it stays an ordinary object', async () => {
    const id = await storeLead('{"__proto__": {"polluted": true, "city": "Elsewhere"}, "state": "TX"}');
    const view = (await getLeadView(t.db, id)) as Record<string, unknown>;
    expect(Object.getPrototypeOf(view)).toBe(Object.prototype);
    expect('polluted' in view).toBe(false);
    expect(view.city).toBeNull();
    expect(view.state).toBe('TX');
  });
});
