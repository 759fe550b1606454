import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cadenceKind, runJobs } from '../src/automations/cadence-steps.ts';
import { adminInject, createTestApp, seedSource, type TestApp } from './support/app.ts';
import { testDispatcher } from './support/automations.ts';
import { deliver, GATEWAY } from './support/deliver.ts';
import { bookingFixtureText } from './fixtures/booking/load.ts';

/** Cadences (docs/cadences.md): a plan of calls and texts over days, each inside the law, stopped by a reply. */

const SECRET = 'cadence-inbound-s3cret';
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ sms: { provider: 'recorder', inboundSecret: SECRET } });
});
afterAll(async () => {
  await t.close();
});

/** A Monday morning in New York: 10:00 EST. */
const MONDAY = '2027-01-18T15:00:00.000Z';
const at = (iso: string, minutes = 0) => new Date(new Date(iso).getTime() + minutes * 60_000);
const dispatcherAt = (when: Date | string) => testDispatcher(t.db, [0], { now: () => new Date(when) });
/** Rounds of a dispatcher at one moment, as its loop goes on: a plan does one step a round. */
async function roundsAt(when: Date | string, rounds = 3) {
  const dispatcher = dispatcherAt(when);
  for (let i = 0; i < rounds; i++) await dispatcher.runOnce();
}

const PLAN = [
  { after_minutes: 0, action: 'call' },
  { after_minutes: 5, action: 'text', body: 'Hi {first_name}, {agent_name} here about your quote.' },
  { after_minutes: 1440, action: 'call' },
  { after_minutes: 2880, action: 'text', body: 'Still there, {first_name}?' },
];

let n = 0;
/** A fresh agent (New York) with a source and a cadence on it. */
async function agentWithCadence(steps: unknown[] = PLAN) {
  const src = await seedSource(t.db, `Cadence Agent ${++n}`, 'America/New_York');
  const made = await adminInject(t.app, 'POST', `/agents/${src.agent_id}/cadences`, {
    name: 'Two days',
    steps,
  });
  expect(made.statusCode).toBe(201);
  const cadence = made.json();
  const set = await adminInject(t.app, 'PATCH', `/sources/${src.source_id}`, {
    cadence_id: cadence.cadence_id,
  });
  expect(set.statusCode).toBe(200);
  expect(set.json().cadence_id).toBe(cadence.cadence_id);
  return { ...src, cadence };
}
const phoneFor = () => `21255${String(50000 + n * 10 + (++calls % 10)).padStart(5, '0')}`;
let calls = 0;
async function newLead(token: string, extra: Record<string, unknown> = {}) {
  const phone = phoneFor();
  const res = await deliver(t.app, token, {
    name: 'Carol Prospect',
    phone,
    state: 'NY',
    sms_opt_in: 'yes',
    ...extra,
  });
  expect(res.statusCode).toBeLessThan(300);
  return { lead_id: res.json().lead_id as string, phone };
}
const leadOf = async (leadId: string) => (await adminInject(t.app, 'GET', `/leads/${leadId}`)).json();
const planOf = async (leadId: string) => (await leadOf(leadId)).cadence;
async function textsTo(phone: string) {
  const { rows } = await t.db.query<{ body: string; status: string; error: string | null }>(
    `SELECT body, status, error FROM sms_messages WHERE to_phone = $1 AND kind = 'lead' ORDER BY created_at`,
    [phone],
  );
  return rows;
}
async function tasksOf(leadId: string) {
  const { rows } = await t.db.query<{ status: string }>(
    'SELECT status FROM dial_tasks WHERE lead_id = $1 ORDER BY created_at',
    [leadId],
  );
  return rows.map((r) => r.status);
}
function inbound(from: string, body: string) {
  return t.app.inject({
    method: 'POST',
    url: '/v1/sms/inbound',
    headers: { 'content-type': 'application/json', 'x-sms-secret': SECRET },
    payload: JSON.stringify({ from, body }),
  });
}

describe('cadences: made, read, changed, deleted', () => {
  it('When an agent makes a cadence, then it is kept in the order of its delays and read, listed, renamed and deleted', async () => {
    const src = await seedSource(t.db, `Cadence Maker ${++n}`, 'America/Chicago');
    const made = await adminInject(t.app, 'POST', `/agents/${src.agent_id}/cadences`, {
      name: '  Week one ',
      steps: [
        { after_minutes: 60, action: 'text', body: 'Hi {first_name}' },
        { after_minutes: 0, action: 'call' },
      ],
    });
    expect(made.statusCode).toBe(201);
    const cadence = made.json();
    expect(cadence).toMatchObject({
      name: 'Week one',
      agent_id: src.agent_id,
      steps: [
        { after_minutes: 0, action: 'call' },
        { after_minutes: 60, action: 'text', body: 'Hi {first_name}' },
      ],
    });
    const path = `/agents/${src.agent_id}/cadences/${cadence.cadence_id}`;
    expect((await adminInject(t.app, 'GET', path)).json()).toEqual(cadence);
    expect((await adminInject(t.app, 'GET', `/agents/${src.agent_id}/cadences`)).json().cadences).toEqual([
      cadence,
    ]);
    const renamed = await adminInject(t.app, 'PATCH', path, { name: 'Week 1' });
    expect(renamed.json()).toMatchObject({ name: 'Week 1', steps: cadence.steps });
    const defaulted = await adminInject(t.app, 'PATCH', `/agents/${src.agent_id}`, {
      default_cadence_id: cadence.cadence_id,
    });
    expect(defaulted.json().default_cadence_id).toBe(cadence.cadence_id);
    expect((await adminInject(t.app, 'DELETE', path)).statusCode).toBe(204);
    expect((await adminInject(t.app, 'GET', path)).json().error_code).toBe('CADENCE_NOT_FOUND');
    expect((await adminInject(t.app, 'GET', `/agents/${src.agent_id}`)).json().default_cadence_id).toBeNull();
  });

  it.each([
    ['no steps', [], 'steps must have at least one step'],
    [
      '31 steps',
      Array.from({ length: 31 }, () => ({ after_minutes: 0, action: 'call' })),
      'steps must have at most 30 items',
    ],
    ['a negative delay', [{ after_minutes: -1, action: 'call' }], 'steps[0].after_minutes'],
    ['a delay in part minutes', [{ after_minutes: 1.5, action: 'call' }], 'steps[0].after_minutes'],
    [
      'a text without a body',
      [
        { after_minutes: 0, action: 'call' },
        { after_minutes: 1, action: 'text' },
      ],
      'steps[1].body is required for a text',
    ],
    ['an unknown action', [{ after_minutes: 0, action: 'email' }], 'steps[0].action'],
    [
      'an unknown placeholder',
      [{ after_minutes: 0, action: 'text', body: 'Hi {nickname}' }],
      'steps[0].body has an unknown placeholder {nickname}',
    ],
  ])('When a cadence has %s, then 400 VALIDATION_ERROR names the step', async (_, steps, words) => {
    const src = await seedSource(t.db, `Cadence Checker ${++n}`);
    const res = await adminInject(t.app, 'POST', `/agents/${src.agent_id}/cadences`, { name: 'Bad', steps });
    expect(res.statusCode).toBe(400);
    expect(res.json().error_code).toBe('VALIDATION_ERROR');
    expect(res.json().details).toContain(words);
  });

  it('When an agent’s key names another agent’s cadence, on a path, a source or its default, then 404 CADENCE_NOT_FOUND', async () => {
    const mine = await agentWithCadence();
    const other = await agentWithCadence();
    const key = (await adminInject(t.app, 'POST', `/agents/${mine.agent_id}/keys`)).json().key as string;
    const as = (method: 'GET' | 'PATCH', url: string, body?: unknown) =>
      t.app.inject({
        method,
        url: `/v1/admin${url}`,
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
        ...(body === undefined ? {} : { payload: JSON.stringify(body) }),
      });
    const theirs = other.cadence.cadence_id;
    expect((await as('GET', `/agents/${mine.agent_id}/cadences/${theirs}`)).json().error_code).toBe(
      'CADENCE_NOT_FOUND',
    );
    expect((await as('GET', `/agents/${other.agent_id}/cadences/${theirs}`)).json().error_code).toBe(
      'AGENT_NOT_FOUND',
    );
    expect((await as('PATCH', `/sources/${mine.source_id}`, { cadence_id: theirs })).json().error_code).toBe(
      'CADENCE_NOT_FOUND',
    );
    expect(
      (await as('PATCH', `/agents/${mine.agent_id}`, { default_cadence_id: theirs })).json().error_code,
    ).toBe('CADENCE_NOT_FOUND');
    const cleared = await as('PATCH', `/sources/${mine.source_id}`, { cadence_id: null });
    expect(cleared.json().cadence_id).toBeNull();
  });
});

describe('cadences: a new lead follows its plan', () => {
  it('When a new lead of a source with a cadence is handed on, then it is enrolled once, with due times in its calling hours, and no default text or call task', async () => {
    const a = await agentWithCadence();
    const lead = await newLead(a.token, { first_name: 'Carol' });
    await dispatcherAt(MONDAY).runOnce();
    const plan = await planOf(lead.lead_id);
    expect(plan).toMatchObject({
      cadence_id: a.cadence.cadence_id,
      name: 'Two days',
      status: 'active',
      stopped_reason: null,
    });
    expect(plan.steps.map((s: { due_at: string }) => s.due_at)).toEqual([
      MONDAY,
      at(MONDAY, 5).toISOString(),
      at(MONDAY, 1440).toISOString(),
      at(MONDAY, 2880).toISOString(),
    ]);
    // The first call step came due in the same round: its task is in the queue, and nothing else was made.
    expect(await tasksOf(lead.lead_id)).toEqual(['open']);
    expect(await textsTo(lead.phone)).toEqual([]);
    // A repeat of the contact is no new enrollment.
    await deliver(t.app, a.token, { name: 'Carol Prospect', phone: lead.phone, email: 'carol@example.com' });
    await dispatcherAt(at(MONDAY, 1)).runOnce();
    const { rows } = await t.db.query('SELECT 1 FROM cadence_runs WHERE lead_id = $1', [lead.lead_id]);
    expect(rows).toHaveLength(1);
  });

  it('When each step falls due, then a call puts a task in the dial queue and a text goes out with its placeholders filled, and the plan completes', async () => {
    const a = await agentWithCadence();
    const lead = await newLead(a.token, { first_name: 'Dora' });
    await dispatcherAt(MONDAY).runOnce();
    // A cadence deleted after its leads were enrolled stops none of them: they keep their copy.
    const path = `/agents/${a.agent_id}/cadences/${a.cadence.cadence_id}`;
    expect((await adminInject(t.app, 'DELETE', path)).statusCode).toBe(204);
    expect(
      (await adminInject(t.app, 'GET', `/agents/${a.agent_id}/sources`)).json().sources[0].cadence_id,
    ).toBeNull();
    await dispatcherAt(at(MONDAY, 5)).runOnce();
    expect(await textsTo(lead.phone)).toEqual([
      { body: `Hi Dora, Cadence Agent ${n} here about your quote.`, status: 'sent', error: null },
    ]);
    const queue = (await adminInject(t.app, 'GET', `/agents/${a.agent_id}/dial-queue`)).json().tasks;
    expect(queue.map((q: { lead_id: string }) => q.lead_id)).toEqual([lead.lead_id]);
    await dispatcherAt(at(MONDAY, 1440)).runOnce();
    await dispatcherAt(at(MONDAY, 2880)).runOnce();
    const plan = await planOf(lead.lead_id);
    expect(plan.status).toBe('completed');
    expect(plan.steps.map((s: { status: string; reason: string }) => [s.status, s.reason])).toEqual([
      ['done', 'in the dial queue'],
      ['done', 'sent'],
      ['done', 'in the dial queue'],
      ['done', 'sent'],
    ]);
    expect((await textsTo(lead.phone)).map((x) => x.body)).toEqual([
      `Hi Dora, Cadence Agent ${n} here about your quote.`,
      'Still there, Dora?',
    ]);
  });

  it('When a text step falls due for a lead without texting consent, then it is skipped with the reason; a lead delivered at night is called in the morning', async () => {
    const a = await agentWithCadence();
    const lead = await newLead(a.token, { sms_opt_in: 'no' });
    const night = '2027-01-19T03:00:00.000Z'; // 22:00 in New York
    await dispatcherAt(night).runOnce();
    expect((await planOf(lead.lead_id)).steps[0].due_at).toBe('2027-01-19T13:00:00.000Z');
    await roundsAt('2027-01-19T13:05:00.000Z');
    const steps = (await planOf(lead.lead_id)).steps;
    expect(steps[0]).toMatchObject({ status: 'done' });
    expect(steps[1]).toMatchObject({ action: 'text', status: 'skipped', reason: 'no SMS consent' });
  });

  it('When a Los Angeles lead comes in the night the clocks spring forward, then its steps fall due at 8 a.m. daylight time there', async () => {
    const a = await agentWithCadence([
      { after_minutes: 0, action: 'call' },
      { after_minutes: 1440, action: 'call' },
    ]);
    const lead = await newLead(a.token, { state: 'CA', zipcode: '90012', phone: '2135550142' });
    // 01:30 in Los Angeles, half an hour before 2:00 PST becomes 3:00 PDT.
    await dispatcherAt('2027-03-14T09:30:00.000Z').runOnce();
    expect((await planOf(lead.lead_id)).steps.map((s: { due_at: string }) => s.due_at)).toEqual([
      '2027-03-14T15:00:00.000Z',
      '2027-03-15T15:00:00.000Z',
    ]);
  });

  it('When the number is on the agent’s do-not-call list as the steps fall due, then each is skipped with the reason and no task or text is made', async () => {
    const a = await agentWithCadence([
      { after_minutes: 60, action: 'call' },
      { after_minutes: 60, action: 'text', body: 'Hi {first_name}' },
    ]);
    const lead = await newLead(a.token);
    await dispatcherAt(at(MONDAY, -60)).runOnce();
    const listed = await adminInject(t.app, 'POST', `/agents/${a.agent_id}/suppressions`, {
      list: 'dnc',
      phones: [lead.phone],
    });
    expect(listed.statusCode).toBe(200);
    await roundsAt(MONDAY);
    const steps = (await planOf(lead.lead_id)).steps;
    expect(steps.map((x: { status: string; reason: string }) => [x.status, x.reason])).toEqual([
      ['skipped', 'dnc'],
      ['skipped', 'dnc'],
    ]);
    expect(await tasksOf(lead.lead_id)).toEqual([]);
    expect(await textsTo(lead.phone)).toEqual([]);
  });

  it('When a Florida lead already had three texts in 24 hours as a text step falls due, then the step moves past the oldest, into the window', async () => {
    const a = await agentWithCadence([{ after_minutes: 60, action: 'text', body: 'Hi {first_name}' }]);
    const lead = await newLead(a.token, { state: 'FL', zipcode: '33101' });
    await dispatcherAt(at(MONDAY, -60)).runOnce();
    const { rows } = await t.db.query<{ agent_id: string }>('SELECT agent_id FROM leads WHERE lead_id = $1', [
      lead.lead_id,
    ]);
    // The agent's own answers count: sent at noon, 12:01 and 12:02 on Sunday, New York time.
    for (const minute of [0, 1, 2])
      await t.db.query(
        `INSERT INTO sms_messages (agent_id, sms_id, lead_id, message_id, to_phone, body, status, send_at, kind, created_at)
         VALUES ($1, gen_random_uuid(), $2, gen_random_uuid(), $3, 'answer', 'sent', $4, 'agent', $4)`,
        [
          rows[0]?.agent_id,
          lead.lead_id,
          lead.phone,
          at('2027-01-17T15:00:00.000Z', minute + 60 * 2).toISOString(),
        ],
      );
    await dispatcherAt(MONDAY).runOnce();
    const step = (await planOf(lead.lead_id)).steps[0];
    expect(step).toMatchObject({ status: 'pending', reason: 'FL allows 3 texts in 24 hours' });
    expect(step.due_at).toBe('2027-01-18T17:00:00.000Z');
    expect((await textsTo(lead.phone)).filter((x) => x.body !== 'answer')).toEqual([]);
  });

  it('When a source names no cadence, then the agent’s default is followed; a lead booked at delivery is greeted as ever; Listen shows where it would enroll', async () => {
    const src = await seedSource(t.db, `Default Agent ${++n}`, 'America/New_York');
    const cadence = (
      await adminInject(t.app, 'POST', `/agents/${src.agent_id}/cadences`, { name: 'Default', steps: PLAN })
    ).json();
    await adminInject(t.app, 'PATCH', `/agents/${src.agent_id}`, { default_cadence_id: cadence.cadence_id });
    const plain = await newLead(src.token);
    const booked = await newLead(src.token, { scheduled_at: '2027-01-20T21:30:00Z' });
    await dispatcherAt(MONDAY).runOnce();
    expect((await planOf(plain.lead_id)).name).toBe('Default');
    expect(await planOf(booked.lead_id)).toBeNull();
    expect(await tasksOf(booked.lead_id)).toEqual(['open']);
    const listened = await deliver(t.app, src.token, {
      listen: true,
      name: 'Lena Listen',
      phone: '2125550999',
    });
    expect(listened.statusCode).toBe(200);
    const { rows } = await t.db.query<{ would_fire: Record<string, unknown> }>(
      'SELECT would_fire FROM listen_samples WHERE source_id = $1',
      [src.source_id],
    );
    expect(rows[0]?.would_fire).toMatchObject({
      outcome: 'create',
      call_task: false,
      would_enroll: { cadence_id: cadence.cadence_id, name: 'Default' },
    });
    const { rows: runs } = await t.db.query('SELECT 1 FROM cadence_runs WHERE agent_id = $1', [src.agent_id]);
    expect(runs).toHaveLength(1);
  });
});

describe('cadences: a lead moved to another producer', () => {
  it('When an agency’s lead is given to a producer from the fallback queue, then it keeps its plan, worked by the new owner', async () => {
    const made = async (url: string, body: unknown, status = 201) => {
      const res = await adminInject(t.app, 'POST', url, body);
      expect(res.statusCode, res.body).toBe(status);
      return res.json();
    };
    const fallback = await made('/agents', { name: `Fallback ${++n}`, timezone: 'America/Chicago' });
    const producer = await made('/agents', { name: `Producer ${n}`, timezone: 'America/Chicago' });
    const agency = await made('/agencies', { name: `Agency ${n}`, fallback_agent_id: fallback.agent_id });
    const member = `/agencies/${agency.agency_id}/members/${producer.agent_id}`;
    const paused = await adminInject(t.app, 'PUT', member, { licensed_states: ['TX'], active: false });
    expect(paused.statusCode).toBe(201);
    const source = await made(`/agencies/${agency.agency_id}/sources`, { name: 'Agency source' });
    const cadence = await made(`/agents/${fallback.agent_id}/cadences`, { name: 'Agency plan', steps: PLAN });
    const set = await adminInject(t.app, 'PATCH', `/sources/${source.source_id}`, {
      cadence_id: cadence.cadence_id,
    });
    expect(set.statusCode).toBe(200);
    const lead = (
      await deliver(t.app, source.token, { name: 'Tex Queue', phone: '5125550177', state: 'TX' })
    ).json();
    expect(lead.agent_id).toBe(fallback.agent_id);
    await dispatcherAt(MONDAY).runOnce();
    expect((await planOf(lead.lead_id)).name).toBe('Agency plan');
    await adminInject(t.app, 'PUT', member, { licensed_states: ['TX'] });
    const assigned = await made(
      `/agencies/${agency.agency_id}/fallback-queue/${lead.lead_id}/assign`,
      {
        agent_id: producer.agent_id,
      },
      200,
    );
    expect(assigned.agent_id ?? producer.agent_id).toBe(producer.agent_id);
    await roundsAt(at(MONDAY, 1440));
    const plan = await planOf(lead.lead_id);
    expect(plan).toMatchObject({ name: 'Agency plan', status: 'active' });
    expect(plan.steps[2]).toMatchObject({ status: 'done', reason: 'in the dial queue' });
    const queue = (await adminInject(t.app, 'GET', `/agents/${producer.agent_id}/dial-queue`)).json().tasks;
    expect(queue.map((q: { lead_id: string }) => q.lead_id)).toContain(lead.lead_id);
    const { rows } = await t.db.query('SELECT agent_id FROM cadence_runs WHERE lead_id = $1', [lead.lead_id]);
    expect(rows).toEqual([{ agent_id: producer.agent_id }]);
  });
});

describe('cadences: what stops a plan', () => {
  /** A lead enrolled and its first call made, then `stop` done; the plan as it stands after. */
  async function stoppedBy(
    stop: (lead: { lead_id: string; phone: string }, a: { agent_id: string }) => Promise<unknown>,
  ) {
    const a = await agentWithCadence();
    const lead = await newLead(a.token);
    await dispatcherAt(MONDAY).runOnce();
    await stop(lead, a);
    await dispatcherAt(at(MONDAY, 3000)).runOnce();
    return { plan: await planOf(lead.lead_id), lead };
  }
  const stoppedSteps = (plan: { steps: Array<{ status: string }> }) => plan.steps.map((s) => s.status);

  it('When the prospect replies, then the plan stops at once, its steps still to do canceled and no more texts made', async () => {
    const { plan, lead } = await stoppedBy(async (l) => {
      expect((await inbound(`+1${l.phone}`, 'Who is this?')).statusCode).toBe(200);
    });
    expect(plan).toMatchObject({ status: 'stopped', stopped_reason: 'replied' });
    expect(stoppedSteps(plan)).toEqual(['done', 'canceled', 'canceled', 'canceled']);
    expect(await textsTo(lead.phone)).toEqual([]);
  });

  it('When the prospect replies STOP, then the reason is opted_out', async () => {
    const { plan } = await stoppedBy(async (l) => inbound(`+1${l.phone}`, 'STOP'));
    expect(plan).toMatchObject({ status: 'stopped', stopped_reason: 'opted_out' });
  });

  it.each([
    ['do_not_contact', (id: string) => adminInject(t.app, 'POST', `/leads/${id}/do-not-contact`)],
    [
      'reached',
      (id: string) => adminInject(t.app, 'POST', `/leads/${id}/call-outcome`, { outcome: 'reached' }),
    ],
    [
      'status',
      (id: string) => adminInject(t.app, 'POST', `/leads/${id}/status`, { status: 'Not interested' }),
    ],
    ['agent', (id: string) => adminInject(t.app, 'POST', `/leads/${id}/cadence/stop`)],
  ])('When %s happens, then the plan stops with that reason', async (reason, act) => {
    const { plan } = await stoppedBy(async (l) => {
      const res = await act(l.lead_id);
      expect(res.statusCode).toBe(200);
    });
    expect(plan).toMatchObject({ status: 'stopped', stopped_reason: reason });
    expect(stoppedSteps(plan).slice(1)).toEqual(['canceled', 'canceled', 'canceled']);
  });

  it('When a repeat delivery books an appointment, then the plan stops with appointment', async () => {
    const a = await agentWithCadence();
    const lead = await newLead(a.token);
    await dispatcherAt(MONDAY).runOnce();
    await deliver(t.app, a.token, {
      name: 'Carol Prospect',
      phone: lead.phone,
      scheduled_at: '2027-01-21T16:00:00Z',
    });
    await dispatcherAt(at(MONDAY, 1)).runOnce();
    expect(await planOf(lead.lead_id)).toMatchObject({ status: 'stopped', stopped_reason: 'appointment' });
  });

  it('When the prospect books through the scheduler the source takes events from, then the plan stops with appointment', async () => {
    const a = await agentWithCadence();
    // The scheduler's invitee (test/fixtures/booking/invitee-created.json) as the vendor sent her first.
    const lead = await newLead(a.token, {
      name: 'Maria Gonzalez',
      email: 'maria.gonzalez@example.com',
      phone: '3125550148',
    });
    await dispatcherAt(MONDAY).runOnce();
    expect((await planOf(lead.lead_id)).status).toBe('active');
    const booked = await t.app.inject({
      method: 'POST',
      url: `${GATEWAY}/v/${a.token}`,
      headers: { 'content-type': 'application/json' },
      payload: bookingFixtureText('invitee-created'),
    });
    expect(booked.statusCode, booked.body).toBe(200);
    expect(booked.json().lead_id).toBe(lead.lead_id);
    await dispatcherAt(at(MONDAY, 1)).runOnce();
    expect(await planOf(lead.lead_id)).toMatchObject({ status: 'stopped', stopped_reason: 'appointment' });
  });

  it('When a text step’s text waits in the queue and the prospect replies, then it is never sent and its step shows canceled', async () => {
    const a = await agentWithCadence([{ after_minutes: 60, action: 'text', body: 'Hi {first_name}' }]);
    const lead = await newLead(a.token);
    await testDispatcher(t.db, [0], { now: () => at(MONDAY, -60) }).runOnce();
    // The step's round alone: its text is written to the queue, not yet sent.
    const kind = cadenceKind({ batch: 50 });
    await kind.handle(t.db, await runJobs.claim(t.db, 50, 30_000, at(MONDAY)), at(MONDAY));
    expect((await textsTo(lead.phone)).map((x) => x.status)).toEqual(['scheduled']);
    await inbound(`+1${lead.phone}`, 'Not now, thanks');
    await dispatcherAt(at(MONDAY, 1)).runOnce();
    expect(await textsTo(lead.phone)).toEqual([
      { body: 'Hi Carol', status: 'suppressed', error: 'cadence stopped: replied' },
    ]);
    // Its one step was done (its text made), so the plan had completed; the text still never goes.
    const plan = await planOf(lead.lead_id);
    expect(plan.status).toBe('completed');
    expect(plan.steps[0]).toMatchObject({ status: 'canceled', reason: 'cadence stopped: replied' });
  });
});

describe('cadences: each step done once', () => {
  it('When two dispatchers work the same due steps at once, then each call task and text is made once', async () => {
    const leads = [];
    const a = await agentWithCadence([
      { after_minutes: 60, action: 'call' },
      { after_minutes: 60, action: 'text', body: 'Hi {first_name}' },
    ]);
    for (let i = 0; i < 6; i++) leads.push(await newLead(a.token));
    // The fan-out enrolls; the steps fall due a minute later, when two workers go at them together.
    const fanOnly = testDispatcher(t.db, [0], { now: () => at(MONDAY, -60) });
    await fanOnly.runOnce();
    await Promise.all([roundsAt(MONDAY), roundsAt(MONDAY)]);
    expect(leads.length).toBe(6);
    for (const lead of leads) {
      expect((await planOf(lead.lead_id)).status).toBe('completed');
      expect(await tasksOf(lead.lead_id)).toEqual(['open']);
      expect((await textsTo(lead.phone)).length).toBe(1);
    }
  });

  it('When a worker dies holding steps, then another does them once its lease ends, and the dead one coming back makes nothing twice', async () => {
    const a = await agentWithCadence([{ after_minutes: 60, action: 'text', body: 'Once, {first_name}' }]);
    const lead = await newLead(a.token);
    await testDispatcher(t.db, [0], { now: () => at(MONDAY, -60) }).runOnce();
    const kind = cadenceKind({ batch: 50 });
    const dead = await runJobs.claim(t.db, 50, 30_000, at(MONDAY));
    expect(dead.some((s) => s.lead_id === lead.lead_id)).toBe(true);
    // Within the lease nobody else takes them.
    expect((await runJobs.claim(t.db, 50, 30_000, at(MONDAY, 0.2))).length).toBe(0);
    const taken = await runJobs.claim(t.db, 50, 30_000, at(MONDAY, 1));
    await kind.handle(t.db, taken, at(MONDAY, 1));
    await kind.handle(t.db, dead, at(MONDAY, 1));
    expect((await textsTo(lead.phone)).length).toBe(1);
    expect((await planOf(lead.lead_id)).steps[0].status).not.toBe('canceled');
  });
});
