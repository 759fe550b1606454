import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminInject, createTestApp, type TestApp } from './support/app.ts';
import { agentWithLogin, CONSOLE_PASSWORD, ConsoleClient } from './support/console-client.ts';
import { deliver } from './support/deliver.ts';

/**
 * A lead's returns and sales on its read (docs/economics.md), on the suite's database: listed as
 * their own routes answer them, oldest first, `[]` when none; the vendor's answer shows once
 * recorded; another agent's key still gets 404; the console's lead page shows them.
 */
let t: TestApp;
let agent: Awaited<ReturnType<typeof agentWithLogin>>;
let phone = 3125550900;

beforeAll(async () => {
  t = await createTestApp();
  agent = await agentWithLogin(t.app, 'Rhonda Returns', 'America/New_York');
  const terms = { price_cents: 4_000, return_window_hours: 72 };
  expect((await adminInject(t.app, 'PATCH', `/sources/${agent.source_id}`, terms)).statusCode).toBe(200);
});
afterAll(() => t.close());

type Json = Record<string, unknown>;

async function newLead() {
  const res = await deliver(t.app, agent.token, { name: 'Booked Lead', phone: String(phone++), state: 'OH' });
  expect(res.statusCode, res.body).toBe(200);
  return res.json<{ lead_id: string }>().lead_id;
}

async function read(leadId: string) {
  const res = await adminInject(t.app, 'GET', `/leads/${leadId}`);
  expect(res.statusCode, res.body).toBe(200);
  return res.json<{ returns: Json[]; sales: Json[] }>();
}

async function sell(leadId: string, body: Json) {
  const res = await adminInject(t.app, 'POST', `/leads/${leadId}/sales`, body);
  expect(res.statusCode, res.body).toBe(201);
  // The read lists the sale as kept; what it did to the lead's status is the lead's own.
  const { status: _status, status_from: _from, ...sale } = res.json<Json>();
  return sale;
}

/** A lead returned (the return's answer), then credited (its answer), and sold twice. */
async function leadWithBooks() {
  const leadId = await newLead();
  await adminInject(t.app, 'POST', `/leads/${leadId}/call-outcome`, { outcome: 'bad_number' });
  const asked = await adminInject(t.app, 'POST', `/leads/${leadId}/returns`, {
    reason: 'disconnected',
    note: 'Number out of service',
  });
  expect(asked.statusCode, asked.body).toBe(201);
  return { leadId, asked: asked.json<Json>() };
}

describe('the lead’s read: returns and sales', () => {
  it('When a lead has neither, then both are []', async () => {
    const lead = await read(await newLead());
    expect(lead.returns).toEqual([]);
    expect(lead.sales).toEqual([]);
  });

  it('When a lead is returned, then the read lists the return as requested; once credited, as credited with when', async () => {
    const { leadId, asked } = await leadWithBooks();
    expect((await read(leadId)).returns).toEqual([asked]);
    expect(asked).toMatchObject({
      source_id: agent.source_id,
      reason: 'disconnected',
      note: 'Number out of service',
      status: 'requested',
      price_cents: 4_000,
      decided_at: null,
      evidence: { dial_attempts: 1 },
    });

    const credited = await adminInject(t.app, 'PATCH', `/returns/${String(asked.return_id)}`, {
      status: 'credited',
    });
    expect(credited.statusCode, credited.body).toBe(200);
    const returns = (await read(leadId)).returns;
    expect(returns).toEqual([credited.json()]);
    expect(returns[0]).toMatchObject({ status: 'credited', decided_at: expect.any(String) });
  });

  it('When a lead is sold twice, then the read lists both as recorded, in the order sold', async () => {
    const leadId = await newLead();
    const later = await sell(leadId, {
      premium_cents: 120_000,
      product: 'Medicare Supplement',
      sold_at: '2026-11-21T15:00:00Z',
    });
    const earlier = await sell(leadId, { premium_cents: 30_050, sold_at: '2026-11-20T15:00:00Z' });
    const sales = (await read(leadId)).sales;
    expect(sales).toEqual([earlier, later]);
    expect(sales[1]).toEqual({
      sale_id: expect.any(String),
      lead_id: leadId,
      source_id: agent.source_id,
      premium_cents: 120_000,
      product: 'Medicare Supplement',
      sold_at: '2026-11-21T15:00:00.000Z',
      created_at: expect.any(String),
    });
  });

  it('When an agent key reads its own lead, then it sees the books; another agent’s key gets 404 LEAD_NOT_FOUND, as before', async () => {
    const { leadId, asked } = await leadWithBooks();
    await sell(leadId, { premium_cents: 99_900 });
    const keyOf = async (agentId: string) =>
      (await adminInject(t.app, 'POST', `/agents/${agentId}/keys`)).json<{ key: string }>().key;
    const get = (key: string) =>
      t.app.inject({
        method: 'GET',
        url: `/v1/admin/leads/${leadId}`,
        headers: { authorization: `Bearer ${key}` },
      });

    const own = await get(await keyOf(agent.agent_id));
    expect(own.statusCode, own.body).toBe(200);
    expect(own.json()).toMatchObject({ returns: [asked], sales: [{ premium_cents: 99_900 }] });

    const stranger = await agentWithLogin(t.app, 'Stan Stranger');
    const res = await get(await keyOf(stranger.agent_id));
    expect(res.statusCode, res.body).toBe(404);
    expect(res.json()).toMatchObject({ error_code: 'LEAD_NOT_FOUND' });
    expect(res.body).not.toContain('Number out of service');
  });
});

describe('the console’s lead page: returns and sales', () => {
  it('When the lead was returned, credited and sold, then its page shows the return’s status and evidence and the sale’s premium as money', async () => {
    const { leadId, asked } = await leadWithBooks();
    await adminInject(t.app, 'PATCH', `/returns/${String(asked.return_id)}`, { status: 'credited' });
    await sell(leadId, { premium_cents: 120_000, product: 'Medicare Supplement' });
    const b = new ConsoleClient(t.app);
    await b.login(agent.email, CONSOLE_PASSWORD);
    const page = (await b.get(`/console/leads/${leadId}`)).body;

    const returns = page.slice(page.indexOf('id="returns-h"'), page.indexOf('id="sales-h"'));
    expect(returns).toContain('$40.00');
    expect(returns).toContain('Disconnected number');
    expect(returns).toContain('<span class="status ok">credited</span>');
    expect(returns).toContain('Number out of service');
    expect(returns).toContain('&quot;dial_attempts&quot;: 1');
    const sales = page.slice(page.indexOf('id="sales-h"'), page.indexOf('id="hist-h"'));
    expect(sales).toMatch(/\$1,200\.00\s+premium · Medicare Supplement/);
  });

  it('When the lead has neither, then the page says so under each heading', async () => {
    const b = new ConsoleClient(t.app);
    await b.login(agent.email, CONSOLE_PASSWORD);
    const page = (await b.get(`/console/leads/${await newLead()}`)).body;
    expect(page).toContain('None: this lead was not returned to a vendor.');
    expect(page).toMatch(/id="sales-h">Sales<\/h2>\s*<p class="empty">None recorded.<\/p>/);
  });
});
