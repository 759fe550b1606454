import { createHmac } from 'node:crypto';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { createSmsProvider } from '../src/automations/sms-providers.ts';
import { adminInject, createTestApp, seedSource, type TestApp } from './support/app.ts';
import { testDispatcher } from './support/automations.ts';
import { deliver } from './support/deliver.ts';
import { startReceiver } from './support/receiver.ts';

/** Conversations (docs/conversations.md): every text kept, a thread per lead, the agent's answer, the inbox. */

const SECRET = 'inbound-s3cret';
const TWILIO = { accountSid: 'AC9', authToken: 'tw-conv-token', from: '+15125550000' };
let t: TestApp;
let url: string;
let receiver: Awaited<ReturnType<typeof startReceiver>>;
beforeAll(async () => {
  receiver = await startReceiver((r) => (r.path.includes('/Messages.json') ? 201 : 200));
  t = await createTestApp({
    sms: { provider: 'recorder', inboundSecret: SECRET, twilio: { ...TWILIO, baseUrl: receiver.url } },
  });
  url = await t.app.listen({ port: 0, host: '127.0.0.1' });
});
afterAll(async () => {
  await t.close();
  await receiver.close();
});
afterEach(() => {
  vi.useRealTimers();
});

let n = 0;
/** A fresh agent with a source, its agent key, and a number of its own for the test. */
async function agent(timezone = 'America/Chicago') {
  const src = await seedSource(t.db, `Conversing Agent ${++n}`, timezone);
  const key = (await adminInject(t.app, 'POST', `/agents/${src.agent_id}/keys`)).json().key as string;
  return { ...src, key };
}
const phoneFor = () => `31255507${String(10 + n).padStart(2, '0')}`;

/** A prospect's text through the inbound webhook, as JSON with the shared secret. */
function text(from: string, body: string, extra: Record<string, string> = {}) {
  return t.app.inject({
    method: 'POST',
    url: '/v1/sms/inbound',
    headers: { 'content-type': 'application/json', 'x-sms-secret': SECRET },
    payload: JSON.stringify({ from, body, ...extra }),
  });
}

/** Twilio's signature over the URL it called and its form, sorted. */
function twilioSignature(path: string, params: Record<string, string>): string {
  const data = Object.keys(params)
    .sort()
    .reduce((acc, k) => acc + k + params[k], `http://127.0.0.1:3000${path}`);
  return createHmac('sha1', TWILIO.authToken).update(data).digest('base64');
}

function as(key: string | null, method: 'GET' | 'POST', path: string, body?: unknown) {
  if (key === null) return adminInject(t.app, method, path, body);
  return t.app.inject({
    method,
    url: `/v1/admin${path}`,
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    ...(body === undefined ? {} : { payload: JSON.stringify(body) }),
  });
}
const thread = async (leadId: string, key: string | null = null) =>
  (await as(key, 'GET', `/leads/${leadId}/messages`)).json().messages as Array<Record<string, unknown>>;
const lead = async (token: string, body: Record<string, unknown>) =>
  (await deliver(t.app, token, { state: 'IL', ...body })).json().lead_id as string;
const noon = () => testDispatcher(t.db, [0], { now: () => new Date('2027-01-15T18:00:00Z') });
/** The dispatcher on the real clock: sends what is due now (the agent's answers). */
const nowDispatcher = () => testDispatcher(t.db, [0]);

describe('an inbound text goes to the leads of its number', () => {
  it('When the text names the number it was sent to and an agent sends from it, then it goes to that agent’s leads only', async () => {
    const phone = phoneFor();
    const a = await agent();
    const b = await agent();
    const set = await as(null, 'POST', '/agents', { name: 'unused' }); // another agent, no number
    expect(set.statusCode).toBe(201);
    const patched = await adminInject(t.app, 'PATCH', `/agents/${a.agent_id}`, {
      sms_from: '(512) 555-0101',
    });
    expect(patched.json()).toMatchObject({ sms_from: '+15125550101' });
    const leadA = await lead(a.token, { name: 'To Tom', phone });
    const leadB = await lead(b.token, { name: 'To Tom', phone });
    const res = await text(`+1${phone}`, 'Yes, I am interested', { to: '+15125550101' });
    expect(res.json()).toMatchObject({ received: true, leads: 1, matched_by: 'to', opted_out: false });
    expect(await thread(leadA)).toEqual([
      expect.objectContaining({
        direction: 'inbound',
        body: 'Yes, I am interested',
        by: 'prospect',
        read: false,
      }),
    ]);
    expect(await thread(leadB)).toEqual([]);
  });

  it('When nobody sends from the number it was sent to, then it goes to the agent that texted the number in the last 30 days', async () => {
    const phone = phoneFor();
    const a = await agent();
    const b = await agent();
    const leadA = await lead(a.token, { name: 'Texted Tess', phone });
    const leadB = await lead(b.token, { name: 'Texted Tess', phone, sms_consent: true });
    await noon().runOnce();
    const res = await text(phone, 'Who is this?', { to: '+15125559999' });
    expect(res.json()).toMatchObject({ leads: 1, matched_by: 'texted' });
    expect(await thread(leadA)).toEqual([]);
    expect((await thread(leadB)).map((m) => [m.direction, m.by])).toEqual([
      ['outbound', 'automation'],
      ['inbound', 'prospect'],
    ]);
  });

  it('When no agent texted the number, then it goes to every lead of the number; a number no lead has is kept for the operator', async () => {
    const phone = phoneFor();
    const a = await agent();
    const b = await agent();
    const leads = [
      await lead(a.token, { name: 'Any Ann', phone }),
      await lead(b.token, { name: 'Any Ann', phone }),
    ];
    expect(
      (await text(`(${phone.slice(0, 3)}) ${phone.slice(3, 6)}-${phone.slice(6)}`, 'Hello?')).json(),
    ).toMatchObject({ leads: 2, matched_by: 'number' });
    for (const id of leads) expect((await thread(id)).map((m) => m.body)).toEqual(['Hello?']);

    const stray = await text('+13125550999', 'Is this Bob?');
    expect(stray.json()).toMatchObject({ received: true, leads: 0, matched_by: null });
    const foreign = await text('+44 7911 123456', 'Hello from abroad');
    expect(foreign.statusCode).toBe(200);
    const unmatched = (await adminInject(t.app, 'GET', '/sms/unmatched')).json().messages as Array<{
      body: string;
    }>;
    expect(unmatched.map((m) => m.body)).toEqual(
      expect.arrayContaining(['Is this Bob?', 'Hello from abroad']),
    );
    expect((await as(a.key, 'GET', '/sms/unmatched')).statusCode).toBe(403);
  });

  it('When the same provider message arrives twice, or two texts at the same instant, then each text is stored once and none is lost', async () => {
    const phone = phoneFor();
    const a = await agent();
    const id = await lead(a.token, { name: 'Twice Tina', phone });
    const first = await text(phone, 'Once', { message_sid: 'SM-dup-1' });
    const again = await text(phone, 'Once', { message_sid: 'SM-dup-1' });
    expect(again.json()).toMatchObject({ duplicate: true, message_id: first.json().message_id });
    const both = await Promise.all(
      ['Same instant A', 'Same instant B'].map((body) =>
        fetch(`${url}/v1/sms/inbound`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'x-sms-secret': SECRET },
          body: JSON.stringify({ from: phone, body }),
        }),
      ),
    );
    expect(both.map((r) => r.status)).toEqual([200, 200]);
    expect((await thread(id)).map((m) => m.body).sort()).toEqual([
      'Once',
      'Same instant A',
      'Same instant B',
    ]);
    const { rows } = await t.db.query('SELECT 1 FROM sms_inbound WHERE provider_sid = $1', ['SM-dup-1']);
    expect(rows).toHaveLength(1);
  });

  it('When a text is empty or 10,000 characters, then it is kept: the long one cut with a note', async () => {
    const phone = phoneFor();
    const a = await agent();
    const id = await lead(a.token, { name: 'Long Lou', phone });
    expect((await text(phone, '')).statusCode).toBe(200);
    expect((await text(phone, 'x'.repeat(10_000))).statusCode).toBe(200);
    const bodies = (await thread(id)).map((m) => String(m.body).length);
    expect(bodies).toEqual([0, 5000]);
    const { rows } = await t.db.query<{ truncated: boolean }>(
      `SELECT truncated FROM sms_inbound WHERE phone = $1 ORDER BY received_at, inbound_id`,
      [phone],
    );
    expect(rows.map((r) => r.truncated)).toEqual([false, true]);
  });

  it('When a repeat delivery merged into the lead, then the reply reaches the lead that stands', async () => {
    const phone = phoneFor();
    const a = await agent();
    const first = await lead(a.token, { name: 'Merged Mo', phone });
    const second = await lead(a.token, { name: 'Merged Mo', phone, email: 'mo@example.com' });
    expect(second).toBe(first);
    expect((await text(phone, 'still here')).json()).toMatchObject({ leads: 1 });
    expect((await thread(first)).map((m) => m.body)).toEqual(['still here']);
  });

  it('When Twilio posts its form with a valid signature, then the text is kept and Twilio gets empty TwiML', async () => {
    const phone = phoneFor();
    const a = await agent();
    const id = await lead(a.token, { name: 'Form Fay', phone });
    const params = { From: `+1${phone}`, To: TWILIO.from, Body: 'Call me later', MessageSid: 'SM-form-1' };
    const res = await t.app.inject({
      method: 'POST',
      url: '/v1/sms/inbound',
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        'x-twilio-signature': twilioSignature('/v1/sms/inbound', params),
      },
      payload: new URLSearchParams(params).toString(),
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('text/xml');
    expect(res.body).toContain('<Response></Response>');
    expect((await thread(id)).map((m) => m.body)).toEqual(['Call me later']);
  });

  it('When a text arrives, then lead.replied with the message goes to the lead’s destinations, under its agent', async () => {
    const phone = phoneFor();
    const a = await agent();
    const id = await lead(a.token, { name: 'Event Eve', phone });
    await text(phone, 'Tell your partners');
    const { rows } = await t.db.query<{ agent_id: string; payload: Record<string, unknown> }>(
      `SELECT agent_id, payload FROM outbox WHERE lead_id = $1 AND topic = 'lead.replied'`,
      [id],
    );
    expect(rows).toEqual([
      {
        agent_id: a.agent_id,
        payload: expect.objectContaining({
          lead_id: id,
          source_id: a.source_id,
          intent: 'reply',
          message: expect.objectContaining({ body: 'Tell your partners' }),
        }),
      },
    ]);
  });
});

describe('reading a reply as a person would', () => {
  it('When a prospect booked for tomorrow writes "don’t call me before 5, I work", then it is no opt-out: kept, marked about when to contact, the automatic text held until read', async () => {
    const phone = phoneFor();
    const a = await agent();
    const id = await lead(a.token, { name: 'Worker Will', phone, sms_consent: true });
    const res = await text(phone, "Please don't call me before 5, I work");
    expect(res.json()).toMatchObject({ opted_out: false, intent: 'contact_limits' });
    expect((await as(null, 'GET', `/leads/${id}`)).json()).toMatchObject({ status: 'New' });
    const { rows: outs } = await t.db.query('SELECT 1 FROM sms_opt_outs WHERE phone = $1', [phone]);
    expect(outs).toEqual([]);
    expect((await thread(id)).at(-1)).toMatchObject({ intent: 'contact_limits', read: false });
    // The first text, due now, waits while the reply is unread; reading the thread lets it go.
    await noon().runOnce();
    const status = async () =>
      (
        await t.db.query<{ status: string; error: string | null }>(
          `SELECT status, error FROM sms_messages WHERE lead_id = $1 AND kind = 'lead'`,
          [id],
        )
      ).rows;
    expect(await status()).toEqual([
      { status: 'scheduled', error: 'held: the prospect asked about when to contact' },
    ]);
    expect((await as(a.key, 'POST', `/leads/${id}/messages/read`)).json()).toEqual({
      lead_id: id,
      marked: 1,
    });
    await nowDispatcher().runOnce();
    await noon().runOnce();
    expect((await status())[0]?.status).toBe('sent');
  });

  it('When a prospect writes "stop texting me", then it opts out, and the words are kept in the thread', async () => {
    const phone = phoneFor();
    const a = await agent();
    const id = await lead(a.token, { name: 'Stop Stu', phone });
    expect((await text(phone, 'Stop texting me please')).json()).toMatchObject({
      opted_out: true,
      intent: 'opt_out',
    });
    expect((await thread(id)).map((m) => [m.direction, m.by, m.intent])).toEqual([
      ['inbound', 'prospect', 'opt_out'],
      ['outbound', 'automation', null], // the one confirmation
    ]);
    expect((await thread(id))[0]?.body).toBe('Stop texting me please');
    const { rows } = await t.db.query<{ words: string }>('SELECT words FROM sms_opt_outs WHERE phone = $1', [
      phone,
    ]);
    expect(rows).toEqual([{ words: 'Stop texting me please' }]);
  });

  it('When Twilio’s own opt-out handling says STOP, then the number opts out without a second confirmation', async () => {
    const phone = phoneFor();
    const a = await agent();
    await lead(a.token, { name: 'Twilio Ty', phone });
    const res = await text(phone, 'Stopp', { OptOutType: 'STOP' });
    expect(res.json()).toMatchObject({ opted_out: true });
    const { rows } = await t.db.query(
      `SELECT 1 FROM sms_messages WHERE to_phone = $1 AND kind = 'opt_out_confirmation'`,
      [phone],
    );
    expect(rows).toEqual([]);
  });
});

describe('the agent answers from the thread', () => {
  it('When the agent answers, then 201 scheduled, the dispatcher sends it through the provider, and the thread shows it sent by the agent', async () => {
    const phone = phoneFor();
    const a = await agent();
    const id = await lead(a.token, { name: 'Answer Abe', phone });
    await text(phone, 'What does it cost?');
    const res = await as(a.key, 'POST', `/leads/${id}/messages`, {
      body: '  About $40 a month. Can I call you?  ',
    });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json()).toEqual({
      message_id: expect.any(String),
      direction: 'outbound',
      status: 'scheduled',
    });
    expect((await thread(id)).at(-2)).toMatchObject({ read: true }); // answering reads the thread
    await nowDispatcher().runOnce();
    expect((await thread(id, a.key)).at(-1)).toMatchObject({
      message_id: res.json().message_id,
      direction: 'outbound',
      body: 'About $40 a month. Can I call you?',
      status: 'sent',
      by: 'agent',
    });
  });

  it('When the number opted out, is do not contact, the lead has no phone, or the body is empty or too long, then the answer is refused and nothing is written', async () => {
    const a = await agent();
    const stopped = phoneFor();
    const stoppedLead = await lead(a.token, { name: 'Opted Otto', phone: stopped });
    await text(stopped, 'STOP');
    const dnc = await lead(a.token, { name: 'Dnc Dot', phone: phoneFor() });
    await as(a.key, 'POST', `/leads/${dnc}/do-not-contact`);
    const phoneless = await lead(a.token, { name: 'Phoneless Pam', email: 'pam@example.com' });
    const ok = await lead(a.token, { name: 'Fine Fred', phone: phoneFor() });
    const cases: Array<[string, unknown, number, string]> = [
      [stoppedLead, { body: 'Hi' }, 409, 'CONTACT_OPTED_OUT'],
      [dnc, { body: 'Hi' }, 409, 'CONTACT_OPTED_OUT'],
      [phoneless, { body: 'Hi' }, 422, 'LEAD_HAS_NO_PHONE'],
      [ok, { body: '   ' }, 400, 'VALIDATION_ERROR'],
      [ok, { body: 'x'.repeat(1601) }, 400, 'VALIDATION_ERROR'],
      [ok, {}, 400, 'VALIDATION_ERROR'],
    ];
    for (const [id, body, status, code] of cases) {
      const res = await as(a.key, 'POST', `/leads/${id}/messages`, body);
      expect(res.statusCode, res.body).toBe(status);
      expect(res.json()).toMatchObject({ error_code: code });
    }
    const { rows } = await t.db.query(`SELECT 1 FROM sms_messages WHERE agent_id = $1 AND kind = 'agent'`, [
      a.agent_id,
    ]);
    expect(rows).toEqual([]);
  });

  it('When it is night where the prospect is, then an answer is 422 saying when texts may go, unless the prospect wrote within 24 hours', async () => {
    vi.useFakeTimers({ now: new Date('2027-01-15T08:00:00Z'), toFake: ['Date'] }); // 2 a.m. in Chicago
    const a = await agent();
    const quiet = await lead(a.token, { name: 'Night Nell', phone: phoneFor() });
    const night = await as(a.key, 'POST', `/leads/${quiet}/messages`, { body: 'Hello' });
    expect(night.statusCode, night.body).toBe(422);
    expect(night.json()).toMatchObject({
      error_code: 'OUTSIDE_CALLING_HOURS',
      details: expect.stringContaining('2027-01-15T14:00:00.000Z'),
    });
    const phone = phoneFor();
    const wrote = await lead(a.token, { name: 'Owl Olga', phone });
    await text(phone, 'Are you still up?');
    expect((await as(a.key, 'POST', `/leads/${wrote}/messages`, { body: 'Yes, ask away' })).statusCode).toBe(
      201,
    );
  });

  it('When another agent’s key reads, answers or marks a lead’s thread, then 404 LEAD_NOT_FOUND and nothing is written', async () => {
    const a = await agent();
    const b = await agent();
    const phone = phoneFor();
    const id = await lead(a.token, { name: 'Private Pia', phone });
    await text(phone, 'for Alice only');
    for (const [method, path, body] of [
      ['GET', `/leads/${id}/messages`, undefined],
      ['POST', `/leads/${id}/messages`, { body: 'intruding' }],
      ['POST', `/leads/${id}/messages/read`, undefined],
    ] as const) {
      const res = await as(b.key, method, path, body);
      expect(res.statusCode).toBe(404);
      expect(res.json()).toMatchObject({ error_code: 'LEAD_NOT_FOUND' });
    }
    expect((await thread(id)).map((m) => [m.body, m.read])).toEqual([['for Alice only', false]]);
    expect((await as(b.key, 'GET', `/agents/${a.agent_id}/conversations`)).statusCode).toBe(404);
  });
});

describe('the inbox', () => {
  it('When replies arrive on several leads, then the inbox lists unread threads first, then the newest, and reading one moves it down', async () => {
    const a = await agent();
    const [p1, p2, p3] = [phoneFor(), `${phoneFor().slice(0, 8)}91`, `${phoneFor().slice(0, 8)}92`];
    const first = await lead(a.token, { name: 'First Flo', phone: p1 });
    const second = await lead(a.token, { name: 'Second Sid', phone: p2 });
    await lead(a.token, { name: 'Silent Sal', phone: p3 });
    await text(p1, 'one');
    await text(p2, 'two');
    await as(a.key, 'POST', `/leads/${second}/messages/read`);
    const inbox = (await as(a.key, 'GET', `/agents/${a.agent_id}/conversations`)).json();
    expect(inbox.unread).toBe(1);
    expect(inbox.conversations).toEqual([
      {
        lead_id: first,
        name: 'First Flo',
        phone: p1,
        unread: 1,
        last_message: expect.objectContaining({ body: 'one', direction: 'inbound' }),
      },
      {
        lead_id: second,
        name: 'Second Sid',
        phone: p2,
        unread: 0,
        last_message: expect.objectContaining({ body: 'two' }),
      },
    ]);
  });
});

describe('Twilio: the sending number and the status of each text', () => {
  it('When an agent has a sending number, then Twilio gets it as From with a signed status address, and its callbacks move the text along', async () => {
    const a = await agent();
    await adminInject(t.app, 'PATCH', `/agents/${a.agent_id}`, { sms_from: '+1 512 555 0177' });
    const phone = phoneFor();
    const id = await lead(a.token, { name: 'Status Sue', phone, sms_consent: true });
    const twilio = createSmsProvider({
      provider: 'twilio',
      twilio: { ...TWILIO, baseUrl: receiver.url, statusCallbackUrl: 'http://127.0.0.1:3000/v1/sms/status' },
      timeoutMs: 5_000,
    });
    await testDispatcher(t.db, [0], { now: () => new Date('2027-01-15T18:00:00Z'), sms: twilio }).runOnce();
    const call = receiver.received.find((r) => r.path.includes('/Messages.json') && r.body.includes(phone));
    const form = new URLSearchParams(call?.body);
    expect(form.get('From')).toBe('+15125550177');
    const { rows } = await t.db.query<{ sms_id: string }>(
      'SELECT sms_id FROM sms_messages WHERE lead_id = $1',
      [id],
    );
    const smsId = rows[0]?.sms_id ?? '';
    const callback = `/v1/sms/status?agent=${a.agent_id}&sms=${smsId}`;
    expect(form.get('StatusCallback')).toBe(`http://127.0.0.1:3000${callback}`);

    const post = (params: Record<string, string>, signature = twilioSignature(callback, params)) =>
      t.app.inject({
        method: 'POST',
        url: callback,
        headers: { 'content-type': 'application/x-www-form-urlencoded', 'x-twilio-signature': signature },
        payload: new URLSearchParams(params).toString(),
      });
    expect(
      (await post({ MessageSid: 'SM1', MessageStatus: 'undelivered', ErrorCode: '30007' })).json(),
    ).toEqual({
      received: true,
      updated: true,
    });
    // Out of order: a late "sent" does not take it back.
    expect((await post({ MessageSid: 'SM1', MessageStatus: 'sent' })).json()).toMatchObject({
      updated: false,
    });
    expect((await post({ MessageSid: 'SM1', MessageStatus: 'delivered' }, 'forged')).statusCode).toBe(401);
    expect((await thread(id)).at(-1)).toMatchObject({ status: 'undelivered', error: '30007' });
  });

  it('When an agent key sets its own sending number, then 403; the operator’s duplicate is 409 and a bad one 400', async () => {
    const a = await agent();
    const b = await agent();
    expect(
      (
        await t.app.inject({
          method: 'PATCH',
          url: `/v1/admin/agents/${a.agent_id}`,
          headers: { authorization: `Bearer ${a.key}`, 'content-type': 'application/json' },
          payload: JSON.stringify({ sms_from: '+15125550188' }),
        })
      ).statusCode,
    ).toBe(403);
    expect(
      (await adminInject(t.app, 'PATCH', `/agents/${a.agent_id}`, { sms_from: '5125550188' })).statusCode,
    ).toBe(200);
    const taken = await adminInject(t.app, 'PATCH', `/agents/${b.agent_id}`, { sms_from: '(512) 555-0188' });
    expect(taken.statusCode).toBe(409);
    expect(taken.json()).toMatchObject({ error_code: 'SMS_FROM_TAKEN' });
    const bad = await adminInject(t.app, 'PATCH', `/agents/${b.agent_id}`, { sms_from: 'call me' });
    expect(bad.json()).toMatchObject({
      error_code: 'VALIDATION_ERROR',
      details: expect.stringContaining('sms_from'),
    });
    expect(
      (await adminInject(t.app, 'PATCH', `/agents/${a.agent_id}`, { sms_from: null })).json(),
    ).toMatchObject({
      sms_from: null,
    });
  });
});
