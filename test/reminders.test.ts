import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminInject, createTestApp, seedSource, type TestApp } from './support/app.ts';
import { testDispatcher } from './support/automations.ts';
import { deliver, GATEWAY } from './support/deliver.ts';
import { bookingFixtureText } from './fixtures/booking/load.ts';

/** Reminder texts before an appointment (docs/reminders.md): planned at the booking's fan-out, sent once when due. */

const SECRET = 'reminder-inbound-s3cret';
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ sms: { provider: 'recorder', inboundSecret: SECRET } });
});
afterAll(async () => {
  await t.close();
});

/** A Monday morning in New York: 10:00 EST. */
const MONDAY = '2027-01-18T15:00:00.000Z';
const dispatcherAt = (when: Date | string) => testDispatcher(t.db, [0], { now: () => new Date(when) });

let n = 0;
const newAgent = async (zone = 'America/New_York') => seedSource(t.db, `Reminder Agent ${++n}`, zone);
const phoneFor = () => `21255${String(60000 + n * 10 + (++calls % 10)).padStart(5, '0')}`;
let calls = 0;
async function newLead(token: string, extra: Record<string, unknown> = {}) {
  const phone = phoneFor();
  const res = await deliver(t.app, token, {
    name: 'Carol Prospect',
    first_name: 'Carol',
    phone,
    state: 'NY',
    sms_opt_in: 'yes',
    ...extra,
  });
  expect(res.statusCode, res.body).toBeLessThan(300);
  return { lead_id: res.json().lead_id as string, phone: (extra.phone as string | undefined) ?? phone };
}
type Reminder = {
  appointment_id: string;
  kind: string;
  due_at: string;
  status: string;
  reason: string | null;
};
const remindersOf = async (leadId: string): Promise<Reminder[]> =>
  (await adminInject(t.app, 'GET', `/leads/${leadId}`)).json().reminders;
const plannedTimes = async (leadId: string) =>
  Object.fromEntries((await remindersOf(leadId)).map((r) => [r.kind, r.due_at]));
const states = async (leadId: string) => (await remindersOf(leadId)).map((r) => [r.kind, r.status, r.reason]);
async function remindersTo(phone: string) {
  const { rows } = await t.db.query<{ body: string; status: string }>(
    `SELECT body, status FROM sms_messages WHERE to_phone = $1 AND body LIKE '%reminder%' ORDER BY created_at`,
    [phone.replace(/^\+1/, '')],
  );
  return rows;
}
function inbound(from: string, body: string) {
  return t.app.inject({
    method: 'POST',
    url: '/v1/sms/inbound',
    headers: { 'content-type': 'application/json', 'x-sms-secret': SECRET },
    payload: JSON.stringify({ from, body }),
  });
}
const patchReminders = (agentId: string, reminders: unknown) =>
  adminInject(t.app, 'PATCH', `/agents/${agentId}`, { reminders });

describe('reminders: planned at the booking', () => {
  it('When a New York lead with texting consent books a 2 p.m. appointment, then a reminder goes a day and an hour before, each once, with the time there', async () => {
    const a = await newAgent();
    const lead = await newLead(a.token, { scheduled_at: '2027-01-20T19:00:00Z' });
    await dispatcherAt(MONDAY).runOnce();
    expect(await plannedTimes(lead.lead_id)).toEqual({
      day_before: '2027-01-19T19:00:00.000Z',
      hour_before: '2027-01-20T18:00:00.000Z',
    });
    expect(await states(lead.lead_id)).toEqual([
      ['day_before', 'planned', null],
      ['hour_before', 'planned', null],
    ]);
    await dispatcherAt('2027-01-19T19:00:00.000Z').runOnce();
    await dispatcherAt('2027-01-19T19:01:00.000Z').runOnce();
    const body = `Hi Carol, this is Reminder Agent ${n}: a reminder of our appointment Wed, Jan 20, 2:00 PM EST. Reply here if you need another time.`;
    expect(await remindersTo(lead.phone)).toEqual([{ body, status: 'sent' }]);
    await dispatcherAt('2027-01-20T18:00:00.000Z').runOnce();
    expect(await remindersTo(lead.phone)).toEqual([
      { body, status: 'sent' },
      { body, status: 'sent' },
    ]);
    expect(await states(lead.lead_id)).toEqual([
      ['day_before', 'sent', null],
      ['hour_before', 'sent', null],
    ]);
  });

  it.each([
    [
      'Los Angeles, 8:30 a.m.: the hour before goes the evening before at 8:59 p.m. Pacific',
      { state: 'CA', zipcode: '90012', scheduled_at: '2027-01-20T16:30:00Z' },
      { day_before: '2027-01-19T16:30:00.000Z', hour_before: '2027-01-20T04:59:00.000Z' },
      'Wed, Jan 20, 8:30 AM PST',
    ],
    [
      'Florida, 8:30 a.m.: its window closes at 8 p.m., so 7:59 p.m.',
      { state: 'FL', zipcode: '33101', scheduled_at: '2027-01-20T13:30:00Z' },
      { day_before: '2027-01-19T13:30:00.000Z', hour_before: '2027-01-20T00:59:00.000Z' },
      'Wed, Jan 20, 8:30 AM EST',
    ],
    [
      'Oklahoma, 7:45 a.m. on Monday: Saturday 7:59 p.m. and Sunday night 7:59 p.m.',
      { state: 'OK', zipcode: '73102', scheduled_at: '2027-01-25T13:45:00Z' },
      { day_before: '2027-01-24T01:59:00.000Z', hour_before: '2027-01-25T01:59:00.000Z' },
      'Mon, Jan 25, 7:45 AM CST',
    ],
    [
      'New York, 8:30 a.m. the morning clocks spring forward: 8:59 p.m. standard time both evenings before',
      { state: 'NY', zipcode: '10001', scheduled_at: '2027-03-14T12:30:00Z' },
      { day_before: '2027-03-13T01:59:00.000Z', hour_before: '2027-03-14T01:59:00.000Z' },
      'Sun, Mar 14, 8:30 AM EDT',
    ],
  ])(
    'When a lead books in %s, then its reminders are planned there and the text says the local time',
    async (_, fields, times, local) => {
      const a = await newAgent('America/Chicago');
      const lead = await newLead(a.token, fields);
      await dispatcherAt('2027-01-12T15:00:00.000Z').runOnce();
      expect(await plannedTimes(lead.lead_id)).toEqual(times);
      await dispatcherAt(times.day_before).runOnce();
      await dispatcherAt(times.hour_before).runOnce();
      const sent = await remindersTo(lead.phone);
      expect(sent).toHaveLength(2);
      for (const text of sent) expect(text.body).toContain(`our appointment ${local}.`);
    },
  );

  it('When a lead books less than a day ahead, then only the hour before is planned; without texting consent, none', async () => {
    const a = await newAgent();
    const soon = await newLead(a.token, { scheduled_at: '2027-01-18T20:00:00Z' });
    const silent = await newLead(a.token, { scheduled_at: '2027-01-20T19:00:00Z', sms_opt_in: 'no' });
    await dispatcherAt(MONDAY).runOnce();
    expect(Object.keys(await plannedTimes(soon.lead_id))).toEqual(['hour_before']);
    expect(await remindersOf(silent.lead_id)).toEqual([]);
    await dispatcherAt('2027-01-19T19:00:00.000Z').runOnce();
    expect(await remindersTo(silent.phone)).toEqual([]);
  });

  it('When a claim comes after the window closed, then the reminder waits for the morning if that is before the appointment, else it is skipped', async () => {
    const a = await newAgent();
    const early = await newLead(a.token, { scheduled_at: '2027-01-20T13:30:00Z' }); // 8:30 a.m.
    const dawn = await newLead(a.token, { scheduled_at: '2027-01-20T12:30:00Z' }); // 7:30 a.m.
    await dispatcherAt(MONDAY).runOnce();
    await dispatcherAt('2027-01-19T13:30:00.000Z').runOnce();
    // Every worker was down from 8:59 p.m. until 9:30 p.m.
    await dispatcherAt('2027-01-20T02:30:00.000Z').runOnce();
    expect((await remindersOf(early.lead_id))[1]).toMatchObject({
      kind: 'hour_before',
      due_at: '2027-01-20T13:00:00.000Z',
      status: 'planned',
      reason: 'outside calling hours',
    });
    expect((await remindersOf(dawn.lead_id))[1]).toMatchObject({
      kind: 'hour_before',
      status: 'skipped',
      reason: 'outside calling hours until the appointment',
    });
    await dispatcherAt('2027-01-20T13:00:00.000Z').runOnce();
    expect(await remindersTo(early.phone)).toHaveLength(2);
    expect(await remindersTo(dawn.phone)).toHaveLength(1);
  });
});

describe('reminders: what skips one', () => {
  it('When the prospect cancels through the scheduler, then no reminder goes and each says why', async () => {
    const a = await newAgent('America/Chicago');
    const lead = await newLead(a.token, {
      name: 'Maria Gonzalez',
      email: 'maria.gonzalez@example.com',
      phone: '3125550148',
      state: 'IL',
    });
    const send = (fixture: 'invitee-created' | 'invitee-canceled') =>
      t.app.inject({
        method: 'POST',
        url: `${GATEWAY}/v/${a.token}`,
        headers: { 'content-type': 'application/json' },
        payload: bookingFixtureText(fixture),
      });
    expect((await send('invitee-created')).json().lead_id).toBe(lead.lead_id);
    await dispatcherAt('2027-01-13T15:00:00.000Z').runOnce();
    expect(await plannedTimes(lead.lead_id)).toEqual({
      day_before: '2027-01-14T19:30:00.000Z',
      hour_before: '2027-01-15T18:30:00.000Z',
    });
    expect((await send('invitee-canceled')).statusCode).toBe(200);
    await dispatcherAt('2027-01-14T19:30:00.000Z').runOnce();
    await dispatcherAt('2027-01-15T18:30:00.000Z').runOnce();
    expect(await remindersTo(lead.phone)).toEqual([]);
    expect(await states(lead.lead_id)).toEqual([
      ['day_before', 'skipped', 'appointment canceled'],
      ['hour_before', 'skipped', 'appointment canceled'],
    ]);
  });

  it('When a repeat delivery moves the appointment, then the old time gets no reminder and the new time’s are planned', async () => {
    const a = await newAgent();
    const lead = await newLead(a.token, { scheduled_at: '2027-01-20T19:00:00Z' });
    await dispatcherAt(MONDAY).runOnce();
    const moved = await deliver(t.app, a.token, {
      name: 'Carol Prospect',
      phone: lead.phone,
      scheduled_at: '2027-01-21T16:00:00Z',
    });
    expect(moved.json().lead_id).toBe(lead.lead_id);
    await dispatcherAt('2027-01-18T15:01:00.000Z').runOnce();
    const reminders = await remindersOf(lead.lead_id);
    expect(reminders.map((r) => [r.kind, r.due_at, r.status, r.reason])).toEqual([
      ['day_before', '2027-01-19T19:00:00.000Z', 'skipped', 'appointment rescheduled'],
      ['day_before', '2027-01-20T16:00:00.000Z', 'planned', null],
      ['hour_before', '2027-01-20T18:00:00.000Z', 'skipped', 'appointment rescheduled'],
      ['hour_before', '2027-01-21T15:00:00.000Z', 'planned', null],
    ]);
    await dispatcherAt('2027-01-19T19:00:00.000Z').runOnce();
    expect(await remindersTo(lead.phone)).toEqual([]);
    await dispatcherAt('2027-01-20T16:00:00.000Z').runOnce();
    const sent = await remindersTo(lead.phone);
    expect(sent.map((s) => s.body)).toEqual([expect.stringContaining('Thu, Jan 21, 11:00 AM EST')]);
  });

  it('When the agent turns reminders off, then new bookings get none and planned ones are skipped; turned on, the appointments to come get theirs', async () => {
    const a = await newAgent();
    const off = await patchReminders(a.agent_id, { day_before: false });
    expect(off.json().reminders).toEqual({ day_before: false, hour_before: true, template: null });
    // Years ahead: turning a reminder on plans it from the real clock.
    const lead = await newLead(a.token, { scheduled_at: '2031-01-22T19:00:00Z' });
    await dispatcherAt('2031-01-20T15:00:00.000Z').runOnce();
    expect(Object.keys(await plannedTimes(lead.lead_id))).toEqual(['hour_before']);
    expect((await patchReminders(a.agent_id, { hour_before: false })).statusCode).toBe(200);
    expect(await states(lead.lead_id)).toEqual([['hour_before', 'planned', 'turned off']]);
    expect((await patchReminders(a.agent_id, { day_before: true })).statusCode).toBe(200);
    expect(await plannedTimes(lead.lead_id)).toEqual({
      day_before: '2031-01-21T19:00:00.000Z',
      hour_before: '2031-01-22T18:00:00.000Z',
    });
    await dispatcherAt('2031-01-21T19:00:00.000Z').runOnce();
    await dispatcherAt('2031-01-22T18:00:00.000Z').runOnce();
    expect(await states(lead.lead_id)).toEqual([
      ['day_before', 'sent', null],
      ['hour_before', 'skipped', 'turned off'],
    ]);
    expect(await remindersTo(lead.phone)).toHaveLength(1);
  });

  it.each([
    [
      'on the agent’s do-not-call list',
      (a: { agent_id: string }, phone: string) =>
        adminInject(t.app, 'POST', `/agents/${a.agent_id}/suppressions`, { list: 'dnc', phones: [phone] }),
      'dnc',
    ],
    ['opted out by STOP', (_: unknown, phone: string) => inbound(`+1${phone}`, 'STOP'), 'opted_out'],
  ])('When the number is %s, then the reminder is skipped with the reason', async (_, act, reason) => {
    const a = await newAgent();
    const lead = await newLead(a.token, { scheduled_at: '2027-01-20T19:00:00Z' });
    await dispatcherAt(MONDAY).runOnce();
    expect((await act(a, lead.phone)).statusCode).toBe(200);
    await dispatcherAt('2027-01-19T19:00:00.000Z').runOnce();
    expect((await remindersOf(lead.lead_id))[0]).toMatchObject({ status: 'skipped', reason });
    expect(await remindersTo(lead.phone)).toEqual([]);
  });
});

describe('reminders: sent once, answered in the thread', () => {
  it('When two dispatchers work the same due reminders at once, then each text is made once', async () => {
    const a = await newAgent();
    const leads = [];
    for (let i = 0; i < 5; i++) leads.push(await newLead(a.token, { scheduled_at: '2027-01-20T19:00:00Z' }));
    await dispatcherAt(MONDAY).runOnce();
    const due = '2027-01-19T19:00:00.000Z';
    await Promise.all([dispatcherAt(due).runOnce(), dispatcherAt(due).runOnce()]);
    await dispatcherAt(due).runOnce();
    for (const lead of leads) expect(await remindersTo(lead.phone)).toHaveLength(1);
  });

  it('When the prospect answers a reminder, then the answer is in the lead’s thread after it', async () => {
    const a = await newAgent();
    const lead = await newLead(a.token, { scheduled_at: '2027-01-20T19:00:00Z' });
    await dispatcherAt(MONDAY).runOnce();
    await dispatcherAt('2027-01-19T19:00:00.000Z').runOnce();
    expect((await inbound(`+1${lead.phone}`, 'Can we make it 3 instead?')).statusCode).toBe(200);
    const thread = (await adminInject(t.app, 'GET', `/leads/${lead.lead_id}/messages`)).json();
    const bodies = (thread.messages as Array<{ body: string; direction: string }>).map((m) => [
      m.direction,
      m.body,
    ]);
    const reminder = bodies.findIndex(([, body]) => body?.includes('a reminder of our appointment'));
    const reply = bodies.findIndex(([, body]) => body === 'Can we make it 3 instead?');
    expect(reminder).toBeGreaterThanOrEqual(0);
    expect(reply).toBeGreaterThan(reminder);
    expect(bodies[reply]?.[0]).toBe('inbound');
  });
});

describe('reminders: the agent’s settings', () => {
  it('When an agent sets its words, then they are shown and used; null returns to the default', async () => {
    const a = await newAgent();
    expect((await adminInject(t.app, 'GET', `/agents/${a.agent_id}`)).json().reminders).toEqual({
      day_before: true,
      hour_before: true,
      template: null,
    });
    const set = await patchReminders(a.agent_id, {
      template: '  {first_name}: see you {appointment_time}. ',
    });
    expect(set.json().reminders.template).toBe('{first_name}: see you {appointment_time}.');
    const lead = await newLead(a.token, { scheduled_at: '2027-01-20T19:00:00Z' });
    await dispatcherAt(MONDAY).runOnce();
    await dispatcherAt('2027-01-19T19:00:00.000Z').runOnce();
    const { rows } = await t.db.query<{ body: string }>(
      `SELECT body FROM sms_messages WHERE to_phone = $1 AND body LIKE '%see you%'`,
      [lead.phone],
    );
    expect(rows).toEqual([{ body: 'Carol: see you Wed, Jan 20, 2:00 PM EST.' }]);
    const reset = await patchReminders(a.agent_id, { template: null });
    expect(reset.json().reminders.template).toBeNull();
  });

  it.each([
    [
      { template: 'Hi {first_name}, about {policy}' },
      'reminders.template has an unknown placeholder {policy}',
    ],
    [{ template: 'x'.repeat(641) }, 'reminders.template must be at most 640 characters'],
    [{ template: '   ' }, 'reminders.template must not be blank'],
    [{ day_before: 'yes' }, 'reminders.day_before must be true or false'],
  ])('When the reminders are %j, then 400 VALIDATION_ERROR names the field', async (reminders, words) => {
    const a = await newAgent();
    const res = await patchReminders(a.agent_id, reminders);
    expect(res.statusCode).toBe(400);
    expect(res.json().error_code).toBe('VALIDATION_ERROR');
    expect(res.json().details).toContain(words);
  });
});
