import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addDestination, adminInject, createTestApp, type TestApp } from './support/app.ts';
import { testDispatcher } from './support/automations.ts';
import { TEST_DATABASE_URL } from './support/db.ts';
import { countRows, deliver, deliverInParallel } from './support/deliver.ts';
import { startGatewayProcess } from './support/processes.ts';

let t: TestApp;
let baseUrl: string;

beforeAll(async () => {
  t = await createTestApp();
  baseUrl = await t.app.listen({ port: 0, host: '127.0.0.1' });
});
afterAll(() => t.close());

type Json = Record<string, unknown>;
const api = async (method: 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE', url: string, body?: unknown) => {
  const res = await adminInject(t.app, method, url, body);
  return { status: res.statusCode, body: (res.body ? res.json() : null) as Json };
};

async function newAgent(name: string): Promise<string> {
  const res = await api('POST', '/agents', { name, timezone: 'America/Chicago' });
  expect(res.status).toBe(201);
  return res.body.agent_id as string;
}

interface Producer {
  states: string[];
  weight?: number;
  daily_cap?: number | null;
  active?: boolean;
}

/** An agency with a fallback producer and the given producers (by name), and one agency source. */
async function newAgency(producers: Record<string, Producer>, extra: Json = {}) {
  const boss = await newAgent('Boss');
  const created = await api('POST', '/agencies', {
    name: 'Lone Star Agency',
    fallback_agent_id: boss,
    ...extra,
  });
  expect(created.status).toBe(201);
  const agencyId = created.body.agency_id as string;
  const ids: Record<string, string> = {};
  for (const [name, p] of Object.entries(producers)) {
    ids[name] = await newAgent(name);
    const put = await api('PUT', `/agencies/${agencyId}/members/${ids[name]}`, {
      licensed_states: p.states,
      ...(p.weight ? { weight: p.weight } : {}),
      ...(p.daily_cap !== undefined ? { daily_cap: p.daily_cap } : {}),
      ...(p.active !== undefined ? { active: p.active } : {}),
    });
    expect(put.status).toBe(201);
  }
  const source = await api('POST', `/agencies/${agencyId}/sources`, { name: 'Vendor A' });
  expect(source.status).toBe(201);
  expect(source.body).toMatchObject({ agency_id: agencyId, agent_id: boss });
  const nameOf = (id: unknown) => (id === boss ? 'boss' : Object.keys(ids).find((n) => ids[n] === id));
  return {
    agencyId,
    boss,
    ids,
    token: source.body.token as string,
    sourceId: source.body.source_id as string,
    nameOf,
  };
}

const lead = async (leadId: unknown) => (await api('GET', `/leads/${String(leadId)}`)).body;

describe('the routing chain', () => {
  it('When the prospect’s state is given as a code, a name, by ZIP or by area code, then a producer licensed there gets the lead', async () => {
    const a = await newAgency({ tex: { states: ['TX'] }, ohio: { states: ['oh'] } });
    const cases: Array<[Json, string, string]> = [
      [{ name: 'Code', state: 'TX' }, 'tex', 'TX'],
      [{ name: 'Name', state: 'Ohio' }, 'ohio', 'OH'],
      [{ name: 'Zip', zipcode: '73301' }, 'tex', 'TX'],
      [{ name: 'Area', phone: '216-555-0101' }, 'ohio', 'OH'],
    ];
    for (const [body, producer, state] of cases) {
      const res = await deliver(t.app, a.token, body);
      expect(res.statusCode, JSON.stringify(body)).toBe(200);
      expect(a.nameOf(res.json().agent_id)).toBe(producer);
      const stored = await lead(res.json().lead_id);
      const other = producer === 'tex' ? a.ids.ohio : a.ids.tex;
      expect(stored.routing).toMatchObject({
        rule: 'rotation',
        agency_id: a.agencyId,
        state,
        skipped: [{ agent_id: other, reason: 'not_licensed' }],
      });
      const history = stored.history as Array<{ event: string; details: Json }>;
      expect(history[0]?.details.routing).toMatchObject({ rule: 'rotation', state });
    }
  });

  it('When nobody is licensed in the state, or the state is unknown, then the fallback producer gets it, with the reasons', async () => {
    const a = await newAgency({ tex: { states: ['TX'] }, paused: { states: ['CA'], active: false } });
    const california = await deliver(t.app, a.token, { name: 'West', state: 'CA' });
    expect(california.json().agent_id).toBe(a.boss);
    expect((await lead(california.json().lead_id)).routing).toMatchObject({
      rule: 'fallback',
      state: 'CA',
      skipped: [
        { agent_id: a.ids.tex, reason: 'not_licensed' },
        { agent_id: a.ids.paused, reason: 'inactive' },
      ],
    });
    const unknown = await deliver(t.app, a.token, { name: 'Nowhere', email: 'nowhere@example.com' });
    expect(unknown.json().agent_id).toBe(a.boss);
    expect((await lead(unknown.json().lead_id)).routing).toMatchObject({
      rule: 'fallback',
      state: null,
      skipped: [],
    });
    const queue = await api('GET', `/agencies/${a.agencyId}/fallback-queue`);
    expect((queue.body.leads as Json[]).map((l) => l.name)).toEqual(['Nowhere', 'West']);
  });

  it('When 30 leads arrive at once for 3 producers, then each gets 10 ± 1 and the counts say so', async () => {
    const a = await newAgency({ p1: { states: ['TX'] }, p2: { states: ['TX'] }, p3: { states: ['TX'] } });
    const results = await deliverInParallel([baseUrl], a.token, 30, (i) => ({
      name: `Rush ${i}`,
      phone: `51255501${String(i).padStart(2, '0')}`,
      state: 'TX',
    }));
    expect(results.map((r) => r.status)).toEqual(Array(30).fill(200));
    const counts = countBy(results.map((r) => a.nameOf(r.body.agent_id) ?? '?'));
    for (const name of ['p1', 'p2', 'p3']) expect(Math.abs((counts[name] ?? 0) - 10)).toBeLessThanOrEqual(1);
    const members = (await api('GET', `/agencies/${a.agencyId}`)).body.members as Json[];
    expect(members.map((m) => m.assigned_today).reduce((x, y) => Number(x) + Number(y), 0)).toBe(30);
  });

  it('When weights are 2:1, then 30 leads split 20 and 10', async () => {
    const a = await newAgency({ heavy: { states: ['TX'], weight: 2 }, light: { states: ['TX'] } });
    const given: string[] = [];
    for (let i = 0; i < 30; i++) {
      const res = await deliver(t.app, a.token, { name: `W ${i}`, email: `w${i}@example.com`, state: 'TX' });
      given.push(a.nameOf(res.json().agent_id) ?? '?');
    }
    expect(countBy(given)).toEqual({ heavy: 20, light: 10 });
  });

  it('When a contact comes again, then it stays with its producer, is merged, and takes no turn', async () => {
    const a = await newAgency({ p1: { states: ['TX'] }, p2: { states: ['TX'] } });
    const first = (
      await deliver(t.app, a.token, { name: 'Repeat', phone: '5125550150', state: 'TX' })
    ).json();
    const again = await deliver(t.app, a.token, { name: 'Repeat', phone: '(512) 555-0150', city: 'Austin' });
    expect(again.statusCode).toBe(200);
    expect(again.json()).toMatchObject({ lead_id: first.lead_id, agent_id: first.agent_id, resubmit: true });
    const history = (await lead(first.lead_id)).history as Array<{ event: string; details: Json }>;
    expect(history.map((h) => h.event)).toEqual(['created', 'merged']);
    expect(history[1]?.details.routing).toMatchObject({ rule: 'owner' });
    // The next new contact goes to the other producer: the repeat took no turn.
    const next = (await deliver(t.app, a.token, { name: 'Next', phone: '5125550151', state: 'TX' })).json();
    expect(next.agent_id).not.toBe(first.agent_id);
  });

  it('When a producer is paused or at its daily cap, then it is skipped, and it is back once reactivated', async () => {
    const a = await newAgency({ p1: { states: ['TX'] }, p2: { states: ['TX'], daily_cap: 1 } });
    const send = async (i: number) =>
      (await deliver(t.app, a.token, { name: `C ${i}`, email: `cap${i}@example.com`, state: 'TX' })).json();
    await api('PUT', `/agencies/${a.agencyId}/members/${a.ids.p1}`, {
      licensed_states: ['TX'],
      active: false,
    });
    const paused = await send(1);
    expect(a.nameOf(paused.agent_id)).toBe('p2');
    expect((await lead(paused.lead_id)).routing).toMatchObject({
      skipped: [{ agent_id: a.ids.p1, reason: 'inactive' }],
    });
    const capped = await send(2);
    expect(capped.agent_id).toBe(a.boss);
    expect((await lead(capped.lead_id)).routing).toMatchObject({
      skipped: [
        { agent_id: a.ids.p1, reason: 'inactive' },
        { agent_id: a.ids.p2, reason: 'daily_cap' },
      ],
    });
    const back = await api('PUT', `/agencies/${a.agencyId}/members/${a.ids.p1}`, { licensed_states: ['TX'] });
    expect(back).toMatchObject({ status: 200, body: { active: true, assigned_today: 0 } });
    expect(a.nameOf((await send(3)).agent_id)).toBe('p1');
    expect(a.nameOf((await send(4)).agent_id)).toBe('p1');
    // The agency's next day: the cap counts again from 0.
    await t.db.query('UPDATE agency_members SET assigned_day = assigned_day - 1 WHERE agent_id = $1', [
      a.ids.p2,
    ]);
    const members = (await api('GET', `/agencies/${a.agencyId}`)).body.members as Json[];
    expect(members.map((m) => [a.nameOf(m.agent_id), m.assigned_today])).toEqual([
      ['p1', 2],
      ['p2', 0],
    ]);
    const next = [a.nameOf((await send(5)).agent_id), a.nameOf((await send(6)).agent_id)];
    expect(next.sort()).toEqual(['p1', 'p2']);
  });

  it('When a Listen sample comes in, then it says who would get the lead and the rotation does not move', async () => {
    const a = await newAgency({ p1: { states: ['TX'] }, p2: { states: ['TX'] } });
    const listen = await deliver(t.app, a.token, { name: 'Preview', state: 'TX', listen: true });
    expect(listen.statusCode).toBe(200);
    expect(listen.json()).not.toHaveProperty('agent_id');
    const samples = (await api('GET', `/sources/${a.sourceId}/samples`)).body.samples as Json[];
    expect(samples[0]?.would_route).toEqual({ agent_id: a.ids.p1, rule: 'rotation' });
    await deliver(t.app, a.token, { name: 'Preview again', state: 'TX', listen: true });
    const members = (await api('GET', `/agencies/${a.agencyId}`)).body.members as Json[];
    expect(members.map((m) => m.assigned_today)).toEqual([0, 0]);
    expect((await deliver(t.app, a.token, { name: 'Live', state: 'TX' })).json().agent_id).toBe(a.ids.p1);
  });
});

// Several gateway processes share one database only on a PostgreSQL server.
describe.runIf(TEST_DATABASE_URL)('two gateway processes on one PostgreSQL', () => {
  it('When 30 leads for 3 producers hit both processes at once, then each producer gets 10 ± 1', async () => {
    const a = await newAgency({ p1: { states: ['TX'] }, p2: { states: ['TX'] }, p3: { states: ['TX'] } });
    const env = { DATABASE_URL: t.testDb.url ?? '', ADMIN_API_KEY: 'k', LEADGATE_DEMO: '0' };
    const gateways = await Promise.all([startGatewayProcess(env), startGatewayProcess(env)]);
    try {
      const results = await deliverInParallel(
        gateways.map((g) => g.url),
        a.token,
        30,
        (i) => ({ name: `Split ${i}`, email: `split${i}@example.com`, zipcode: '78701' }),
      );
      expect(results.map((r) => r.status)).toEqual(Array(30).fill(200));
      const counts = countBy(results.map((r) => a.nameOf(r.body.agent_id) ?? '?'));
      for (const name of ['p1', 'p2', 'p3'])
        expect(Math.abs((counts[name] ?? 0) - 10)).toBeLessThanOrEqual(1);
    } finally {
      await Promise.all(gateways.map((g) => g.stop()));
    }
  }, 60_000);
});

describe('the follow-up follows the producer', () => {
  it('When a lead is routed, then its first text is signed with the producer’s template and partner events carry the producer', async () => {
    const a = await newAgency({ p1: { states: ['TX'] }, p2: { states: ['TX'] } });
    for (const [name, id] of Object.entries(a.ids)) {
      await api('PATCH', `/agents/${id}`, { sms_template: `Hi {first_name}, it is ${name} of Lone Star` });
    }
    expect((await addDestination(t.app, a.sourceId, { url: 'http://127.0.0.1:9/partner' })).statusCode).toBe(
      201,
    );
    const sent = (
      await deliver(t.app, a.token, { name: 'Tex Ted', phone: '5125550165', state: 'TX', sms_consent: true })
    ).json();
    await testDispatcher(t.db).runOnce();
    const producer = a.nameOf(sent.agent_id) ?? '?';
    const texts = await t.db.query<{ agent_id: string; body: string }>(
      'SELECT agent_id, body FROM sms_messages WHERE lead_id = $1',
      [sent.lead_id],
    );
    expect(texts.rows).toEqual([{ agent_id: sent.agent_id, body: `Hi Tex, it is ${producer} of Lone Star` }]);
    const events = await t.db.query<{ agent_id: string; body: { data: { lead: { agent_id: string } } } }>(
      `SELECT agent_id, body FROM webhook_deliveries WHERE lead_id = $1 AND topic = 'lead.created'`,
      [sent.lead_id],
    );
    expect(events.rows.map((e) => [e.agent_id, e.body.data.lead.agent_id])).toEqual([
      [sent.agent_id, sent.agent_id],
    ]);
  });

  it('When a lead is routed, then its call task is in the chosen producer’s queue only, and a colleague’s key cannot read it', async () => {
    const a = await newAgency({ p1: { states: ['TX'] }, p2: { states: ['TX'] } });
    const first = (
      await deliver(t.app, a.token, { name: 'Dial Me', phone: '5125550160', state: 'TX' })
    ).json();
    await testDispatcher(t.db).runOnce();
    const queue = async (agentId: string) =>
      ((await api('GET', `/agents/${agentId}/dial-queue`)).body.tasks as Json[]).map((task) => task.lead_id);
    expect(await queue(first.agent_id)).toEqual([first.lead_id]);
    const colleague = first.agent_id === a.ids.p1 ? a.ids.p2 : a.ids.p1;
    expect(await queue(colleague ?? '')).toEqual([]);

    const key = (await api('POST', `/agents/${colleague}/keys`)).body.key as string;
    const asColleague = (url: string) =>
      t.app.inject({ method: 'GET', url: `/v1/admin${url}`, headers: { authorization: `Bearer ${key}` } });
    expect((await asColleague(`/leads/${first.lead_id}`)).json()).toMatchObject({
      error_code: 'LEAD_NOT_FOUND',
    });
    expect((await asColleague(`/agencies/${a.agencyId}`)).statusCode).toBe(404);
    const bossKey = (await api('POST', `/agents/${a.boss}/keys`)).body.key as string;
    const asBoss = await t.app.inject({
      method: 'GET',
      url: `/v1/admin/agencies/${a.agencyId}`,
      headers: { authorization: `Bearer ${bossKey}` },
    });
    expect(asBoss.statusCode).toBe(200);
  });
});

describe('the claim timer', () => {
  it('When nobody records a call in time, then the lead moves on twice, then to the fallback producer, exactly once each', async () => {
    const a = await newAgency(
      { p1: { states: ['TX'] }, p2: { states: ['TX'] }, p3: { states: ['TX'] } },
      { claim_minutes: 5 },
    );
    const subscribed = await addDestination(t.app, a.sourceId, {
      url: 'http://127.0.0.1:9/partner',
      events: ['lead.reassigned'],
    });
    expect(subscribed.statusCode).toBe(201);
    const first = (
      await deliver(t.app, a.token, { name: 'Unclaimed', phone: '5125550170', state: 'TX' })
    ).json();
    // Either dispatcher may hand the message on before the test looks: count it where it is.
    const reassignedEvents = async () =>
      (await countRows(t.db, 'outbox', "topic = 'lead.reassigned' AND lead_id = $1", [first.lead_id])) +
      (await countRows(t.db, 'webhook_deliveries', "topic = 'lead.reassigned' AND lead_id = $1", [
        first.lead_id,
      ]));
    const start = Date.now();
    const day = 24 * 3600_000;
    // A day later the claim time has passed whatever the hour: two dispatchers look at once.
    const at = (days: number) => testDispatcher(t.db, [0], { now: () => new Date(start + days * day) });
    await at(0).runOnce();
    expect((await at(0.001).runOnce()).reassigned).toBe(0);
    const rounds = await Promise.all([at(1).runOnce(), at(1).runOnce()]);
    expect(rounds.map((r) => r.reassigned).sort()).toEqual([0, 1]);
    const holder = async () => (await lead(first.lead_id)) as Json & { routing: Json; history: Json[] };
    let now = await holder();
    expect(now.routing).toMatchObject({ rule: 'reassigned', tried: [first.agent_id, now.agent_id] });
    expect(now.agent_id).not.toBe(first.agent_id);
    expect(
      await countRows(t.db, 'dial_tasks', 'lead_id = $1 AND agent_id = $2', [first.lead_id, now.agent_id]),
    ).toBe(1);
    expect(await reassignedEvents()).toBe(1);

    expect((await at(2).runOnce()).reassigned).toBe(1);
    now = await holder();
    expect((now.routing.tried as string[]).length).toBe(3);
    expect((await at(3).runOnce()).reassigned).toBe(1);
    now = await holder();
    expect(now).toMatchObject({ agent_id: a.boss, routing: { rule: 'fallback' } });
    expect((await at(4).runOnce()).reassigned).toBe(0);
    expect(now.history.filter((h) => h.event === 'reassigned')).toHaveLength(3);
  });

  it('When the producer records a call outcome, then the lead stays with them', async () => {
    const a = await newAgency({ p1: { states: ['TX'] }, p2: { states: ['TX'] } }, { claim_minutes: 5 });
    const first = (
      await deliver(t.app, a.token, { name: 'Worked', phone: '5125550171', state: 'TX' })
    ).json();
    await testDispatcher(t.db).runOnce();
    const tasks = (await api('GET', `/agents/${first.agent_id}/dial-queue`)).body.tasks as Json[];
    const outcome = await api(
      'POST',
      `/agents/${first.agent_id}/dial-queue/${String(tasks[0]?.task_id)}/outcome`,
      {
        outcome: 'no_answer',
      },
    );
    expect(outcome.status).toBe(200);
    const later = testDispatcher(t.db, [0], { now: () => new Date(Date.now() + 2 * 24 * 3600_000) });
    expect((await later.runOnce()).reassigned).toBe(0);
    expect((await lead(first.lead_id)).agent_id).toBe(first.agent_id);
  });

  it('When the producer marks the lead "do not contact", then no colleague is given it to call', async () => {
    const a = await newAgency({ p1: { states: ['TX'] }, p2: { states: ['TX'] } }, { claim_minutes: 5 });
    const first = (
      await deliver(t.app, a.token, { name: 'Stop Calling', phone: '5125550172', state: 'TX' })
    ).json();
    expect((await api('POST', `/leads/${first.lead_id}/do-not-contact`)).status).toBe(200);
    const later = testDispatcher(t.db, [0], { now: () => new Date(Date.now() + 2 * 24 * 3600_000) });
    expect((await later.runOnce()).reassigned).toBe(0);
    expect((await lead(first.lead_id)).agent_id).toBe(first.agent_id);
  });
});

describe('the agency admin API refuses bad input', () => {
  it('When a request is wrong, then it gets the specified error and changes nothing', async () => {
    const a = await newAgency({ p1: { states: ['TX'] } });
    const someone = await newAgent('Someone');
    const unknown = '7f1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d';
    const cases: Array<
      [string, 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE', string, unknown, number, string]
    > = [
      ['no fallback', 'POST', '/agencies', { name: 'X' }, 400, 'VALIDATION_ERROR'],
      [
        'a fallback not a UUID',
        'POST',
        '/agencies',
        { name: 'X', fallback_agent_id: 'x' },
        400,
        'VALIDATION_ERROR',
      ],
      [
        'an unknown fallback',
        'POST',
        '/agencies',
        { name: 'X', fallback_agent_id: unknown },
        404,
        'AGENT_NOT_FOUND',
      ],
      [
        'a bad zone',
        'POST',
        '/agencies',
        { name: 'X', fallback_agent_id: someone, timezone: 'Mars/Base' },
        400,
        'VALIDATION_ERROR',
      ],
      [
        'a claim time of 0',
        'POST',
        '/agencies',
        { name: 'X', fallback_agent_id: someone, claim_minutes: 0 },
        400,
        'VALIDATION_ERROR',
      ],
      ['an agency id not a UUID', 'GET', '/agencies/nope', undefined, 404, 'AGENCY_NOT_FOUND'],
      ['an unknown agency', 'GET', `/agencies/${unknown}`, undefined, 404, 'AGENCY_NOT_FOUND'],
      [
        'a negative claim time',
        'PATCH',
        `/agencies/${a.agencyId}`,
        { claim_minutes: -1 },
        400,
        'VALIDATION_ERROR',
      ],
      [
        'an unknown new fallback',
        'PATCH',
        `/agencies/${a.agencyId}`,
        { fallback_agent_id: unknown },
        404,
        'AGENT_NOT_FOUND',
      ],
      ['no states', 'PUT', `/agencies/${a.agencyId}/members/${someone}`, {}, 400, 'VALIDATION_ERROR'],
      [
        'a made-up state',
        'PUT',
        `/agencies/${a.agencyId}/members/${someone}`,
        { licensed_states: ['ZZ'] },
        400,
        'VALIDATION_ERROR',
      ],
      [
        'a territory',
        'PUT',
        `/agencies/${a.agencyId}/members/${someone}`,
        { licensed_states: ['PR'] },
        400,
        'VALIDATION_ERROR',
      ],
      [
        'a state name',
        'PUT',
        `/agencies/${a.agencyId}/members/${someone}`,
        { licensed_states: ['Texas'] },
        400,
        'VALIDATION_ERROR',
      ],
      [
        'weight 0',
        'PUT',
        `/agencies/${a.agencyId}/members/${someone}`,
        { licensed_states: ['TX'], weight: 0 },
        400,
        'VALIDATION_ERROR',
      ],
      [
        'weight 1.5',
        'PUT',
        `/agencies/${a.agencyId}/members/${someone}`,
        { licensed_states: ['TX'], weight: 1.5 },
        400,
        'VALIDATION_ERROR',
      ],
      [
        'cap 0',
        'PUT',
        `/agencies/${a.agencyId}/members/${someone}`,
        { licensed_states: ['TX'], daily_cap: 0 },
        400,
        'VALIDATION_ERROR',
      ],
      [
        'an agent id not a UUID',
        'PUT',
        `/agencies/${a.agencyId}/members/nope`,
        { licensed_states: ['TX'] },
        400,
        'INVALID_AGENT_IDENTIFIER',
      ],
      [
        'an unknown agent',
        'PUT',
        `/agencies/${a.agencyId}/members/${unknown}`,
        { licensed_states: ['TX'] },
        404,
        'AGENT_NOT_FOUND',
      ],
      ['an agent id not a UUID', 'GET', '/agents/nope/agencies', undefined, 400, 'INVALID_AGENT_IDENTIFIER'],
      [
        'a queue of an unknown agency',
        'GET',
        `/agencies/${unknown}/fallback-queue`,
        undefined,
        404,
        'AGENCY_NOT_FOUND',
      ],
      [
        'a member not there',
        'DELETE',
        `/agencies/${a.agencyId}/members/${someone}`,
        undefined,
        404,
        'NOT_FOUND',
      ],
      ['a source without a name', 'POST', `/agencies/${a.agencyId}/sources`, {}, 400, 'VALIDATION_ERROR'],
      [
        'an assign without an agent',
        'POST',
        `/agencies/${a.agencyId}/fallback-queue/${unknown}/assign`,
        {},
        400,
        'VALIDATION_ERROR',
      ],
      [
        'an assign of a lead not queued',
        'POST',
        `/agencies/${a.agencyId}/fallback-queue/${unknown}/assign`,
        { agent_id: a.ids.p1 },
        404,
        'LEAD_NOT_FOUND',
      ],
    ];
    for (const [what, method, url, body, status, code] of cases) {
      const res = await api(method, url, body);
      expect([res.status, res.body.error_code], what).toEqual([status, code]);
    }
    const members = (await api('GET', `/agencies/${a.agencyId}`)).body.members as Json[];
    expect(members.map((m) => m.agent_id)).toEqual([a.ids.p1]);
  });

  it('When a lead of the fallback queue is given by hand, then only a producer licensed in its state may take it', async () => {
    const a = await newAgency({ tex: { states: ['TX'], daily_cap: 1 }, ohio: { states: ['OH'] } });
    await deliver(t.app, a.token, { name: 'Takes the cap', state: 'TX' });
    const queued = (
      await deliver(t.app, a.token, { name: 'Queued', phone: '5125550180', state: 'TX' })
    ).json();
    expect(queued.agent_id).toBe(a.boss);
    const assign = (agentId: string) =>
      api('POST', `/agencies/${a.agencyId}/fallback-queue/${String(queued.lead_id)}/assign`, {
        agent_id: agentId,
      });
    expect((await assign(a.ids.ohio ?? '')).status).toBe(400);
    const taken = await assign(a.ids.tex ?? '');
    expect(taken).toMatchObject({ status: 200, body: { rule: 'reassigned', tried: [a.boss, a.ids.tex] } });
    expect((await lead(queued.lead_id)).agent_id).toBe(a.ids.tex);
    expect((await assign(a.ids.tex ?? '')).status).toBe(404);
    const removed = await api('DELETE', `/agencies/${a.agencyId}/members/${a.ids.ohio}`);
    expect(removed.status).toBe(204);
  });
});

function countBy(names: readonly string[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const n of names) counts[n] = (counts[n] ?? 0) + 1;
  return counts;
}
