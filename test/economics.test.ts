import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addDestination, adminInject, createTestApp, seedSource, type TestApp } from './support/app.ts';
import { testDispatcher } from './support/automations.ts';
import { deliver } from './support/deliver.ts';
import { startReceiver } from './support/receiver.ts';

/**
 * Returns and sales through the admin API (docs/economics.md), on the suite's database: a return
 * of the lead's latest billable purchase inside its source's window, with its evidence; refused
 * past the window, twice, or for another agent's lead; its outcome; a sale making the lead Sold;
 * each told to the source's destinations as `lead.returned` / `lead.sold`.
 */
let t: TestApp;
let receiver: Awaited<ReturnType<typeof startReceiver>>;
let src: Awaited<ReturnType<typeof seedSource>>;
let phone = 3125550700;

beforeAll(async () => {
  t = await createTestApp();
  receiver = await startReceiver();
  src = await seedSource(t.db, 'Economics Agent');
  await setTerms(src.source_id, { price_cents: 2_500, return_window_hours: 72 });
  expect((await addDestination(t.app, src.source_id, { url: `${receiver.url}/vendor` })).statusCode).toBe(
    201,
  );
});
afterAll(async () => {
  await receiver.close();
  await t.close();
});

/** A source's price and return window, set as the agent sets them. */
async function setTerms(sourceId: string, terms: { price_cents: number; return_window_hours: number }) {
  const res = await adminInject(t.app, 'PATCH', `/sources/${sourceId}`, terms);
  expect(res.statusCode, res.body).toBe(200);
}

async function newLead(token = src.token, extra: Record<string, unknown> = {}) {
  const res = await deliver(t.app, token, {
    name: 'Bought Lead',
    phone: String(phone++),
    state: 'OH',
    ...extra,
  });
  expect(res.statusCode, res.body).toBe(200);
  return res.json<{ lead_id: string }>().lead_id;
}

/** Moves a lead's purchases `hours` into the past, as if it had been delivered then. */
async function age(leadId: string, hours: number) {
  await t.db.query(
    `UPDATE lead_purchases SET created_at = created_at - make_interval(hours => $2) WHERE lead_id = $1`,
    [leadId, hours],
  );
}

const returnLead = (leadId: string, body: unknown) =>
  adminInject(t.app, 'POST', `/leads/${leadId}/returns`, body);

/** What the vendor's destination was sent of `topic` for the lead, once the dispatcher ran. */
async function sentToVendor(topic: string, leadId: string) {
  const dispatcher = testDispatcher(t.db);
  for (;;) {
    const round = await dispatcher.runOnce();
    if (round.dispatched === 0 && round.delivered === 0) break;
  }
  return receiver.received
    .map((r) => JSON.parse(r.body) as { type: string; data: Record<string, unknown> })
    .filter((b) => b.type === topic && b.data.lead_id === leadId)
    .map((b) => b.data);
}

describe('returns', () => {
  it('When a lead called twice, the second a bad number, is returned inside the window, then 201 with the calls as evidence, and the vendor is told', async () => {
    const leadId = await newLead();
    await adminInject(t.app, 'POST', `/leads/${leadId}/call-outcome`, { outcome: 'no_answer' });
    await adminInject(t.app, 'POST', `/leads/${leadId}/call-outcome`, { outcome: 'bad_number' });
    await age(leadId, 71);
    const res = await returnLead(leadId, { reason: 'disconnected', note: '  Number out of service ' });
    expect(res.statusCode, res.body).toBe(201);
    const made = res.json<Record<string, unknown> & { evidence: { calls: unknown[] } }>();
    expect(made).toMatchObject({
      lead_id: leadId,
      source_id: src.source_id,
      reason: 'disconnected',
      note: 'Number out of service',
      status: 'requested',
      price_cents: 2_500,
      decided_at: null,
      evidence: { dial_attempts: 2, phone: String(phone - 1) },
    });
    expect(made.evidence.calls).toEqual([
      { at: expect.any(String), outcome: 'no_answer' },
      { at: expect.any(String), outcome: 'bad_number' },
    ]);
    const told = await sentToVendor('lead.returned', leadId);
    expect(told).toEqual([expect.objectContaining({ return_id: made.return_id, status: 'requested' })]);
  });

  it('When a lead is returned past the window, then 422 RETURN_WINDOW_CLOSED naming the deadline, and nothing is written', async () => {
    const leadId = await newLead();
    await age(leadId, 73);
    const res = await returnLead(leadId, { reason: 'wrong_number' });
    expect(res.statusCode, res.body).toBe(422);
    expect(res.json()).toMatchObject({
      error_code: 'RETURN_WINDOW_CLOSED',
      details: expect.stringContaining('72 hours'),
    });
    const { rows } = await t.db.query('SELECT 1 FROM lead_returns WHERE lead_id = $1', [leadId]);
    expect(rows).toEqual([]);
  });

  it('When the source takes no returns (window 0), then a return at once is 422 RETURN_WINDOW_CLOSED', async () => {
    const strict = await seedSource(t.db, 'Strict Vendor Agent');
    await setTerms(strict.source_id, { price_cents: 900, return_window_hours: 0 });
    const leadId = await newLead(strict.token);
    const res = await returnLead(leadId, { reason: 'fraud' });
    expect(res.statusCode, res.body).toBe(422);
    expect(res.json()).toMatchObject({
      error_code: 'RETURN_WINDOW_CLOSED',
      details: expect.stringContaining('no returns'),
    });
  });

  it('When a lead is returned twice, then the second is 409 ALREADY_RETURNED and one return stands', async () => {
    const leadId = await newLead();
    const [first, second] = await Promise.all([
      returnLead(leadId, { reason: 'out_of_area' }),
      returnLead(leadId, { reason: 'other' }),
    ]);
    expect([first?.statusCode, second?.statusCode].sort()).toEqual([201, 409]);
    const refused = first?.statusCode === 409 ? first : second;
    expect(refused?.json()).toMatchObject({ error_code: 'ALREADY_RETURNED' });
    const { rows } = await t.db.query('SELECT reason FROM lead_returns WHERE lead_id = $1', [leadId]);
    expect(rows).toHaveLength(1);
  });

  it('When a duplicate is returned, then the evidence names the earlier delivery of the same contact', async () => {
    const second = (
      await adminInject(t.app, 'POST', `/agents/${src.agent_id}/sources`, { name: 'Second vendor' })
    ).json<{ source_id: string; token: string }>();
    const leadId = await newLead();
    await age(leadId, 24);
    const again = await deliver(t.app, second.token, { name: 'Bought Lead', phone: String(phone - 1) });
    expect(again.json()).toMatchObject({ lead_id: leadId });
    const res = await returnLead(leadId, { reason: 'duplicate' });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json()).toMatchObject({
      source_id: second.source_id,
      evidence: {
        dial_attempts: 0,
        calls: [],
        earlier: { source_id: src.source_id, delivered_at: expect.any(String) },
      },
    });
  });

  it('When an agent key returns another agent’s lead, then 404 LEAD_NOT_FOUND, as if missing', async () => {
    const leadId = await newLead();
    const stranger = await seedSource(t.db, 'Stranger Agent');
    const key = (await adminInject(t.app, 'POST', `/agents/${stranger.agent_id}/keys`)).json<{
      key: string;
    }>().key;
    const res = await t.app.inject({
      method: 'POST',
      url: `/v1/admin/leads/${leadId}/returns`,
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      payload: JSON.stringify({ reason: 'fraud' }),
    });
    expect(res.statusCode, res.body).toBe(404);
    expect(res.json()).toMatchObject({ error_code: 'LEAD_NOT_FOUND' });
    expect(res.body).not.toContain('Bought');
  });

  it('When the vendor credits a return, then 200 credited once, told to the vendor; a second answer is 409 RETURN_DECIDED', async () => {
    const leadId = await newLead();
    const made = (await returnLead(leadId, { reason: 'consumer_denies' })).json<{ return_id: string }>();
    const res = await adminInject(t.app, 'PATCH', `/returns/${made.return_id}`, { status: 'credited' });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({
      return_id: made.return_id,
      status: 'credited',
      decided_at: expect.any(String),
    });
    const again = await adminInject(t.app, 'PATCH', `/returns/${made.return_id}`, { status: 'denied' });
    expect(again.statusCode).toBe(409);
    expect(again.json()).toMatchObject({ error_code: 'RETURN_DECIDED' });
    const told = await sentToVendor('lead.returned', leadId);
    expect(told.map((d) => d.status)).toEqual(['requested', 'credited']);
  });

  it.each<[string, unknown, string]>([
    ['no reason', {}, 'reason'],
    ['an unknown reason', { reason: 'bored' }, 'reason'],
    ['a reason that is not text', { reason: 7 }, 'reason'],
    ['a blank note', { reason: 'other', note: '   ' }, 'note'],
    ['a note too long', { reason: 'other', note: 'x'.repeat(2001) }, 'note'],
  ])('When a return has %s, then 400 VALIDATION_ERROR naming the field', async (_label, body, field) => {
    const leadId = await newLead();
    const res = await returnLead(leadId, body);
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json()).toMatchObject({
      error_code: 'VALIDATION_ERROR',
      details: expect.stringContaining(field),
    });
  });

  it.each<[string, string, unknown, number, string]>([
    [
      'an unknown status',
      '0190a000-0000-7000-8000-000000000009',
      { status: 'maybe' },
      400,
      'VALIDATION_ERROR',
    ],
    [
      'requested again',
      '0190a000-0000-7000-8000-000000000009',
      { status: 'requested' },
      400,
      'VALIDATION_ERROR',
    ],
    ['a return id that is not a UUID', 'nope', { status: 'credited' }, 404, 'RETURN_NOT_FOUND'],
    [
      'an unknown return',
      '0190a000-0000-7000-8000-000000000009',
      { status: 'credited' },
      404,
      'RETURN_NOT_FOUND',
    ],
  ])('When a return’s answer is %s, then it is refused', async (_label, id, body, status, code) => {
    const res = await adminInject(t.app, 'PATCH', `/returns/${id}`, body);
    expect(res.statusCode, res.body).toBe(status);
    expect(res.json()).toMatchObject({ error_code: code });
  });

  it('When a lead that is not a UUID or unknown is returned, then 404 LEAD_NOT_FOUND', async () => {
    for (const id of ['nope', '0190a000-0000-7000-8000-000000000009']) {
      const res = await returnLead(id, { reason: 'other' });
      expect(res.statusCode, res.body).toBe(404);
      expect(res.json()).toMatchObject({ error_code: 'LEAD_NOT_FOUND' });
    }
  });
});

describe('sales', () => {
  it('When a sale is recorded, then 201, the lead is Sold with a history line, and the vendor is told lead.sold', async () => {
    const leadId = await newLead();
    const res = await adminInject(t.app, 'POST', `/leads/${leadId}/sales`, {
      premium_cents: 120_000,
      product: ' Term life 20 ',
      sold_at: '2026-11-30T15:00:00Z',
    });
    expect(res.statusCode, res.body).toBe(201);
    const sale = res.json<{ sale_id: string }>();
    expect(sale).toMatchObject({
      lead_id: leadId,
      source_id: src.source_id,
      premium_cents: 120_000,
      product: 'Term life 20',
      sold_at: '2026-11-30T15:00:00.000Z',
      status: 'Sold',
      status_from: 'New',
    });
    const lead = (await adminInject(t.app, 'GET', `/leads/${leadId}`)).json<{
      status: string;
      history: Array<{ event: string; details: Record<string, unknown> }>;
    }>();
    expect(lead.status).toBe('Sold');
    expect(lead.history.find((h) => h.event === 'sold')?.details).toMatchObject({ sale_id: sale.sale_id });
    expect(await sentToVendor('lead.sold', leadId)).toEqual([
      expect.objectContaining({ sale_id: sale.sale_id, premium_cents: 120_000, product: 'Term life 20' }),
    ]);
  });

  it('When a Sold lead is called again, then it stays Sold; set back by hand it becomes Contacted', async () => {
    const leadId = await newLead();
    await adminInject(t.app, 'POST', `/leads/${leadId}/sales`, { premium_cents: 50_000 });
    const call = await adminInject(t.app, 'POST', `/leads/${leadId}/call-outcome`, { outcome: 'bad_number' });
    expect(call.json()).toMatchObject({ status: 'Sold' });
    expect((await adminInject(t.app, 'POST', `/leads/${leadId}/status`, { status: 'Sold' })).statusCode).toBe(
      409,
    );
    const back = await adminInject(t.app, 'POST', `/leads/${leadId}/status`, { status: 'Contacted' });
    expect(back.json()).toMatchObject({ status: 'Contacted', status_from: 'Sold' });
  });

  it.each<[string, unknown, string]>([
    ['no premium', {}, 'premium_cents'],
    ['a negative premium', { premium_cents: -1 }, 'premium_cents'],
    ['a premium in dollars', { premium_cents: 12.5 }, 'premium_cents'],
    ['a premium as text', { premium_cents: '100' }, 'premium_cents'],
    ['a premium too large', { premium_cents: 2 ** 31 }, 'premium_cents'],
    ['a blank product', { premium_cents: 1, product: ' ' }, 'product'],
    ['a sold_at that is no instant', { premium_cents: 1, sold_at: 'yesterday' }, 'sold_at'],
    ['a sold_at in the future', { premium_cents: 1, sold_at: '2999-01-01T00:00:00Z' }, 'sold_at'],
    // Years below 100 were once stored a century off (0050 as 1950): outside the range, refused.
    ['a sold_at in the year 50', { premium_cents: 1, sold_at: '0050-06-01T00:00:00Z' }, 'sold_at'],
    ['a sold_at in the year 1', { premium_cents: 1, sold_at: '0001-01-01T00:00:00Z' }, 'sold_at'],
    ['a sold_at in the year 99', { premium_cents: 1, sold_at: '0099-12-31T23:59:59Z' }, 'sold_at'],
    ['a sold_at before 2000', { premium_cents: 1, sold_at: '1999-12-31T23:59:59Z' }, 'sold_at'],
  ])(
    'When a sale has %s, then 400 VALIDATION_ERROR naming the field, and the lead is as it was',
    async (_label, body, field) => {
      const leadId = await newLead();
      const res = await adminInject(t.app, 'POST', `/leads/${leadId}/sales`, body);
      expect(res.statusCode, res.body).toBe(400);
      expect(res.json()).toMatchObject({
        error_code: 'VALIDATION_ERROR',
        details: expect.stringContaining(field),
      });
      expect((await adminInject(t.app, 'GET', `/leads/${leadId}`)).json()).toMatchObject({ status: 'New' });
    },
  );

  it('When a sale is sold on the first instant of 2000, then it is stored as sent and read back the same', async () => {
    const leadId = await newLead();
    const res = await adminInject(t.app, 'POST', `/leads/${leadId}/sales`, {
      premium_cents: 1,
      sold_at: '2000-01-01T00:00:00Z',
    });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json()).toMatchObject({ sold_at: '2000-01-01T00:00:00.000Z' });
    const read = (await adminInject(t.app, 'GET', `/leads/${leadId}`)).json();
    expect(read.sales).toEqual([expect.objectContaining({ sold_at: '2000-01-01T00:00:00.000Z' })]);
  });

  it('When a sale names another agent’s lead or an unknown one, then 404 LEAD_NOT_FOUND', async () => {
    const res = await adminInject(t.app, 'POST', '/leads/0190a000-0000-7000-8000-000000000009/sales', {
      premium_cents: 1,
    });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toMatchObject({ error_code: 'LEAD_NOT_FOUND' });
  });
});
