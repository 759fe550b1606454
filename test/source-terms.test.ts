import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { adminInject, createTestApp, watchedTestApp, type TestApp } from './support/app.ts';
import { TEST_DATABASE_URL } from './support/db.ts';
import { countRows, deliver, deliverInParallel } from './support/deliver.ts';
import { startGatewayProcess } from './support/processes.ts';

/**
 * A source's terms (docs/decisions/0064): set by PATCH, the acceptance rules at the door, the caps
 * counted in the agent's days and months, and the purchase each accepted delivery records.
 */

type Json = Record<string, unknown>;

let t: TestApp;
let baseUrl: string;
beforeAll(async () => {
  t = await createTestApp();
  baseUrl = await t.app.listen({ port: 0, host: '127.0.0.1' });
});
afterAll(() => t.close());
afterEach(() => {
  vi.useRealTimers();
});

const api = async (method: 'GET' | 'POST' | 'PATCH', url: string, body?: unknown) => {
  const res = await adminInject(t.app, method, url, body);
  return { status: res.statusCode, body: res.json<Json>() };
};

let phones = 0;
/** A lead with a phone of its own (or `phone`, for a repeat contact). */
const lead = (extra: Json = {}): Json => ({
  name: 'Terry Terms',
  phone: `312555${String(1000 + ++phones).slice(-4)}`,
  ...extra,
});

/** A new agent in `timezone` with one source, its terms set by PATCH. */
async function sourceWith(terms: Json, timezone = 'America/Chicago') {
  const agent = await api('POST', '/agents', { name: 'Terms Agent', timezone });
  expect(agent.status).toBe(201);
  const agentId = agent.body.agent_id as string;
  const created = await api('POST', `/agents/${agentId}/sources`, { name: 'Vendor T' });
  const sourceId = created.body.source_id as string;
  const patched = await api('PATCH', `/sources/${sourceId}`, terms);
  expect(patched.status).toBe(200);
  return { agentId, sourceId, token: created.body.token as string, source: patched.body };
}

const refusedSamples = async (sourceId: string) =>
  (await api('GET', `/sources/${sourceId}/samples?listen=false`)).body.samples as Json[];
const purchasesOf = async (leadId: string) => (await api('GET', `/leads/${leadId}`)).body.purchases as Json[];

describe('PATCH /sources/:source_id sets the terms', () => {
  it('When terms are set, then the source answers them; null removes one rule or cap and the others stay', async () => {
    const s = await sourceWith({
      price_cents: 2500,
      return_window_hours: 48,
      duplicate_days: 14,
      accept: { states: ['TX', 'OK'], min_age: 21, max_age: 64, require_consent: true },
      caps: { daily: 5, monthly: 100 },
    });
    expect(s.source).toMatchObject({
      price_cents: 2500,
      return_window_hours: 48,
      duplicate_days: 14,
      accept: { states: ['TX', 'OK'], min_age: 21, max_age: 64, require_consent: true },
      caps: { daily: 5, monthly: 100 },
    });
    const changed = await api('PATCH', `/sources/${s.sourceId}`, {
      accept: { min_age: null, require_consent: null },
      caps: { daily: null },
    });
    expect(changed.body).toMatchObject({
      accept: { states: ['TX', 'OK'], max_age: 64 },
      caps: { monthly: 100 },
    });
    expect(Object.keys(changed.body.accept as Json).sort()).toEqual(['max_age', 'states']);
    expect(Object.keys(changed.body.caps as Json)).toEqual(['monthly']);
  });

  it('When a new source is read, then it has the default terms: free, 72 h returns, 30 duplicate days, no rules, no caps', async () => {
    const s = await sourceWith({});
    expect(s.source).toMatchObject({
      price_cents: 0,
      return_window_hours: 72,
      duplicate_days: 30,
      accept: {},
      caps: {},
    });
  });

  it.each<[Json, string]>([
    [{ price_cents: -1 }, 'price_cents must be a whole number from 0 to 100000000'],
    [{ price_cents: '25' }, 'price_cents must be a whole number'],
    [{ price_cents: 2.5 }, 'price_cents must be a whole number'],
    [{ return_window_hours: -5 }, 'return_window_hours must be a whole number from 0 to 8760'],
    [{ duplicate_days: null }, 'duplicate_days must be a whole number'],
    [{ accept: { states: ['XX'] } }, 'accept.states[0] must be one of'],
    [{ accept: { states: [] } }, 'accept.states must not be an empty list'],
    [{ accept: { states: ['TX', 'TX'] } }, 'accept.states must not name an item twice'],
    [{ accept: { min_age: -1 } }, 'accept.min_age must be a whole number from 0 to 150, or null'],
    [{ accept: { require_consent: 'yes' } }, 'accept.require_consent must be true or false, or null'],
    [{ accept: { min_Age: 21 } }, 'accept has no member min_Age'],
    [{ accept: { min_age: 65, max_age: 21 } }, 'accept.min_age 65 is over accept.max_age 21'],
    [{ caps: { daily: 0 } }, 'caps.daily must be a whole number from 1 to 1000000, or null'],
    [{ caps: { weekly: 5 } }, 'caps has no member weekly'],
    [{ caps: 5 }, 'caps must be an object'],
  ])('When the body is %j, then 400 VALIDATION_ERROR names it and nothing changes', async (body, details) => {
    const s = await sourceWith({ price_cents: 900, accept: { max_age: 70 }, caps: { daily: 3 } });
    const res = await api('PATCH', `/sources/${s.sourceId}`, { price_cents: 1, ...body });
    expect(res.status).toBe(400);
    expect(res.body.error_code).toBe('VALIDATION_ERROR');
    expect(String(res.body.details)).toContain(details);
    const [after] = (await api('GET', `/agents/${s.agentId}/sources`)).body.sources as Json[];
    expect(after).toMatchObject({ price_cents: 900, accept: { max_age: 70 }, caps: { daily: 3 } });
  });

  it('When an agent key sets terms, then only its own sources change; another agent’s is 404', async () => {
    const own = await sourceWith({});
    const other = await sourceWith({ price_cents: 700 });
    const key = (await api('POST', `/agents/${own.agentId}/keys`)).body.key as string;
    const asAgent = (sourceId: string) =>
      t.app.inject({
        method: 'PATCH',
        url: `/v1/admin/sources/${sourceId}`,
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
        payload: JSON.stringify({ price_cents: 1, caps: { daily: 1 } }),
      });
    expect((await asAgent(own.sourceId)).json()).toMatchObject({ price_cents: 1, caps: { daily: 1 } });
    const refused = await asAgent(other.sourceId);
    expect(refused.statusCode).toBe(404);
    expect(refused.json()).toMatchObject({ error_code: 'SOURCE_NOT_FOUND' });
    const [kept] = (await api('GET', `/agents/${other.agentId}/sources`)).body.sources as Json[];
    expect(kept).toMatchObject({ price_cents: 700, caps: {} });
  });
});

describe('acceptance at the door', () => {
  it.each<[string, Json, Json, string]>([
    ['state', { states: ['TX'] }, { state: 'OH' }, 'state OH is not accepted by this source'],
    ['min_age', { min_age: 30 }, { age: 25 }, "age 25 is under this source's minimum age of 30"],
    ['max_age', { max_age: 64 }, { age: 70 }, "age 70 is over this source's maximum age of 64"],
    [
      'require_consent',
      { require_consent: true },
      { sms_consent: true },
      'this source requires consent evidence: consent_cert_url or consent_token is missing',
    ],
  ])(
    'When a lead breaks the %s rule, then it is refused 422 LEAD_NOT_ACCEPTED, kept as a refused sample, neither counted nor billed',
    async (_, accept, extra, details) => {
      const s = await sourceWith({ price_cents: 1500, accept, caps: { daily: 10 } });
      const res = await deliver(t.app, s.token, lead(extra));
      expect(res.statusCode).toBe(422);
      expect(res.json()).toEqual({
        error: 'Lead not accepted by this source',
        error_code: 'LEAD_NOT_ACCEPTED',
        details,
      });
      const [sample] = await refusedSamples(s.sourceId);
      expect(sample).toMatchObject({
        listen: false,
        error_code: 'LEAD_NOT_ACCEPTED',
        error_details: details,
      });
      expect(sample?.body).toMatchObject(extra);
      expect(await countRows(t.db, 'leads', 'source_id = $1', [s.sourceId])).toBe(0);
      expect(await countRows(t.db, 'lead_purchases', 'source_id = $1', [s.sourceId])).toBe(0);
      expect(await countRows(t.db, 'source_cap_counts', 'source_id = $1', [s.sourceId])).toBe(0);
    },
  );

  it('When a lead carries no state, no age and the rules ask none of consent, then every rule passes it', async () => {
    const s = await sourceWith({ accept: { states: ['TX'], min_age: 30, max_age: 64 } });
    const res = await deliver(t.app, s.token, lead());
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ success: true, status: 'New' });
  });

  it('When each rule meets a lead inside it, then the lead is taken: the state, the ages, a certificate', async () => {
    const s = await sourceWith({
      accept: { states: ['TX'], min_age: 30, max_age: 64, require_consent: true },
    });
    const res = await deliver(
      t.app,
      s.token,
      lead({ state: 'Texas', age: 45, consent_cert_url: 'https://cert.trustedform.com/abc' }),
    );
    expect(res.statusCode).toBe(200);
  });

  it('When a Listen lead breaks a rule, then the sample says what a live delivery would be told, and the answer is Listen’s', async () => {
    const s = await sourceWith({ accept: { states: ['TX'] } });
    const res = await deliver(t.app, s.token, lead({ state: 'OH', listen: true }));
    expect(res.statusCode).toBe(200);
    const [sample] = (await api('GET', `/sources/${s.sourceId}/samples`)).body.samples as Json[];
    expect(sample).toMatchObject({
      listen: true,
      error_code: 'LEAD_NOT_ACCEPTED',
      error_details: 'state OH is not accepted by this source',
      would_fire: null,
    });
    expect(await countRows(t.db, 'lead_purchases', 'source_id = $1', [s.sourceId])).toBe(0);
  });
});

describe('caps, counted in the agent’s days and months', () => {
  /** Delivers one new lead at `at` (a fake clock: only Date) and returns its status code. */
  const at = async (token: string, instant: string) => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date(instant));
    const res = await deliver(t.app, token, lead());
    vi.useRealTimers();
    return res;
  };

  it('When the daily cap is reached at 23:50 in Chicago, then the next lead is refused until Chicago’s midnight, not UTC’s', async () => {
    const s = await sourceWith({ caps: { daily: 2 } });
    // 23:50 on Nov 30 in Chicago is already Dec 1 in UTC.
    expect((await at(s.token, '2026-12-01T05:50:00Z')).statusCode).toBe(200);
    expect((await at(s.token, '2026-12-01T05:51:00Z')).statusCode).toBe(200);
    const full = await at(s.token, '2026-12-01T05:59:00Z');
    expect(full.statusCode).toBe(422);
    expect(full.json()).toEqual({
      error: 'Lead cap reached for this source',
      error_code: 'SOURCE_CAP_REACHED',
      details: "this source's daily cap of 2 leads is reached for this day",
    });
    const [sample] = await refusedSamples(s.sourceId);
    expect(sample).toMatchObject({ error_code: 'SOURCE_CAP_REACHED' });
    expect((await at(s.token, '2026-12-01T06:01:00Z')).statusCode).toBe(200);
    const counts = await t.db.query<{ period_start: string; used: number }>(
      `SELECT period_start::text, used FROM source_cap_counts WHERE source_id = $1 ORDER BY period_start`,
      [s.sourceId],
    );
    expect(counts.rows).toEqual([
      { period_start: '2026-11-30', used: 2 },
      { period_start: '2026-12-01', used: 1 },
    ]);
    expect(await countRows(t.db, 'lead_purchases', 'source_id = $1', [s.sourceId])).toBe(3);
  });

  it('When the monthly cap is reached on the last evening of November in Los Angeles, then December there takes leads again', async () => {
    const s = await sourceWith({ caps: { monthly: 2 } }, 'America/Los_Angeles');
    // 21:00 and 22:00 on Nov 30 in Los Angeles: Dec 1 in UTC already.
    expect((await at(s.token, '2026-12-01T05:00:00Z')).statusCode).toBe(200);
    expect((await at(s.token, '2026-12-01T06:00:00Z')).statusCode).toBe(200);
    expect((await at(s.token, '2026-12-01T07:59:00Z')).json()).toMatchObject({
      error_code: 'SOURCE_CAP_REACHED',
      details: "this source's monthly cap of 2 leads is reached for this month",
    });
    expect((await at(s.token, '2026-12-01T08:01:00Z')).statusCode).toBe(200);
  });

  it('When an agency’s source is capped, then its days are the agency’s, not its fallback producer’s', async () => {
    const boss = await api('POST', '/agents', { name: 'New York Boss', timezone: 'America/New_York' });
    const agency = await api('POST', '/agencies', {
      name: 'Aloha Agency',
      fallback_agent_id: boss.body.agent_id,
      timezone: 'Pacific/Honolulu',
    });
    expect(agency.status).toBe(201);
    const src = await api('POST', `/agencies/${String(agency.body.agency_id)}/sources`, { name: 'Vendor H' });
    const token = src.body.token as string;
    await api('PATCH', `/sources/${String(src.body.source_id)}`, { caps: { daily: 1 } });
    // 04:30 and 05:30 on Dec 1 in New York; 23:30 on Nov 30 and 00:30 on Dec 1 in Honolulu.
    expect((await at(token, '2026-12-01T09:30:00Z')).statusCode).toBe(200);
    expect((await at(token, '2026-12-01T09:45:00Z')).statusCode).toBe(422);
    expect((await at(token, '2026-12-01T10:30:00Z')).statusCode).toBe(200);
  });

  it('When a delivery is replayed by its key or refused by a rule, then it takes no place under the cap', async () => {
    const s = await sourceWith({ caps: { daily: 2 }, accept: { states: ['TX'] } });
    const body = lead();
    const key = { headers: { 'idempotency-key': 'replay-me' } };
    expect((await deliver(t.app, s.token, body, key)).statusCode).toBe(200);
    expect((await deliver(t.app, s.token, body, key)).json()).toMatchObject({ success: true });
    expect((await deliver(t.app, s.token, lead({ state: 'OH' }))).statusCode).toBe(422);
    expect((await deliver(t.app, s.token, lead())).statusCode).toBe(200);
    expect((await deliver(t.app, s.token, lead())).json()).toMatchObject({
      error_code: 'SOURCE_CAP_REACHED',
    });
    expect(await countRows(t.db, 'lead_purchases', 'source_id = $1', [s.sourceId])).toBe(2);
  });

  it('When a delivery fails after taking its place, then the rollback gives the place back', async () => {
    const w = await watchedTestApp();
    try {
      const created = await adminInject(w.t.app, 'POST', '/agents', { name: 'Rolled', timezone: 'UTC' });
      const agentId = created.json<Json>().agent_id as string;
      const src = (
        await adminInject(w.t.app, 'POST', `/agents/${agentId}/sources`, { name: 'V' })
      ).json<Json>();
      await adminInject(w.t.app, 'PATCH', `/sources/${String(src.source_id)}`, { caps: { daily: 1 } });
      w.faulty.state.failWhen = (sql) => sql.includes('INSERT INTO lead_purchases');
      expect((await deliver(w.t.app, String(src.token), lead())).statusCode).toBe(500);
      w.faulty.state.failWhen = undefined;
      expect((await deliver(w.t.app, String(src.token), lead())).statusCode).toBe(200);
      expect((await deliver(w.t.app, String(src.token), lead())).json()).toMatchObject({
        error_code: 'SOURCE_CAP_REACHED',
      });
    } finally {
      await w.close();
    }
  });

  it('When 12 deliveries race a daily cap of 5 over HTTP, then exactly 5 are taken', async () => {
    const s = await sourceWith({ caps: { daily: 5 } });
    const results = await deliverInParallel([baseUrl], s.token, 12, () => lead());
    expect(results.filter((r) => r.status === 200)).toHaveLength(5);
    expect(results.filter((r) => r.body.error_code === 'SOURCE_CAP_REACHED')).toHaveLength(7);
    expect(await countRows(t.db, 'leads', 'source_id = $1', [s.sourceId])).toBe(5);
  });
});

describe.runIf(TEST_DATABASE_URL)('two gateway processes on one PostgreSQL', () => {
  it('When 30 deliveries hit both processes against a daily cap of 7, then exactly 7 are taken', async () => {
    const s = await sourceWith({ caps: { daily: 7 } });
    const env = { DATABASE_URL: t.testDb.url ?? '', ADMIN_API_KEY: 'k', LEADGATE_DEMO: '0' };
    const gateways = await Promise.all([startGatewayProcess(env), startGatewayProcess(env)]);
    try {
      const results = await deliverInParallel(
        gateways.map((g) => g.url),
        s.token,
        30,
        () => lead(),
      );
      expect(results.filter((r) => r.status === 200)).toHaveLength(7);
      expect(results.filter((r) => r.body.error_code === 'SOURCE_CAP_REACHED')).toHaveLength(23);
      expect(await countRows(t.db, 'lead_purchases', 'source_id = $1', [s.sourceId])).toBe(7);
    } finally {
      await Promise.all(gateways.map((g) => g.stop()));
    }
  }, 60_000);
});

describe('billing truth per delivery', () => {
  it('When the same contact comes again inside duplicate_days, then it is merged and not billable; outside, billable again', async () => {
    const s = await sourceWith({ price_cents: 3000, duplicate_days: 30 });
    const body = lead();
    const first = (await deliver(t.app, s.token, body)).json<Json>();
    const second = (await deliver(t.app, s.token, { ...body, state: 'TX' })).json<Json>();
    expect(second).toMatchObject({ resubmit: true, lead_id: first.lead_id });
    const leadId = String(first.lead_id);
    expect((await purchasesOf(leadId)).map((p) => [p.billable, p.price_cents, p.reason])).toEqual([
      [true, 3000, null],
      [false, 3000, 'duplicate'],
    ]);
    // The billed delivery 31 days ago: the next one is outside the window.
    await t.db.query(
      `UPDATE lead_purchases SET created_at = created_at - interval '31 days' WHERE lead_id = $1`,
      [leadId],
    );
    await deliver(t.app, s.token, body);
    const purchases = await purchasesOf(leadId);
    expect(purchases.map((p) => [p.billable, p.reason])).toEqual([
      [true, null],
      [false, 'duplicate'],
      [true, null],
    ]);
    expect(purchases.every((p) => p.source_id === s.sourceId && typeof p.at === 'string')).toBe(true);
    expect(purchases.map((p) => p.at)).toEqual([...purchases.map((p) => p.at as string)].sort());
  });

  it('When the repeat comes from another source, or duplicate_days is 0, then it is billable', async () => {
    const a = await sourceWith({ price_cents: 1000, duplicate_days: 0 });
    const body = lead();
    const first = (await deliver(t.app, a.token, body)).json<Json>();
    await deliver(t.app, a.token, body);
    expect((await purchasesOf(String(first.lead_id))).map((p) => p.billable)).toEqual([true, true]);
  });

  it('When a Listen, a refused or a replayed delivery comes, then it buys nothing', async () => {
    const s = await sourceWith({ price_cents: 500, accept: { max_age: 60 } });
    const body = lead();
    const key = { headers: { 'idempotency-key': 'bought-once' } };
    const first = (await deliver(t.app, s.token, body, key)).json<Json>();
    await deliver(t.app, s.token, body, key);
    await deliver(t.app, s.token, { ...body, listen: true });
    await deliver(t.app, s.token, { ...body, age: 70 });
    expect(await purchasesOf(String(first.lead_id))).toHaveLength(1);
  });
});
