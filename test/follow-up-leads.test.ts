import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FOLLOW_UP_KEYS, getFollowUpLeads } from '../src/automations/follow-up-leads.ts';
import { planFollowUps, textableNumber } from '../src/automations/follow-up.ts';
import { leadZone } from '../src/automations/lead-zone.ts';
import { getLeadViews } from '../src/leads/lead-queries.ts';
import { createTestDb, type TestDb } from './support/db.ts';
import { insertAgentSource } from './support/lead-rows.ts';

/**
 * The dispatcher reads only FOLLOW_UP_KEYS of the leads it follows up (the whole lead only for
 * webhooks). So the follow-ups must read no other key, and those keys must hold what the lead's
 * full view holds, whatever the lead has stored.
 */
let t: TestDb;
const agent = randomUUID();
const source = randomUUID();

beforeAll(async () => {
  t = await createTestDb();
  await insertAgentSource(t.db, agent, source, 'Follow-ups');
});
afterAll(() => t.cleanup());

/** Leads of every shape the follow-ups tell apart: zone inputs present or not, consent true, false, absent, a string. */
const STORED: Array<{
  columns: { status: string; first_name: string | null; phone: string | null };
  fields: object;
}> = [
  {
    columns: { status: 'New', first_name: 'Ada', phone: '2145550100' },
    fields: { state: 'TX', zipcode: '75201', sms_consent: true, city: 'Dallas', age: 44 },
  },
  {
    columns: { status: 'Scheduled', first_name: null, phone: '3105550100' },
    fields: { appointment_timezone: 'America/Los_Angeles', sms_consent: false },
  },
  { columns: { status: 'New', first_name: 'Li', phone: null }, fields: { state: 'california' } },
  {
    columns: { status: 'Canceled', first_name: 'Zoë', phone: '6465550123' },
    fields: { zipcode: 10001, sms_consent: 'yes', state: null, vendor_extra: { nested: [1, 2] } },
  },
  { columns: { status: 'New', first_name: 'Grace', phone: '4165550199' }, fields: {} },
];

async function storeLeads(): Promise<string[]> {
  const ids: string[] = [];
  for (const { columns, fields } of STORED) {
    const id = randomUUID();
    await t.db.query(
      `INSERT INTO leads (agent_id, lead_id, source_id, status, name, first_name, phone, fields, custom_fields)
       VALUES ($1, $2, $3, $4, 'Someone', $5, $6, $7::jsonb, '{"utm_source": "facebook"}')`,
      [agent, id, source, columns.status, columns.first_name, columns.phone, JSON.stringify(fields)],
    );
    ids.push(id);
  }
  return ids;
}

/** The keys of `view` that `read` looks at (through a proxy that records every key asked for). */
function keysRead(
  view: Record<string, unknown>,
  read: (lead: Record<string, unknown>) => unknown,
): Set<string> {
  const seen = new Set<string>();
  const proxy = new Proxy(view, {
    get(target, key, receiver) {
      if (typeof key === 'string') seen.add(key);
      return Reflect.get(target, key, receiver) as unknown;
    },
  });
  read(proxy);
  return seen;
}

const agentOf = {
  name: 'Sam Agent',
  timezone: 'America/New_York',
  sms_template: null,
  sms_from: null,
  reminder_day_before: true,
  reminder_hour_before: true,
};

describe('what of a lead its follow-ups read', () => {
  it('holds, at each follow-up key, the value the full view holds, on every stored shape', async () => {
    const ids = await storeLeads();
    const [light, full] = await Promise.all([getFollowUpLeads(t.db, ids), getLeadViews(t.db, ids)]);
    expect(light.size).toBe(ids.length);
    for (const id of ids) {
      const view = full.get(id) as Record<string, unknown>;
      const lead = light.get(id) as Record<string, unknown>;
      for (const key of FOLLOW_UP_KEYS) expect([key, lead[key]]).toEqual([key, view[key]]);
    }
  });

  it('is all the plan, the zone and the number read of the whole lead, and plans the same', async () => {
    const ids = await storeLeads();
    const [light, full] = await Promise.all([getFollowUpLeads(t.db, ids), getLeadViews(t.db, ids)]);
    const now = new Date('2026-11-25T18:00:00Z');
    const plan = (lead: Record<string, unknown>) => [
      planFollowUps(
        [{ agent_id: agent, agent: agentOf, topic: 'lead.created', lead, scheduled_at: null }],
        { stopped: new Set(), texted: new Map() },
        now,
      ),
      leadZone(lead, agentOf.timezone),
      textableNumber(lead),
      lead.state,
    ];
    const keys = new Set<string>(FOLLOW_UP_KEYS);
    for (const id of ids) {
      const view = full.get(id) as Record<string, unknown>;
      const read = keysRead(view, plan);
      expect([...read].filter((k) => !keys.has(k))).toEqual([]);
      expect(plan(light.get(id) as Record<string, unknown>)).toEqual(plan(view));
    }
  });
});
