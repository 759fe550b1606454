import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { weeklySpeed } from '../src/economics/report.ts';
import { adminInject, createTestApp, seedSource, type TestApp } from './support/app.ts';
import { testDispatcher } from './support/automations.ts';
import { deliver } from './support/deliver.ts';

/**
 * The per-source report (docs/economics.md) against a data set made through the API — deliveries,
 * calls, returns and their outcomes, sales — whose times are then moved to fixed instants, as if it
 * had happened then. Every expected figure is worked out by hand in the comments.
 */
let t: TestApp;
let agent: Awaited<ReturnType<typeof seedSource>>;
let vendorB: { source_id: string; token: string };
const leads: Record<string, string> = {};

// The period: the first delivery at T0, a week around it. L6 was delivered 40 days before.
const T0 = Date.parse('2026-10-05T15:00:00Z');
const FROM = '2026-10-04T00:00:00.000Z';
const TO = '2026-10-12T00:00:00.000Z';
const at = (minutes: number) => new Date(T0 + minutes * 60_000).toISOString();

/** A source's price, set as the agent sets it. */
async function price(sourceId: string, cents: number) {
  const res = await adminInject(t.app, 'PATCH', `/sources/${sourceId}`, { price_cents: cents });
  expect(res.statusCode, res.body).toBe(200);
}

async function lead(key: string, token: string, phone: string, extra: Record<string, unknown> = {}) {
  const res = await deliver(t.app, token, { name: `Lead ${key}`, phone, sms_consent: true, ...extra });
  expect(res.statusCode, res.body).toBe(200);
  leads[key] = res.json<{ lead_id: string }>().lead_id;
  return leads[key];
}

const post = async (url: string, body: unknown, status: number) => {
  const res = await adminInject(t.app, 'POST', url, body);
  expect(res.statusCode, res.body).toBe(status);
  return res.json<Record<string, string>>();
};

/** Moves a lead's purchases, texts and call outcomes to T0 + the given minutes. */
async function timeline(key: string, t: { delivered: number[]; text?: number; call?: number }) {
  const id = leads[key];
  const { rows } = await db().query<{ purchase_id: string }>(
    'SELECT purchase_id FROM lead_purchases WHERE lead_id = $1 ORDER BY created_at, purchase_id',
    [id],
  );
  expect(rows).toHaveLength(t.delivered.length);
  for (const [i, row] of rows.entries()) {
    await db().query('UPDATE lead_purchases SET created_at = $2 WHERE purchase_id = $1', [
      row.purchase_id,
      at(t.delivered[i] ?? 0),
    ]);
  }
  const first = t.delivered[0] ?? 0;
  if (t.text !== undefined) {
    const texts = await db().query(
      `UPDATE sms_messages SET status = 'sent', sent_at = $2 WHERE lead_id = $1`,
      [id, at(first + t.text)],
    );
    expect(texts.rowCount, `${key} has a text`).toBe(1);
  }
  if (t.call !== undefined) {
    await db().query(
      `UPDATE lead_history SET created_at = $2 WHERE lead_id = $1 AND event = 'call_outcome'`,
      [id, at(first + t.call)],
    );
  }
}
const db = () => t.db;

beforeAll(async () => {
  t = await createTestApp();
  agent = await seedSource(t.db, 'Report Agent');
  await adminInject(t.app, 'PATCH', `/sources/${agent.source_id}`, { name: 'A Quotes' });
  await price(agent.source_id, 2_500);
  vendorB = await post(`/agents/${agent.agent_id}/sources`, { name: 'B Leads' }, 201).then((s) => ({
    source_id: s.source_id ?? '',
    token: s.token ?? '',
  }));
  await price(vendorB.source_id, 4_000);

  // A: L1 reached, booked and sold; L2 a bad number, returned and credited; L3 delivered twice
  // (the repeat not billable); L4 nothing.
  await lead('L1', agent.token, '3125550801', {
    appointment_date: '2027-06-15',
    appointment_time: '10:00 AM',
  });
  await lead('L2', agent.token, '3125550802');
  await lead('L3', agent.token, '3125550803');
  await lead('L3', agent.token, '3125550803');
  await lead('L4', agent.token, '3125550804');
  // B: L5 reached, returned and denied; L6 before the period, reached and sold (counts nowhere).
  await lead('L5', vendorB.token, '3125550805');
  await lead('L6', vendorB.token, '3125550806');
  // The texts of speed to lead, planned at noon in Chicago (inside the calling hours).
  await testDispatcher(t.db, [0], { now: () => new Date('2026-10-05T17:00:00Z') }).runOnce();

  await post(`/leads/${leads.L1}/call-outcome`, { outcome: 'reached' }, 200);
  await post(`/leads/${leads.L1}/sales`, { premium_cents: 100_000, product: 'Term life' }, 201);
  await post(`/leads/${leads.L2}/call-outcome`, { outcome: 'bad_number' }, 200);
  const l2 = await post(`/leads/${leads.L2}/returns`, { reason: 'disconnected' }, 201);
  await adminInject(t.app, 'PATCH', `/returns/${l2.return_id}`, { status: 'credited' });
  await post(`/leads/${leads.L5}/call-outcome`, { outcome: 'reached' }, 200);
  const l5 = await post(`/leads/${leads.L5}/returns`, { reason: 'other' }, 201);
  await adminInject(t.app, 'PATCH', `/returns/${l5.return_id}`, { status: 'denied' });
  await post(`/leads/${leads.L6}/call-outcome`, { outcome: 'reached' }, 200);
  await post(`/leads/${leads.L6}/sales`, { premium_cents: 55_000 }, 201);

  await timeline('L1', { delivered: [0], text: 2, call: 5 });
  await timeline('L2', { delivered: [60], text: 4, call: 30 });
  await timeline('L3', { delivered: [120, 180], text: 6 });
  await timeline('L4', { delivered: [240], text: 10 });
  await timeline('L5', { delivered: [300], text: 1, call: 3 });
  await timeline('L6', { delivered: [-40 * 24 * 60], text: 1, call: 1 });
}, 60_000);
afterAll(() => t.close());

const report = (query: string) => adminInject(t.app, 'GET', `/agents/${agent.agent_id}/report${query}`);

describe('the report’s figures, worked out by hand', () => {
  it('When the week is asked, then each source’s row and the totals are as counted by hand', async () => {
    const res = await report(`?from=${FROM}&to=${TO}`);
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json<{ from: string; to: string; sources: unknown[]; totals: unknown }>();
    expect([body.from, body.to]).toEqual([FROM, TO]);
    expect(body.sources).toEqual([
      {
        source_id: agent.source_id,
        name: 'A Quotes',
        deliveries: 5, // L1, L2, L3 twice, L4
        billable: 4, // L3's repeat is not
        returned: 1, // L2
        credited: 1,
        spend_cents: 7_500, // 4 × 2,500 − 2,500 credited
        contacted: 1, // L1 reached
        appointments: 1, // L1
        sales: 1,
        premium_cents: 100_000,
        cost_per_lead_cents: 2_500, // 7,500 / (4 − 1)
        cost_per_appointment_cents: 7_500,
        cost_per_sale_cents: 7_500,
        return_rate: 0.25, // 1 / 4
        first_text_minutes_p50: 5, // texts after 2, 4, 6, 10: (4 + 6) / 2
        first_text_minutes_p90: 8.8, // 6 + 0.7 × (10 − 6)
        first_call_minutes_p50: 17.5, // calls after 5 and 30
        first_call_minutes_p90: 27.5, // 5 + 0.9 × 25
      },
      {
        source_id: vendorB.source_id,
        name: 'B Leads',
        deliveries: 1, // L5; L6 is before the period
        billable: 1,
        returned: 1,
        credited: 0, // denied
        spend_cents: 4_000,
        contacted: 1,
        appointments: 0,
        sales: 0, // L6's sale is not of the period's leads
        premium_cents: 0,
        cost_per_lead_cents: 4_000,
        cost_per_appointment_cents: null,
        cost_per_sale_cents: null,
        return_rate: 1,
        first_text_minutes_p50: 1,
        first_text_minutes_p90: 1,
        first_call_minutes_p50: 3,
        first_call_minutes_p90: 3,
      },
    ]);
    expect(body.totals).toEqual({
      source_id: null,
      name: null,
      deliveries: 6,
      billable: 5,
      returned: 2,
      credited: 1,
      spend_cents: 11_500,
      contacted: 2,
      appointments: 1,
      sales: 1,
      premium_cents: 100_000,
      cost_per_lead_cents: 2_875, // 11,500 / (5 − 1)
      cost_per_appointment_cents: 11_500,
      cost_per_sale_cents: 11_500,
      return_rate: 0.4, // 2 / 5
      first_text_minutes_p50: 4, // 1, 2, 4, 6, 10
      first_text_minutes_p90: 8.4, // 6 + 0.6 × 4
      first_call_minutes_p50: 5, // 3, 5, 30
      first_call_minutes_p90: 25, // 5 + 0.8 × 25
    });
  });

  it('When a period has no deliveries, then no rows, zero counts and null costs and minutes', async () => {
    const res = await report('?from=2020-01-01T00:00:00Z&to=2020-02-01T00:00:00Z');
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({
      sources: [],
      totals: {
        deliveries: 0,
        spend_cents: 0,
        cost_per_lead_cents: null,
        return_rate: null,
        first_text_minutes_p50: null,
      },
    });
  });

  it('When no period is given, then it is the 30 days up to now', async () => {
    const before = Date.now();
    const body = (await report('')).json<{ from: string; to: string }>();
    const to = Date.parse(body.to);
    expect(to).toBeGreaterThanOrEqual(before - 1_000);
    expect(to - Date.parse(body.from)).toBe(30 * 24 * 3_600_000);
  });

  it('When the report is asked as CSV, then a header and one line per source, in the JSON’s order', async () => {
    const res = await report(`?from=${FROM}&to=${TO}&format=csv`);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/csv/);
    expect(res.headers['content-disposition']).toContain('attachment');
    const lines = res.body.split('\r\n');
    expect(lines).toEqual([
      'source_id,name,deliveries,billable,returned,credited,spend_cents,contacted,appointments,sales,premium_cents,cost_per_lead_cents,cost_per_appointment_cents,cost_per_sale_cents,return_rate,first_text_minutes_p50,first_text_minutes_p90,first_call_minutes_p50,first_call_minutes_p90',
      `${agent.source_id},A Quotes,5,4,1,1,7500,1,1,1,100000,2500,7500,7500,0.25,5,8.8,17.5,27.5`,
      `${vendorB.source_id},B Leads,1,1,1,0,4000,1,0,0,0,4000,,,1,1,1,3,3`,
      '',
    ]);
  });

  it.each<[string, string, string]>([
    ['a from that is no instant', '?from=yesterday', 'from'],
    ['a to that is no instant', '?to=2026-13-45', 'to'],
    ['a to before from', `?from=${TO}&to=${FROM}`, 'to'],
    ['a year and more', '?from=2024-01-01T00:00:00Z&to=2025-06-01T00:00:00Z', '366'],
    ['an unknown format', '?format=xml', 'format'],
  ])(
    'When the report is asked with %s, then 400 VALIDATION_ERROR naming it',
    async (_label, query, named) => {
      const res = await report(query);
      expect(res.statusCode, res.body).toBe(400);
      expect(res.json()).toMatchObject({
        error_code: 'VALIDATION_ERROR',
        details: expect.stringContaining(named),
      });
    },
  );

  it('When an agent that is not a UUID or unknown is asked, then 400 / 404 as every agent route', async () => {
    expect((await adminInject(t.app, 'GET', '/agents/nope/report')).json()).toMatchObject({
      error_code: 'INVALID_AGENT_IDENTIFIER',
    });
    const res = await adminInject(t.app, 'GET', '/agents/0190a000-0000-7000-8000-000000000009/report');
    expect(res.statusCode).toBe(404);
  });
});

describe('an agency’s report', () => {
  it('When an agency’s source delivers to its producer, then the agency’s report counts it under the source, and the producer’s too', async () => {
    const agency = await post('/agencies', { name: 'Report Agency', fallback_agent_id: agent.agent_id }, 201);
    const source = await post(`/agencies/${agency.agency_id}/sources`, { name: 'Agency Vendor' }, 201);
    await price(source.source_id ?? '', 1_000);
    await lead('A1', source.token ?? '', '3125550811', { state: 'IL' });
    const res = await adminInject(t.app, 'GET', `/agencies/${agency.agency_id}/report`);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({
      sources: [{ source_id: source.source_id, name: 'Agency Vendor', deliveries: 1, spend_cents: 1_000 }],
      totals: { deliveries: 1, spend_cents: 1_000, cost_per_lead_cents: 1_000 },
    });
    const mine = (await report('')).json<{ sources: Array<{ name: string }> }>();
    expect(mine.sources.map((s) => s.name)).toContain('Agency Vendor');
  });

  it('When an agency that is not one’s own, or none, is asked, then 404 AGENCY_NOT_FOUND', async () => {
    for (const id of ['nope', '0190a000-0000-7000-8000-000000000009']) {
      const res = await adminInject(t.app, 'GET', `/agencies/${id}/report`);
      expect(res.statusCode).toBe(404);
      expect(res.json()).toMatchObject({ error_code: 'AGENCY_NOT_FOUND' });
    }
  });
});

describe('speed to lead per week', () => {
  it('When a lead arrives on Sunday evening in Chicago (Monday in UTC), then it counts in the week Chicago is in', async () => {
    const late = await seedSource(t.db, 'Sunday Agent', 'America/Chicago');
    const res = await deliver(t.app, late.token, { name: 'Sunday Sam', phone: '3125550821' });
    expect(res.statusCode, res.body).toBe(200);
    // Sunday 4 October 2026, 10 p.m. in Chicago.
    await db().query('UPDATE lead_purchases SET created_at = $2 WHERE lead_id = $1', [
      res.json<{ lead_id: string }>().lead_id,
      '2026-10-05T03:00:00Z',
    ]);
    const weeks = (zone: string) =>
      weeklySpeed(db(), { agent_id: late.agent_id }, { from: FROM, to: TO }, zone).then((w) =>
        w.map((x) => [x.week, x.leads]),
      );
    expect(await weeks('America/Chicago')).toEqual([['2026-09-28', 1]]);
    expect(await weeks('UTC')).toEqual([['2026-10-05', 1]]);
  });
});
