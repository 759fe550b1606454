import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addDestination, adminInject, createTestApp, seedSource, type TestApp } from './support/app.ts';
import { testDispatcher } from './support/automations.ts';
import { deliver } from './support/deliver.ts';
import { startReceiver } from './support/receiver.ts';

/**
 * An agent's actions on a lead through the admin API (docs/admin-api.md, "Acting on a lead"), on
 * the suite's database: each writes its history line and one `lead.updated` with `action`, in one
 * transaction; a refused one writes nothing; none greets the lead again with a call or a text.
 */
let t: TestApp;
let receiver: Awaited<ReturnType<typeof startReceiver>>;
let src: Awaited<ReturnType<typeof seedSource>>;
let phone = 3125550600;
// Noon in Chicago; 23:00 there is outside the calling hours, so a first text waits for the morning.
const NOON = new Date('2027-01-15T18:00:00Z');
const NIGHT = new Date('2027-01-16T05:00:00Z');

beforeAll(async () => {
  t = await createTestApp();
  receiver = await startReceiver();
  src = await seedSource(t.db, 'Acting Agent');
  expect((await addDestination(t.app, src.source_id, { url: `${receiver.url}/crm` })).statusCode).toBe(201);
});
afterAll(async () => {
  await receiver.close();
  await t.close();
});

async function newLead(extra: Record<string, unknown> = {}): Promise<{ lead_id: string; phone: string }> {
  const number = String(phone++);
  const res = await deliver(t.app, src.token, { name: 'Acted Upon', phone: number, state: 'IL', ...extra });
  expect(res.statusCode, res.body).toBe(200);
  return { lead_id: res.json<{ lead_id: string }>().lead_id, phone: number };
}

const act = (leadId: string, action: string, body?: unknown) =>
  adminInject(t.app, 'POST', `/leads/${leadId}/${action}`, body);

async function history(leadId: string) {
  return (await adminInject(t.app, 'GET', `/leads/${leadId}`)).json<{
    status: string;
    history: Array<{ event: string; changes: unknown; details: unknown }>;
  }>();
}

async function messages(leadId: string) {
  const { rows } = await t.db.query<{ topic: string; payload: Record<string, unknown> }>(
    `SELECT topic, payload FROM outbox WHERE lead_id = $1 AND topic = 'lead.updated' ORDER BY seq`,
    [leadId],
  );
  return rows;
}

describe('changing a lead’s status', () => {
  it('When a New lead is set to Contacted, then it is, with a history line and one lead.updated saying so', async () => {
    const { lead_id } = await newLead();
    const res = await act(lead_id, 'status', { status: 'Contacted' });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ lead_id, status: 'Contacted', status_from: 'New' });
    const after = await history(lead_id);
    expect(after.status).toBe('Contacted');
    expect(after.history.at(-1)).toMatchObject({
      event: 'status_changed',
      changes: { status: { from: 'New', to: 'Contacted' } },
    });
    const [message] = await messages(lead_id);
    expect(message?.payload).toEqual({
      lead_id,
      source_id: src.source_id,
      status: 'Contacted',
      status_from: 'New',
      changed_fields: ['status'],
      appointment_id: null,
      scheduled_at: null,
      action: { kind: 'status' },
    });
  });

  it('When a Scheduled lead is set to Contacted, then it is 409 STATUS_NOT_ALLOWED naming the allowed ones, and nothing is written', async () => {
    const { lead_id } = await newLead({ appointment_date: '2027-03-15', appointment_time: '10:00 AM' });
    const before = await history(lead_id);
    const res = await act(lead_id, 'status', { status: 'Contacted' });
    expect(res.statusCode).toBe(409);
    expect(res.json()).toMatchObject({
      error_code: 'STATUS_NOT_ALLOWED',
      details: expect.stringContaining('Not interested, Bad number'),
    });
    expect(await history(lead_id)).toEqual(before);
    expect(await messages(lead_id)).toEqual([]);
  });

  it('When a Scheduled lead is closed as Not interested, then its message names the appointment it still has', async () => {
    const { lead_id } = await newLead({ appointment_date: '2027-03-15', appointment_time: '10:00 AM' });
    expect((await act(lead_id, 'status', { status: 'Not interested' })).statusCode).toBe(200);
    const [message] = await messages(lead_id);
    expect(message?.payload).toMatchObject({
      status_from: 'Scheduled',
      status: 'Not interested',
      appointment_id: expect.any(String),
      scheduled_at: '2027-03-15T15:00:00.000Z',
    });
  });

  it.each([
    [{ status: 'Closed' }, 'status'],
    [{}, 'status'],
    [{ status: 'Contacted' }, 'notes'],
    [{ note: '   ' }, 'notes'],
    [{ note: 'x'.repeat(2001) }, 'notes'],
    [{ outcome: 'voicemail' }, 'call-outcome'],
  ])('When %j is sent to %s, then it is 400 VALIDATION_ERROR, never a 500', async (body, action) => {
    const { lead_id } = await newLead();
    const res = await act(lead_id, action, body);
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json()).toMatchObject({ error_code: 'VALIDATION_ERROR' });
  });

  it('When Sold is set by hand, then it is 409 STATUS_NOT_ALLOWED: a sale is recorded with its premium', async () => {
    const { lead_id } = await newLead();
    const res = await act(lead_id, 'status', { status: 'Sold' });
    expect(res.statusCode, res.body).toBe(409);
    expect(res.json()).toMatchObject({ error_code: 'STATUS_NOT_ALLOWED' });
  });

  it('When the lead does not exist or the id is not one, then it is 404 LEAD_NOT_FOUND', async () => {
    for (const id of ['00000000-0000-4000-8000-000000000000', 'not-a-lead']) {
      const res = await act(id, 'notes', { note: 'hello' });
      expect(res.statusCode).toBe(404);
      expect(res.json()).toMatchObject({ error_code: 'LEAD_NOT_FOUND' });
    }
  });
});

describe('notes and calls', () => {
  it('When a note is added, then the history keeps it and lead.updated carries it, the status unchanged', async () => {
    const { lead_id } = await newLead();
    const res = await act(lead_id, 'notes', { note: '  Prefers mornings; spouse decides.  ' });
    expect(res.json()).toEqual({ lead_id, status: 'New', status_from: 'New' });
    expect((await history(lead_id)).history.at(-1)).toMatchObject({
      event: 'note',
      details: { note: 'Prefers mornings; spouse decides.' },
    });
    expect((await messages(lead_id))[0]?.payload).toMatchObject({
      changed_fields: [],
      action: { kind: 'note', note: 'Prefers mornings; spouse decides.' },
    });
  });

  it('When a call is recorded on a lead with a call task, then the task is done, the lead Contacted, and the message says the outcome', async () => {
    const { lead_id } = await newLead();
    await testDispatcher(t.db, undefined, { now: () => NOON }).runOnce();
    const queue = async () =>
      (await adminInject(t.app, 'GET', `/agents/${src.agent_id}/dial-queue`))
        .json<{ tasks: Array<{ lead_id: string }> }>()
        .tasks.map((x) => x.lead_id);
    expect(await queue()).toContain(lead_id);
    const res = await act(lead_id, 'call-outcome', { outcome: 'reached' });
    expect(res.json()).toEqual({ lead_id, status: 'Contacted', status_from: 'New' });
    expect(await queue()).not.toContain(lead_id);
    expect((await history(lead_id)).history.at(-1)).toMatchObject({
      event: 'call_outcome',
      details: { outcome: 'reached', calls: 1 },
    });
    expect((await messages(lead_id))[0]?.payload).toMatchObject({
      changed_fields: ['status'],
      action: { kind: 'call_outcome', outcome: 'reached' },
    });
  });

  it('When a call is recorded from the dial queue, then it writes the same lead.updated', async () => {
    const { lead_id } = await newLead();
    await testDispatcher(t.db, undefined, { now: () => NOON }).runOnce();
    const tasks = (await adminInject(t.app, 'GET', `/agents/${src.agent_id}/dial-queue`)).json<{
      tasks: Array<{ task_id: string; lead_id: string }>;
    }>().tasks;
    const task = tasks.find((x) => x.lead_id === lead_id);
    const res = await adminInject(
      t.app,
      'POST',
      `/agents/${src.agent_id}/dial-queue/${task?.task_id}/outcome`,
      {
        outcome: 'not_interested',
      },
    );
    expect(res.json()).toMatchObject({ task_id: task?.task_id, lead_status: 'Not interested' });
    expect((await messages(lead_id)).map((m) => m.payload.action)).toEqual([
      { kind: 'call_outcome', outcome: 'not_interested' },
    ]);
  });
});

describe('do not contact', () => {
  it('When a lead is marked do not contact, then its waiting text is suppressed, its call task blocked, and nothing new is sent to its number', async () => {
    const { lead_id, phone: number } = await newLead({ sms_consent: true });
    // At night there: the call task is made, the first text waits for 8 a.m.
    await testDispatcher(t.db, undefined, { now: () => NIGHT }).runOnce();
    const texts = () =>
      t.db.query<{ status: string; error: string | null }>(
        'SELECT status, error FROM sms_messages WHERE agent_id = $1 AND to_phone = $2',
        [src.agent_id, number],
      );
    expect((await texts()).rows).toEqual([{ status: 'scheduled', error: null }]); // due at 8 a.m. there

    const res = await act(lead_id, 'do-not-contact');
    expect(res.statusCode, res.body).toBe(200);
    expect((await texts()).rows).toEqual([{ status: 'suppressed', error: 'do not contact' }]);
    const { rows: tasks } = await t.db.query<{ status: string }>(
      'SELECT status FROM dial_tasks WHERE lead_id = $1',
      [lead_id],
    );
    expect(tasks).toEqual([{ status: 'blocked' }]);
    expect((await history(lead_id)).history.at(-1)).toMatchObject({
      event: 'do_not_contact',
      details: { phone: number, texts_suppressed: 1, calls_closed: 1 },
    });

    // The action's own lead.updated goes to the CRM, and greets nobody; nor does a resend.
    await deliver(t.app, src.token, { name: 'Acted Upon', phone: number, sms_consent: true });
    const dispatcher = testDispatcher(t.db, undefined, { now: () => new Date('2027-01-17T18:00:00Z') });
    await dispatcher.runOnce();
    await dispatcher.runOnce();
    expect((await texts()).rows).toEqual([{ status: 'suppressed', error: 'do not contact' }]);
    const queue = (await adminInject(t.app, 'GET', `/agents/${src.agent_id}/dial-queue`)).json<{
      tasks: Array<{ lead_id: string }>;
    }>();
    expect(queue.tasks.map((x) => x.lead_id)).not.toContain(lead_id);
    const crm = receiver.received.filter(
      (r) => r.body.includes(lead_id) && r.body.includes('do_not_contact'),
    );
    expect(crm).toHaveLength(1);
    expect(JSON.parse(crm[0]?.body ?? '{}')).toMatchObject({
      type: 'lead.updated',
      data: { action: { kind: 'do_not_contact' } },
    });
  });

  it('When an open call task exists for a number marked elsewhere, then the dial queue leaves that number out', async () => {
    const first = await newLead();
    await testDispatcher(t.db, undefined, { now: () => NOON }).runOnce();
    await t.db.query(
      `INSERT INTO sms_opt_outs (agent_id, phone, keyword) VALUES ($1, $2, 'DO NOT CONTACT')`,
      [src.agent_id, first.phone],
    );
    const queue = (await adminInject(t.app, 'GET', `/agents/${src.agent_id}/dial-queue`)).json<{
      tasks: Array<{ lead_id: string }>;
    }>();
    expect(queue.tasks.map((x) => x.lead_id)).not.toContain(first.lead_id);
  });
});
