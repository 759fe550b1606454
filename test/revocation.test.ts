import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAgency, putMember } from '../src/routing/agency-repository.ts';
import { adminInject, createTestApp, seedSource, type TestApp } from './support/app.ts';
import { testDispatcher } from './support/automations.ts';
import { deliver } from './support/deliver.ts';

/** Revocation in plain words, the opt-out's reach and its one confirmation (docs/consent-and-revocation.md). */

const SECRET = 'inbound-s3cret';
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ sms: { provider: 'recorder', inboundSecret: SECRET } });
});
afterAll(() => t.close());

let n = 0;
const source = () => seedSource(t.db, `Revocation Agent ${++n}`, 'America/Chicago');
const reply = (from: string, body: string) =>
  t.app.inject({
    method: 'POST',
    url: '/v1/sms/inbound',
    headers: { 'content-type': 'application/json', 'x-sms-secret': SECRET },
    payload: JSON.stringify({ from, body }),
  });
const noon = () => testDispatcher(t.db, [0], { now: () => new Date('2027-01-15T18:00:00Z') });
// Night in Chicago (05:00Z) tomorrow, whenever the suite runs: texts written now are due by then.
const tonight = () => {
  const at = new Date();
  at.setUTCDate(at.getUTCDate() + 1);
  at.setUTCHours(5, 0, 0, 0);
  return testDispatcher(t.db, [0], { now: () => at });
};

async function rowsOf<T>(sql: string, params: unknown[]): Promise<T[]> {
  return (await t.db.query<T>(sql, params)).rows;
}

/** The lead got no text and the agent's call queue holds nothing. */
async function expectNotReached(leadId: string, agentId: string): Promise<void> {
  expect(
    await rowsOf(`SELECT 1 FROM sms_messages WHERE lead_id = $1 AND status IN ('scheduled', 'sent')`, [
      leadId,
    ]),
  ).toEqual([]);
  expect((await adminInject(t.app, 'GET', `/agents/${agentId}/dial-queue`)).json().tasks).toEqual([]);
}
const historyOf = async (leadId: string) =>
  (await adminInject(t.app, 'GET', `/leads/${leadId}`)).json().history as Array<{
    event: string;
    details: Record<string, unknown>;
  }>;
const confirmations = (phone: string) =>
  rowsOf<{ status: string; body: string; agent_id: string }>(
    `SELECT status, body, agent_id FROM sms_messages WHERE to_phone = $1 AND kind = 'opt_out_confirmation'`,
    [phone],
  );

describe('revocation in plain words: the reply', () => {
  it.each([
    ['Please stop texting me', 'stop texting'],
    ['remove me from your list', 'remove me'],
    ["don't contact me", 'dont contact'],
    ['wrong number', 'wrong number'],
    ['No me envíes más mensajes', 'no me envies'],
    ['Bórrame de la lista', 'borrame'],
    ['número equivocado', 'numero equivocado'],
  ])(
    'When the prospect answers %j, then the number is opted out and the history says which words',
    async (text, words) => {
      const src = await source();
      const phone = `31255503${String(10 + n).padStart(2, '0')}`;
      const lead = (await deliver(t.app, src.token, { name: 'Plain Pat', phone, state: 'IL' })).json()
        .lead_id as string;
      const res = await reply(`+1${phone}`, text);
      expect(res.json()).toMatchObject({ received: true, opted_out: true, agents: 1 });
      const optOut = (await historyOf(lead)).find((h) => h.event === 'sms_opt_out');
      expect(optOut?.details).toMatchObject({ phone, words });
    },
  );

  it.each(['stop by at 5pm', "I can't stop laughing", 'yes, call me after 5', '¿Cuál es el número?'])(
    'When the prospect answers %j, then nothing is opted out',
    async (text) => {
      const src = await source();
      const phone = `31255504${String(10 + n).padStart(2, '0')}`;
      await deliver(t.app, src.token, { name: 'Chatty Cat', phone, state: 'IL' });
      expect((await reply(`+1${phone}`, text)).json()).toMatchObject({ received: true, opted_out: false });
      expect(await rowsOf('SELECT 1 FROM sms_opt_outs WHERE phone = $1', [phone])).toEqual([]);
    },
  );

  it('When the reply has no sender, then 400 VALIDATION_ERROR; no body, or a sender that is no number, is kept and opts nothing out', async () => {
    const post = (body: unknown) =>
      t.app.inject({
        method: 'POST',
        url: '/v1/sms/inbound',
        headers: { 'content-type': 'application/json', 'x-sms-secret': SECRET },
        payload: JSON.stringify(body),
      });
    const none = await post({ body: 'STOP' });
    expect(none.statusCode).toBe(400);
    expect(none.json()).toMatchObject({ error_code: 'VALIDATION_ERROR' });
    for (const body of [{ from: 'not a phone', body: 'STOP' }, { from: '+13125550499' }]) {
      const res = await post(body);
      expect(res.statusCode).toBe(200);
      expect(res.json()).toMatchObject({ received: true, opted_out: false, leads: 0 });
    }
    expect(await rowsOf('SELECT 1 FROM sms_opt_outs WHERE phone = $1', ['3125550499'])).toEqual([]);
  });
});

/** An agency of `boss` (its fallback producer) with `producers` licensed in Illinois. */
async function agencyOf(boss: { agent_id: string }, producers: ReadonlyArray<{ agent_id: string }>) {
  const agency = await createAgency(t.db, {
    name: `Revocation Agency ${++n}`,
    fallback_agent_id: boss.agent_id,
    timezone: 'America/Chicago',
    claim_minutes: null,
  });
  for (const p of producers)
    await putMember(t.db, agency.agency_id, p.agent_id, {
      licensed_states: ['IL'],
      weight: 1,
      daily_cap: null,
      active: true,
    });
}

describe('revocation: whom it reaches', () => {
  it('When a number opts out, then every lead of it of every agent gets the history line and lead.opted_out, texted or not, and the agency’s producers stop too', async () => {
    const phone = '3125550601';
    const texted = await source();
    const untexted = await source();
    const boss = await source();
    const producer = await source();
    await agencyOf(boss, [untexted, producer]);
    const a = (
      await deliver(t.app, texted.token, { name: 'Reach Ray', phone, state: 'IL', sms_consent: true })
    ).json().lead_id as string;
    await noon().runOnce();
    const b = (await deliver(t.app, untexted.token, { name: 'Reach Ray', phone, state: 'IL' })).json()
      .lead_id as string;
    await noon().runOnce();
    expect(await rowsOf(`SELECT 1 FROM dial_tasks WHERE lead_id = $1 AND status = 'open'`, [b])).toHaveLength(
      1,
    );

    expect((await reply(`+1${phone}`, 'Remove me from your list please')).json()).toMatchObject({
      opted_out: true,
      agents: 4,
    });

    // The agency of `untexted` is reached whole: its other producer and its fallback producer.
    const outs = await rowsOf<{ agent_id: string }>('SELECT agent_id FROM sms_opt_outs WHERE phone = $1', [
      phone,
    ]);
    expect(outs.map((o) => o.agent_id).sort()).toEqual(
      [texted.agent_id, untexted.agent_id, producer.agent_id, boss.agent_id].sort(),
    );
    for (const lead of [a, b]) {
      expect((await historyOf(lead)).filter((h) => h.event === 'sms_opt_out')).toHaveLength(1);
      const events = await rowsOf<{ payload: Record<string, unknown> }>(
        `SELECT payload FROM outbox WHERE lead_id = $1 AND topic = 'lead.opted_out'`,
        [lead],
      );
      expect(events.map((e) => e.payload)).toEqual([
        expect.objectContaining({ lead_id: lead, phone, by: 'words', words: 'remove me' }),
      ]);
    }
    expect(await rowsOf('SELECT status, blocked_reason FROM dial_tasks WHERE lead_id = $1', [b])).toEqual([
      { status: 'blocked', blocked_reason: 'opted_out' },
    ]);
    const queue = (await adminInject(t.app, 'GET', `/agents/${untexted.agent_id}/dial-queue`)).json().tasks;
    expect(queue.filter((task: { lead_id: string }) => task.lead_id === b)).toEqual([]);

    // A later lead of the number at the agency's other producer is neither texted nor queued.
    const later = (
      await deliver(t.app, producer.token, { name: 'Reach Ray', phone, state: 'IL', sms_consent: true })
    ).json().lead_id as string;
    await noon().runOnce();
    await expectNotReached(later, producer.agent_id);
  });

  it('When only the agency’s fallback producer has the number and it opts out, then a producer’s later lead of it is neither texted nor queued', async () => {
    const phone = '3125550605';
    const boss = await source();
    const producer = await source();
    const outsider = await source();
    await agencyOf(boss, [producer]);
    await deliver(t.app, boss.token, { name: 'Fallback Fay', phone, state: 'IL' });
    expect((await reply(`+1${phone}`, 'STOP')).json()).toMatchObject({ opted_out: true, agents: 2 });
    const outs = await rowsOf<{ agent_id: string }>('SELECT agent_id FROM sms_opt_outs WHERE phone = $1', [
      phone,
    ]);
    expect(outs.map((o) => o.agent_id).sort()).toEqual([boss.agent_id, producer.agent_id].sort());

    const later = (
      await deliver(t.app, producer.token, { name: 'Fallback Fay', phone, state: 'IL', sms_consent: true })
    ).json().lead_id as string;
    const elsewhere = (
      await deliver(t.app, outsider.token, { name: 'Fallback Fay', phone, state: 'IL' })
    ).json().lead_id as string;
    await noon().runOnce();
    await expectNotReached(later, producer.agent_id);
    // An agent outside the agency, who never had the number, was not reached by this STOP.
    const outsiderQueue = (await adminInject(t.app, 'GET', `/agents/${outsider.agent_id}/dial-queue`)).json()
      .tasks as Array<{ lead_id: string }>;
    expect(outsiderQueue.map((task) => task.lead_id)).toEqual([elsewhere]);
  });

  it('When the agent marks a lead "do not contact", then its open call task is blocked and no text goes', async () => {
    const src = await source();
    const phone = '3125550602';
    const lead = (
      await deliver(t.app, src.token, { name: 'Dnc Dee', phone, state: 'IL', sms_consent: true })
    ).json().lead_id as string;
    await tonight().runOnce();
    const res = await adminInject(t.app, 'POST', `/leads/${lead}/do-not-contact`);
    expect(res.statusCode).toBe(200);
    expect(await rowsOf('SELECT status, blocked_reason FROM dial_tasks WHERE lead_id = $1', [lead])).toEqual([
      { status: 'blocked', blocked_reason: 'do_not_contact' },
    ]);
    expect(
      await rowsOf<{ status: string }>('SELECT status FROM sms_messages WHERE lead_id = $1', [lead]),
    ).toEqual([{ status: 'suppressed' }]);
  });
});

describe('revocation: one confirmation text, never more', () => {
  it('When two STOPs arrive at once and a third later, then one confirmation is written and sent, the opted-out number notwithstanding', async () => {
    const src = await source();
    const phone = '3125550603';
    await deliver(t.app, src.token, { name: 'Once Olly', phone, state: 'IL', sms_consent: true });
    await noon().runOnce();
    const [first, second] = await Promise.all([
      reply(`+1${phone}`, 'STOP'),
      reply(`+1${phone}`, 'stop texting me'),
    ]);
    expect([first.json().opted_out, second.json().opted_out]).toEqual([true, true]);
    await reply(`+1${phone}`, 'STOP!!');
    expect(await confirmations(phone)).toEqual([
      expect.objectContaining({ status: 'scheduled', agent_id: src.agent_id }),
    ]);
    // At night in Chicago: the reply goes at once, outside the calling hours too.
    const round = await tonight().runOnce();
    expect(round.texts.sent).toBe(1);
    expect(await confirmations(phone)).toEqual([expect.objectContaining({ status: 'sent' })]);
    expect((await confirmations(phone))[0]?.body).toContain('no more texts or calls');
    await reply(`+1${phone}`, 'I said STOP');
    expect(await confirmations(phone)).toHaveLength(1);
  });

  it('When the opt-out is in Spanish, then the confirmation is too', async () => {
    const src = await source();
    const phone = '3125550604';
    await deliver(t.app, src.token, { name: 'Sofía', phone, state: 'IL' });
    await reply(`+1${phone}`, 'No me envíes más mensajes por favor');
    expect((await confirmations(phone))[0]?.body).toContain('se ha dado de baja');
  });
});
