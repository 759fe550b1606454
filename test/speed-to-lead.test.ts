import { createHmac } from 'node:crypto';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { fanOut } from '../src/automations/fan-out.ts';
import { createSmsProvider, type SmsProvider } from '../src/automations/sms-providers.ts';
import type { HandedText } from '../src/automations/sms-repository.ts';
import { adminInject, createTestApp, seedSource, type TestApp } from './support/app.ts';
import { heldSmsProvider, testDispatcher, textRound } from './support/automations.ts';
import { deliver } from './support/deliver.ts';
import { startReceiver } from './support/receiver.ts';
import { until } from './support/until.ts';

const SECRET = 'inbound-s3cret';
const TWILIO = { accountSid: 'AC123', authToken: 'tw-token', from: '+15125550000' };
let t: TestApp;
let receiver: Awaited<ReturnType<typeof startReceiver>>;
beforeAll(async () => {
  receiver = await startReceiver((r) => (r.path.includes('/Messages.json') ? 201 : 200));
  t = await createTestApp({
    sms: { provider: 'twilio', inboundSecret: SECRET, twilio: { ...TWILIO, baseUrl: receiver.url } },
  });
});
afterAll(async () => {
  await t.close();
  await receiver.close();
});

/** A dispatcher whose clock reads `at`, sending texts through `sms` (the recorder by default). */
const dispatcherAt = (at: string | Date, sms?: SmsProvider) =>
  testDispatcher(t.db, [0], { now: () => new Date(at), ...(sms ? { sms } : {}) });
const admin = (url: string) => adminInject(t.app, 'GET', url);
async function texts(leadId: string) {
  const { rows } = await t.db.query<{ status: string; send_at: Date; body: string; provider: string | null }>(
    "SELECT status, send_at, body, provider FROM sms_messages WHERE lead_id = $1 AND kind = 'lead' ORDER BY created_at",
    [leadId],
  );
  return rows.map((r) => ({ ...r, send_at: new Date(r.send_at).toISOString() }));
}
async function history(leadId: string) {
  return (await admin(`/leads/${leadId}`)).json().history as Array<{
    event: string;
    details: Record<string, unknown>;
  }>;
}

let n = 0;
const source = () => seedSource(t.db, `Speedy Agent ${++n}`, 'America/Chicago');

describe('speed to lead: call tasks', () => {
  it('When a new lead has a phone, then a call task is in the dial queue with the lead’s local time; without a phone, none', async () => {
    const src = await source();
    const withPhone = await deliver(t.app, src.token, {
      name: 'Dial Dana',
      phone: '(212) 555-0101',
      zipcode: '10001',
    });
    await deliver(t.app, src.token, { name: 'No Phone Ned', email: 'ned@example.com' });
    await dispatcherAt('2027-01-15T15:00:00Z').runOnce();
    const tasks = (await admin(`/agents/${src.agent_id}/dial-queue`)).json().tasks;
    expect(tasks).toEqual([
      expect.objectContaining({
        lead_id: withPhone.json().lead_id,
        name: 'Dial Dana',
        phone: '2125550101',
        timezone: 'America/New_York',
        status: 'open',
      }),
    ]);
    expect(tasks[0].local_time).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}$/);
  });
});

describe('speed to lead: consent evidence on the lead', () => {
  it('When deliveries state consent, then the lead keeps the latest with its certificate, IP, user agent, source and time; one that does not state it changes nothing', async () => {
    const src = await source();
    const contact = { name: 'Evidence Eve', phone: '3125550130' };
    const leadId = (
      await deliver(t.app, src.token, {
        ...contact,
        sms_opt_in: 'yes',
        consent_cert_url: 'https://cert.trustedform.com/0123abcd',
        ip_address: '203.0.113.7',
        user_agent: 'Mozilla/5.0 (iPhone)',
      })
    ).json().lead_id as string;
    const consent = async () => (await admin(`/leads/${leadId}`)).json().consent;
    const first = await consent();
    expect(first).toEqual({
      sms_consent: true,
      consent_cert_url: 'https://cert.trustedform.com/0123abcd',
      consent_token: null,
      ip_address: '203.0.113.7',
      user_agent: 'Mozilla/5.0 (iPhone)',
      source_id: src.source_id,
      received_at: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/),
    });

    await deliver(t.app, src.token, { ...contact, city: 'Chicago' });
    expect(await consent()).toEqual(first);

    await deliver(t.app, src.token, { ...contact, sms_consent: false, ip_address: '198.51.100.9' });
    expect(await consent()).toMatchObject({
      sms_consent: false,
      consent_cert_url: null,
      ip_address: '198.51.100.9',
      user_agent: null,
    });
  });

  it('When a lead never stated consent, then its consent is null', async () => {
    const src = await source();
    const res = await deliver(t.app, src.token, { name: 'Silent Sam', phone: '3125550131' });
    expect((await admin(`/leads/${res.json().lead_id}`)).json().consent).toBeNull();
  });
});

describe('speed to lead: the first text', () => {
  it('When the lead has no SMS consent, then no text is sent', async () => {
    const src = await source();
    const res = await deliver(t.app, src.token, { name: 'No Consent', phone: '3125550102', state: 'IL' });
    await dispatcherAt('2027-01-15T18:00:00Z').runOnce();
    expect(await texts(res.json().lead_id)).toEqual([]);
  });

  it('When the lead consents and it is daytime there, then the text goes out at once with the agent’s name and the prospect’s first name, and is in the history', async () => {
    const src = await source();
    const res = await deliver(t.app, src.token, {
      first_name: 'Sally',
      last_name: 'Text',
      phone: '3125550103',
      state: 'IL',
      sms_consent: true,
    });
    await dispatcherAt('2027-01-15T18:00:00Z').runOnce(); // noon in Chicago
    const [text] = await texts(res.json().lead_id);
    expect(text).toMatchObject({ status: 'sent', provider: 'recorder', send_at: '2027-01-15T18:00:00.000Z' });
    expect(text?.body).toContain('Hi Sally');
    expect(text?.body).toContain(`Speedy Agent ${n}`);
    expect((await history(res.json().lead_id)).map((h) => h.event)).toContain('sms_sent');
  });

  it('When the lead has an appointment, then the text names its time in the prospect’s zone', async () => {
    const src = await source();
    const res = await deliver(t.app, src.token, {
      first_name: 'Andy',
      phone: '3125550104',
      state: 'IL',
      sms_consent: 'yes',
      scheduled_at: '2027-01-20T21:30:00Z',
    });
    await dispatcherAt('2027-01-15T18:00:00Z').runOnce();
    expect((await texts(res.json().lead_id))[0]?.body).toContain('Wed, Jan 20, 3:30 PM CST');
  });

  it('When it is night where the prospect lives, then the text waits for 8:00 there and is not sent before', async () => {
    const src = await source();
    const res = await deliver(t.app, src.token, {
      name: 'Night Nora',
      phone: '3125550105',
      state: 'IL',
      sms_consent: true,
    });
    await dispatcherAt('2027-01-16T04:30:00Z').runOnce(); // 22:30 in Chicago
    expect(await texts(res.json().lead_id)).toEqual([
      expect.objectContaining({ status: 'scheduled', send_at: '2027-01-16T14:00:00.000Z' }),
    ]);
    await dispatcherAt('2027-01-16T13:59:00Z').runOnce();
    expect((await texts(res.json().lead_id))[0]?.status).toBe('scheduled');
    await dispatcherAt('2027-01-16T14:00:00Z').runOnce();
    expect((await texts(res.json().lead_id))[0]?.status).toBe('sent');
  });

  it.each([
    [
      'Florida',
      { state: 'FL', phone: '3055550106' },
      '2027-01-16T01:30:00Z',
      'scheduled',
      '2027-01-16T13:00:00.000Z',
    ],
    [
      'Texas (federal window)',
      { state: 'TX', phone: '2145550107', zipcode: '75201' },
      '2027-01-16T02:30:00Z',
      'sent',
      '2027-01-16T02:30:00.000Z',
    ],
    [
      'Washington',
      { state: 'WA', phone: '2065550108' },
      '2027-01-16T04:30:00Z',
      'scheduled',
      '2027-01-16T16:00:00.000Z',
    ],
  ])('When it is 8:30 PM in %s, then the state table decides', async (_label, lead, now, status, sendAt) => {
    const src = await source();
    const res = await deliver(t.app, src.token, { name: 'State Stan', sms_consent: true, ...lead });
    await dispatcherAt(now).runOnce();
    expect(await texts(res.json().lead_id)).toEqual([expect.objectContaining({ status, send_at: sendAt })]);
  });

  it('When the provider fails every time, then the text is tried three times, a minute apart, and then failed', async () => {
    const src = await source();
    const res = await deliver(t.app, src.token, {
      name: 'Flaky Flo',
      phone: '3125550132',
      state: 'IL',
      sms_consent: true,
    });
    const failing: SmsProvider = {
      name: 'http',
      send: () => Promise.reject(new Error('provider down')),
    };
    const statuses: string[] = [];
    for (const at of ['2027-01-15T18:00:00Z', '2027-01-15T18:01:01Z', '2027-01-15T18:02:02Z']) {
      await dispatcherAt(at, failing).runOnce();
      statuses.push((await texts(res.json().lead_id))[0]?.status ?? 'none');
    }
    expect(statuses).toEqual(['scheduled', 'scheduled', 'failed']);
  });

  it('When several prospects are due in one round, then they are texted at the same time, not one after another', async () => {
    const src = await source();
    let inFlight = 0;
    let most = 0;
    const sent: string[] = [];
    const slow: SmsProvider = {
      name: 'recorder',
      async send(text) {
        most = Math.max(most, ++inFlight);
        await new Promise((resolve) => setTimeout(resolve, 30));
        inFlight--;
        sent.push(text.to);
        return { id: null };
      },
    };
    for (let i = 0; i < 6; i++)
      await deliver(t.app, src.token, {
        name: `Burst ${i}`,
        phone: `312555014${i}`,
        state: 'IL',
        sms_consent: true,
      });
    const round = await dispatcherAt('2027-01-15T18:00:00Z', slow).runOnce();
    expect(sent.filter((to) => to.startsWith('+1312555014'))).toHaveLength(6);
    expect(round.texts.sent).toBeGreaterThanOrEqual(6);
    expect(most).toBeGreaterThan(1);
  });

  it('When 40 prospects are texted in one round, then each text is recorded with its own history line, in a few statements rather than two per text', async () => {
    const src = await source();
    const leadIds: string[] = [];
    for (let i = 0; i < 40; i++) {
      const res = await deliver(t.app, src.token, {
        name: `Crowd ${i}`,
        phone: `31255502${String(i).padStart(2, '0')}`,
        state: 'IL',
        sms_consent: true,
      });
      leadIds.push(res.json().lead_id);
    }
    const at = new Date('2027-01-15T18:00:00Z');
    await testDispatcher(t.db, [0], { now: () => at }).runOnce(); // hands on; the texts are due
    await t.db.query("UPDATE sms_messages SET status = 'scheduled' WHERE lead_id = ANY($1::uuid[])", [
      leadIds,
    ]);
    await t.db.query('DELETE FROM lead_history WHERE lead_id = ANY($1::uuid[]) AND event = $2', [
      leadIds,
      'sms_sent',
    ]);
    let statements = 0;
    const counted = {
      ...t.db,
      query: (sql: string, params?: unknown[]) => {
        statements++;
        return t.db.query(sql, params);
      },
    } as typeof t.db;
    const round = await testDispatcher(counted, [0], { now: () => at }).runOnce();
    expect(round.texts.sent).toBe(40);
    expect(statements).toBeLessThan(40); // 80 when each text asked and recorded on its own
    for (const leadId of leadIds) {
      const [text] = await texts(leadId);
      expect(text?.status).toBe('sent');
      const lines = (await history(leadId)).filter((h) => h.event === 'sms_sent');
      expect(lines).toHaveLength(1);
      const { rows } = await t.db.query<{ sms_id: string; to_phone: string }>(
        'SELECT sms_id, to_phone FROM sms_messages WHERE lead_id = $1',
        [leadId],
      );
      expect(lines[0]?.details).toMatchObject({ sms_id: rows[0]?.sms_id, to: rows[0]?.to_phone });
    }
  });

  it('When the same contact is delivered again within 24 hours, then it is not texted again', async () => {
    const src = await source();
    const lead = { name: 'Twice Tina', phone: '3125550109', state: 'IL', sms_consent: true };
    const first = await deliver(t.app, src.token, lead);
    await dispatcherAt(new Date()).runOnce();
    await deliver(t.app, src.token, { ...lead, notes: 'asked again' });
    await dispatcherAt(new Date()).runOnce();
    expect(await texts(first.json().lead_id)).toHaveLength(1);
  });

  it('When the same contact is delivered twice before the dispatcher runs, then its one round texts it once', async () => {
    const src = await source();
    const lead = { name: 'Twice Theo', phone: '3125550119', state: 'IL', sms_consent: true };
    const first = await deliver(t.app, src.token, lead);
    await deliver(t.app, src.token, { ...lead, notes: 'asked again' });
    expect((await dispatcherAt(new Date()).runOnce()).dispatched).toBeGreaterThanOrEqual(2);
    expect(await texts(first.json().lead_id)).toHaveLength(1);
  });

  it('When the prospect answers STOP, then the scheduled text is suppressed, no later delivery texts them, and the opt-out shows on the lead', async () => {
    const src = await source();
    const lead = { name: 'Stop Steve', phone: '3125550110', state: 'IL', sms_consent: true };
    const res = await deliver(t.app, src.token, lead);
    await dispatcherAt('2027-01-16T05:00:00Z').runOnce(); // night: scheduled for the morning
    const reply = await t.app.inject({
      method: 'POST',
      url: '/v1/sms/inbound',
      headers: { 'content-type': 'application/json', 'x-sms-secret': SECRET },
      payload: JSON.stringify({ from: '+1 312-555-0110', body: '  Stop ' }),
    });
    expect(reply.json()).toMatchObject({ received: true, opted_out: true, agents: 1 });
    await dispatcherAt('2027-01-16T15:00:00Z').runOnce();
    expect(await texts(res.json().lead_id)).toEqual([expect.objectContaining({ status: 'suppressed' })]);
    const optOut = (await history(res.json().lead_id)).find((h) => h.event === 'sms_opt_out');
    // Under Twilio, Twilio answered the STOP itself (SMS_OPT_OUT_CONFIRMATION's default).
    expect(optOut?.details).toEqual({ phone: '3125550110', keyword: 'STOP', confirmed_by: 'provider' });
  });

  it.each(['STOPALL', 'unsubscribe', ' Cancel ', 'END', 'quit', 'Revoke', 'opt out', 'OPT   OUT'])(
    'When the reply is %j, then it is an opt-out',
    async (word) => {
      const src = await source();
      const res = await deliver(t.app, src.token, {
        name: 'Word Will',
        phone: '3125550111',
        state: 'IL',
        sms_consent: true,
      });
      await dispatcherAt(new Date()).runOnce();
      const reply = await t.app.inject({
        method: 'POST',
        url: `/v1/sms/inbound?secret=${SECRET}`,
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        payload: new URLSearchParams({ From: '+13125550111', Body: word }).toString(),
      });
      expect(reply.json().opted_out).toBe(true);
      expect(res.statusCode).toBe(200);
    },
  );

  it('When a reply is not an opt-out word, or the webhook is not authenticated, then nothing is opted out', async () => {
    const post = (headers: Record<string, string>, body: object) =>
      t.app.inject({
        method: 'POST',
        url: '/v1/sms/inbound',
        headers: { 'content-type': 'application/json', ...headers },
        payload: JSON.stringify(body),
      });
    expect(
      (
        await post(
          { 'x-sms-secret': SECRET },
          { from: '+13125550112', body: 'can you call me at work please' },
        )
      ).json(),
    ).toMatchObject({ received: true, opted_out: false });
    expect((await post({ 'x-sms-secret': 'wrong' }, { from: '+13125550112', body: 'STOP' })).statusCode).toBe(
      401,
    );
    expect((await post({}, { from: '+13125550112', body: 'STOP' })).statusCode).toBe(401);
  });

  it('When Twilio signs the inbound webhook, then its signature is accepted', async () => {
    const params = { From: '+13125550113', Body: 'STOP', To: TWILIO.from };
    const url = 'http://127.0.0.1:3000/v1/sms/inbound';
    const data = Object.keys(params)
      .sort()
      .reduce((acc, k) => acc + k + params[k as keyof typeof params], url);
    const signature = createHmac('sha1', TWILIO.authToken).update(data).digest('base64');
    const res = await t.app.inject({
      method: 'POST',
      url: '/v1/sms/inbound',
      headers: { 'content-type': 'application/x-www-form-urlencoded', 'x-twilio-signature': signature },
      payload: new URLSearchParams(params).toString(),
    });
    expect(res.statusCode).toBe(200);
    const forged = await t.app.inject({
      method: 'POST',
      url: '/v1/sms/inbound',
      headers: { 'content-type': 'application/x-www-form-urlencoded', 'x-twilio-signature': 'AAAA' },
      payload: new URLSearchParams(params).toString(),
    });
    expect(forged.statusCode).toBe(401);
  });
});

describe('speed to lead: SMS providers', () => {
  it('When the provider is Twilio, then its Messages API gets the text with the account’s credentials', async () => {
    const src = await source();
    const twilio = createSmsProvider({
      provider: 'twilio',
      twilio: { ...TWILIO, baseUrl: receiver.url },
      timeoutMs: 5_000,
    });
    const res = await deliver(t.app, src.token, {
      first_name: 'Tilly',
      phone: '3125550114',
      state: 'IL',
      sms_consent: true,
    });
    await dispatcherAt('2027-01-15T18:00:00Z', twilio).runOnce(); // noon in Chicago: within calling hours
    const call = receiver.received.find(
      (r) =>
        r.path === `/2010-04-01/Accounts/${TWILIO.accountSid}/Messages.json` && r.body.includes('3125550114'),
    );
    expect(call?.headers.authorization).toBe(
      `Basic ${Buffer.from(`${TWILIO.accountSid}:${TWILIO.authToken}`).toString('base64')}`,
    );
    const form = new URLSearchParams(call?.body);
    expect({ To: form.get('To'), From: form.get('From') }).toEqual({ To: '+13125550114', From: TWILIO.from });
    expect(form.get('Body')).toContain('Hi Tilly');
    expect(await texts(res.json().lead_id)).toEqual([
      expect.objectContaining({ status: 'sent', provider: 'twilio' }),
    ]);
  });

  it('When the provider is a webhook, then it gets {to, body, lead_id}', async () => {
    const src = await source();
    const http = createSmsProvider({
      provider: 'http',
      webhookUrl: `${receiver.url}/sms-out`,
      timeoutMs: 5_000,
    });
    const res = await deliver(t.app, src.token, {
      first_name: 'Hattie',
      phone: '3125550115',
      state: 'IL',
      sms_consent: true,
    });
    await dispatcherAt('2027-01-15T18:00:00Z', http).runOnce(); // noon in Chicago: within calling hours
    const call = receiver.received.find((r) => r.path === '/sms-out');
    expect(JSON.parse(call?.body ?? '{}')).toMatchObject({
      to: '+13125550115',
      lead_id: res.json().lead_id,
      body: expect.stringContaining('Hi Hattie'),
    });
  });

  it('When a Listen sample or a refused delivery comes in, then no call task and no text', async () => {
    const src = await source();
    await deliver(t.app, src.token, {
      name: 'Listen Lou',
      phone: '3125550116',
      sms_consent: true,
      listen: true,
    });
    await deliver(t.app, src.token, { phone: '3125550117', sms_consent: true });
    await dispatcherAt(new Date()).runOnce();
    expect((await admin(`/agents/${src.agent_id}/dial-queue`)).json().tasks).toEqual([]);
    const { rows } = await t.db.query<{ n: number }>(
      'SELECT count(*)::int AS n FROM sms_messages WHERE agent_id = $1',
      [src.agent_id],
    );
    expect(rows[0]?.n).toBe(0);
  });
});

describe('speed to lead: a text due at once, handed to its sender', () => {
  const recorder = createSmsProvider({ provider: 'recorder', timeoutMs: 1_000 });
  const noon = new Date('2027-02-10T18:00:00Z'); // noon in Chicago
  const round = (now: Date, leaseMs: number, handed?: HandedText[]) =>
    textRound(t.db, recorder, { now, leaseMs, handed });
  async function textRow(leadId: string) {
    const { rows } = await t.db.query<{ status: string; attempts: number; lease_until: Date | null }>(
      'SELECT status, attempts, lease_until FROM sms_messages WHERE lead_id = $1',
      [leadId],
    );
    return rows[0];
  }
  // What earlier tests left in the outbox and the queue goes first, so each round here holds only
  // the texts its test made.
  beforeEach(async () => {
    await dispatcherAt(noon).runOnce();
  });
  async function consenting(name: string, phone: string) {
    const src = await source();
    const res = await deliver(t.app, src.token, { name, phone, state: 'IL', sms_consent: true });
    return res.json().lead_id as string;
  }

  it('When a round hands on a lead whose text is due, then the text is written already claimed and the same worker sends it without claiming it or reading the lead again', async () => {
    const leadId = await consenting('Handed Hal', '3125550801');
    const { texts: handed } = await fanOut(t.db, 200, noon, { texts: 200, leaseMs: 30_000 });
    const mine = handed.filter((x) => x.lead_id === leadId);
    expect(mine).toEqual([
      expect.objectContaining({
        attempts: 1,
        to_phone: '3125550801',
        lead: expect.objectContaining({ lead_id: leadId }),
      }),
    ]);
    expect(await textRow(leadId)).toMatchObject({ status: 'sending', attempts: 1 });

    const asked: unknown[][] = [];
    const counted = {
      ...t.db,
      query: (sql: string, params?: unknown[]) => {
        if (/FROM leads/.test(sql)) asked.push(params ?? []);
        return t.db.query(sql, params);
      },
    } as typeof t.db;
    const sent = await textRound(counted, recorder, { now: noon, leaseMs: 30_000, handed: mine });
    expect(sent.sent).toBeGreaterThanOrEqual(1);
    // Sent from the hand, on its first attempt: a claim would have counted a second.
    expect(await textRow(leadId)).toMatchObject({ status: 'sent', attempts: 1 });
    expect(JSON.stringify(asked)).not.toContain(leadId);
    expect((await history(leadId)).filter((h) => h.event === 'sms_sent')).toHaveLength(1);
  });

  it('When a round hands on more due texts than it may hold, then the rest are scheduled for any worker to claim', async () => {
    const first = await consenting('Room Rita', '3125550802');
    const second = await consenting('Room Rob', '3125550803');
    const { texts: handed } = await fanOut(t.db, 200, noon, { texts: 1, leaseMs: 30_000 });
    expect(handed.map((x) => x.lead_id)).toEqual([first]);
    expect(await textRow(second)).toMatchObject({ status: 'scheduled', attempts: 0 });
    await round(noon, 30_000, handed);
    for (const leadId of [first, second])
      expect(await textRow(leadId)).toMatchObject({ status: 'sent', attempts: 1 });
  });

  it('When half of a handed text’s lease is gone, then its worker leaves it to the queue, and once the lease ends a worker claims and sends it, once', async () => {
    const leadId = await consenting('Late Lara', '3125550804');
    const { texts: handed } = await fanOut(t.db, 200, noon, { texts: 200, leaseMs: 1_000 });
    const mine = handed.filter((x) => x.lead_id === leadId);
    expect(mine).toHaveLength(1);
    await round(new Date(noon.getTime() + 600), 1_000, mine); // its sender, slow to get to it
    expect(await textRow(leadId)).toMatchObject({ status: 'sending', attempts: 1 });
    await round(new Date(noon.getTime() + 1_100), 1_000); // any worker, after the lease
    expect(await textRow(leadId)).toMatchObject({ status: 'sent', attempts: 2 });
    expect((await history(leadId)).filter((h) => h.event === 'sms_sent')).toHaveLength(1);
  });

  it('When a worker stops with texts handed to it and not sent, then they go back to the queue at once and the next worker sends each once', async () => {
    const { sms, asked, release } = heldSmsProvider();
    const stopping = testDispatcher(t.db, [0], { sms, now: () => noon });
    const first = await consenting('Stuck Stu', '3125550805');
    stopping.start();
    await until(() => asked.includes('+13125550805'), 10_000); // its text loop waits for the provider
    const second = await consenting('Queued Quinn', '3125550806');
    const deadline = Date.now() + 10_000;
    while ((await textRow(second))?.status !== 'sending') {
      if (Date.now() > deadline) throw new Error('the second text was never handed on');
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    const stopped = stopping.stop();
    release();
    await stopped;
    expect(await textRow(second)).toMatchObject({ status: 'scheduled', attempts: 0, lease_until: null });
    expect(asked).not.toContain('+13125550806');

    await dispatcherAt(noon).runOnce();
    expect(await textRow(first)).toMatchObject({ status: 'sent', attempts: 1 });
    expect(await textRow(second)).toMatchObject({ status: 'sent', attempts: 1 });
    expect((await history(second)).filter((h) => h.event === 'sms_sent')).toHaveLength(1);
  });
});
