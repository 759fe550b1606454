import { createHmac } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decideContact } from '../src/screening/decide.ts';
import { screenContacts } from '../src/screening/screening-sql.ts';
import { adminInject, createTestApp, seedSource, type TestApp } from './support/app.ts';
import { deliver } from './support/deliver.ts';

/**
 * Under Twilio (docs/conversations.md, "Twilio"): who confirms an opt-out
 * (SMS_OPT_OUT_CONFIRMATION), and START, UNSTOP or YES after a STOP, which resume texts but not
 * calls.
 */
const SECRET = 'inbound-s3cret';
const TWILIO = {
  accountSid: 'AC7',
  authToken: 'tw-opt-in',
  from: '+15125550000',
  baseUrl: 'http://127.0.0.1:9',
};
let providerConfirms: TestApp;
let oursConfirm: TestApp;
beforeAll(async () => {
  [providerConfirms, oursConfirm] = await Promise.all([
    createTestApp({ sms: { provider: 'twilio', inboundSecret: SECRET, twilio: TWILIO } }),
    createTestApp({
      sms: { provider: 'twilio', inboundSecret: SECRET, twilio: TWILIO, optOutConfirmation: 'ours' },
    }),
  ]);
});
afterAll(async () => {
  await Promise.all([providerConfirms.close(), oursConfirm.close()]);
});

let n = 0;
/** A fresh agent with its key, and a lead of a number of its own that consented to texts. */
async function prospect(t: TestApp) {
  const src = await seedSource(t.db, `Opt-in Agent ${++n}`);
  const key = (await adminInject(t.app, 'POST', `/agents/${src.agent_id}/keys`)).json().key as string;
  const phone = `31255508${String(n).padStart(2, '0')}`;
  const res = await deliver(t.app, src.token, { name: `Pat ${n}`, phone, state: 'IL', sms_consent: true });
  return { ...src, key, phone, lead_id: res.json().lead_id as string };
}

const text = (t: TestApp, from: string, body: string) =>
  t.app.inject({
    method: 'POST',
    url: '/v1/sms/inbound',
    headers: { 'content-type': 'application/json', 'x-sms-secret': SECRET },
    payload: JSON.stringify({ from, body }),
  });

/** A prospect's text as Twilio posts it: its form, signed with the auth token over the URL and the sorted form. */
function twilioText(t: TestApp, from: string, body: string, sid: string) {
  const params: Record<string, string> = { From: `+1${from}`, To: TWILIO.from, Body: body, MessageSid: sid };
  const signed = Object.keys(params)
    .sort()
    .reduce((acc, k) => acc + k + params[k], 'http://127.0.0.1:3000/v1/sms/inbound');
  return t.app.inject({
    method: 'POST',
    url: '/v1/sms/inbound',
    headers: {
      'content-type': 'application/x-www-form-urlencoded',
      'x-twilio-signature': createHmac('sha1', TWILIO.authToken).update(signed).digest('base64'),
    },
    payload: new URLSearchParams(params).toString(),
  });
}

const confirmations = async (t: TestApp, phone: string) =>
  (
    await t.db.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM sms_messages WHERE to_phone = $1 AND kind = 'opt_out_confirmation'`,
      [phone],
    )
  ).rows[0]?.n;

const history = async (t: TestApp, leadId: string) =>
  (await adminInject(t.app, 'GET', `/leads/${leadId}`)).json().history as Array<{
    event: string;
    details: Record<string, unknown>;
  }>;

/** The agent's answer in the thread: 201 when texts may go, 409 CONTACT_OPTED_OUT when not. */
const answer = (t: TestApp, p: Awaited<ReturnType<typeof prospect>>) =>
  t.app.inject({
    method: 'POST',
    url: `/v1/admin/leads/${p.lead_id}/messages`,
    headers: { authorization: `Bearer ${p.key}`, 'content-type': 'application/json' },
    payload: JSON.stringify({ body: 'Happy to help. When suits you?' }),
  });

/** What screening decides now for the prospect's texts and calls. */
async function screened(t: TestApp, p: Awaited<ReturnType<typeof prospect>>) {
  const [facts] = await screenContacts(t.db, [{ agent_id: p.agent_id, phone: p.phone, email: null }]);
  if (!facts) throw new Error('not screened');
  return decideContact({ ...facts, consent_evidence: false, sms_consent: true, now: new Date() });
}

describe('who confirms an opt-out under Twilio', () => {
  it('When the prospect texts a keyword Twilio answers itself, then no confirmation of ours goes, and the history says the provider confirmed', async () => {
    const p = await prospect(providerConfirms);
    expect((await text(providerConfirms, p.phone, 'Stop')).json()).toMatchObject({ opted_out: true });
    expect(await confirmations(providerConfirms, p.phone)).toBe(0);
    const line = (await history(providerConfirms, p.lead_id)).find((h) => h.event === 'sms_opt_out');
    expect(line?.details).toMatchObject({ keyword: 'STOP', confirmed_by: 'provider' });
  });

  it('When the prospect revokes in words Twilio passes on, then our one confirmation goes', async () => {
    const p = await prospect(providerConfirms);
    const res = await text(providerConfirms, p.phone, 'Please stop texting me');
    expect(res.json()).toMatchObject({ opted_out: true });
    expect(await confirmations(providerConfirms, p.phone)).toBe(1);
    const line = (await history(providerConfirms, p.lead_id)).find((h) => h.event === 'sms_opt_out');
    expect(line?.details).toMatchObject({ confirmed_by: 'us' });
  });

  it('When the setting is ours, then a STOP gets our one confirmation, however often it is sent', async () => {
    const p = await prospect(oursConfirm);
    await text(oursConfirm, p.phone, 'STOP');
    await text(oursConfirm, p.phone, 'STOP');
    expect(await confirmations(oursConfirm, p.phone)).toBe(1);
  });
});

describe('START after STOP', () => {
  it('When the prospect texts START after STOP, then texts resume with the words in the history, and calls stay stopped', async () => {
    const p = await prospect(providerConfirms);
    await text(providerConfirms, p.phone, 'STOP');
    expect((await answer(providerConfirms, p)).statusCode).toBe(409);
    expect(await screened(providerConfirms, p)).toEqual({ text: 'opted_out', call: 'opted_out' });

    const res = await text(providerConfirms, p.phone, 'start');
    expect(res.json()).toMatchObject({ opted_out: false, texts_resumed: true, agents: 1 });
    expect(await screened(providerConfirms, p)).toEqual({ text: null, call: 'opted_out' });
    expect((await answer(providerConfirms, p)).statusCode).toBe(201);
    const line = (await history(providerConfirms, p.lead_id)).find((h) => h.event === 'sms_opt_in');
    expect(line?.details).toMatchObject({ keyword: 'START', words: 'start', resumed: 'texts' });
    const read = (await adminInject(providerConfirms.app, 'GET', `/leads/${p.lead_id}`)).json();
    expect(read.opt_out).toMatchObject({ keyword: 'STOP', texts_resumed_at: expect.any(String) });
  });

  it('When Twilio posts the STOP and then the START, signed, then texts stop and resume as they do at Twilio, with no confirmation of ours', async () => {
    const p = await prospect(providerConfirms);
    const stop = await twilioText(providerConfirms, p.phone, 'STOP', `SM-stop-${p.phone}`);
    expect(stop.statusCode).toBe(200);
    expect(stop.body).toContain('<Response></Response>');
    expect(await screened(providerConfirms, p)).toEqual({ text: 'opted_out', call: 'opted_out' });
    expect((await twilioText(providerConfirms, p.phone, 'Start', `SM-start-${p.phone}`)).statusCode).toBe(
      200,
    );
    expect(await screened(providerConfirms, p)).toEqual({ text: null, call: 'opted_out' });
    expect(await confirmations(providerConfirms, p.phone)).toBe(0);
    expect((await history(providerConfirms, p.lead_id)).map((h) => h.event)).toEqual(
      expect.arrayContaining(['sms_opt_out', 'sms_opt_in']),
    );
  });

  it('When the prospect texts STOP again after START, then texts stop again', async () => {
    const p = await prospect(providerConfirms);
    await text(providerConfirms, p.phone, 'STOP');
    await text(providerConfirms, p.phone, 'UNSTOP');
    expect((await screened(providerConfirms, p)).text).toBeNull();
    await text(providerConfirms, p.phone, 'END');
    expect(await screened(providerConfirms, p)).toEqual({ text: 'opted_out', call: 'opted_out' });
    expect((await answer(providerConfirms, p)).statusCode).toBe(409);
  });

  it('When the agent marked the number do not contact, or the prospect revoked in words, then START resumes nothing', async () => {
    const marked = await prospect(providerConfirms);
    await adminInject(providerConfirms.app, 'POST', `/leads/${marked.lead_id}/do-not-contact`);
    const worded = await prospect(providerConfirms);
    await text(providerConfirms, worded.phone, 'do not text me again');
    for (const p of [marked, worded]) {
      const res = await text(providerConfirms, p.phone, 'YES');
      expect(res.json()).toMatchObject({ texts_resumed: false });
      expect(await screened(providerConfirms, p)).toEqual({ text: 'opted_out', call: 'opted_out' });
      expect((await history(providerConfirms, p.lead_id)).map((h) => h.event)).not.toContain('sms_opt_in');
    }
  });

  it('When a prospect who never opted out texts YES, then it is a plain reply in the thread', async () => {
    const p = await prospect(providerConfirms);
    const res = await text(providerConfirms, p.phone, 'Yes');
    expect(res.json()).toMatchObject({ leads: 1, intent: 'reply', opted_out: false, texts_resumed: false });
    expect(await screened(providerConfirms, p)).toEqual({ text: null, call: null });
  });
});
