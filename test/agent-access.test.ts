import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addDestination, adminInject, createTestApp, type TestApp } from './support/app.ts';
import { testDispatcher } from './support/automations.ts';
import { deliver } from './support/deliver.ts';
import { startReceiver } from './support/receiver.ts';

/**
 * Agent-scoped access on every admin route (docs/admin-api.md, "Agent-scoped access"), on the
 * database the suite runs on (PGlite, or PostgreSQL with TEST_DATABASE_URL). The routes are read
 * from the OpenAPI document, which test/openapi.test.ts holds to the app's real routes: a new
 * admin route fails here until it says what another agent's key gets.
 */

interface World {
  agent_id: string;
  source_id: string;
  token: string;
  lead_id: string;
  sample_id: string;
  destination_id: string;
  delivery_id: string;
  key_id: string;
  key: string;
  task_id: string;
  /** A return of another lead of the agent's. */
  return_id: string;
  /** An agency the agent is the fallback producer of, a producer of it, and a lead in its fallback queue. */
  agency_id: string;
  producer_id: string;
  queued_lead_id: string;
  /** Two open invitations of the agency: one to accept, one to withdraw. */
  invitation_id: string;
  spare_invitation_id: string;
  /** The source's cadence, and a lead enrolled in it. */
  cadence_id: string;
  cadence_lead_id: string;
}

let receiver: Awaited<ReturnType<typeof startReceiver>>;
let a: World;
let b: World;

async function json<T = Record<string, unknown>>(res: { statusCode: number; body: string }, status: number) {
  expect(res.statusCode, res.body).toBe(status);
  return JSON.parse(res.body) as T;
}

/** An agent with a source, a lead with an appointment, a refused sample, a destination and a delivery, and an agent key. */
async function world(name: string): Promise<World> {
  const agent = await json<{ agent_id: string }>(
    await adminInject(t.app, 'POST', '/agents', { name, timezone: 'America/Chicago' }),
    201,
  );
  const source = await json<{ source_id: string; token: string }>(
    await adminInject(t.app, 'POST', `/agents/${agent.agent_id}/sources`, { name: `${name} source` }),
    201,
  );
  const destination = await json<{ destination_id: string }>(
    await addDestination(t.app, source.source_id, { url: `${receiver.url}/${name}` }),
    201,
  );
  const cadence = await json<{ cadence_id: string }>(
    await adminInject(t.app, 'POST', `/agents/${agent.agent_id}/cadences`, {
      name: `${name} cadence`,
      steps: [{ after_minutes: 600, action: 'call' }],
    }),
    201,
  );
  await json(
    await adminInject(t.app, 'PATCH', `/sources/${source.source_id}`, { cadence_id: cadence.cadence_id }),
    200,
  );
  const enrolled = await json<{ lead_id: string }>(
    await deliver(t.app, source.token, { name: `${name} Cadence Prospect`, phone: '(312) 555-0144' }),
    200,
  );
  const lead = await json<{ lead_id: string }>(
    await deliver(t.app, source.token, {
      name: `${name} Prospect`,
      phone: '(312) 555-0142',
      appointment_date: '2027-03-15',
      appointment_time: '10:00 AM',
    }),
    200,
  );
  await deliver(t.app, source.token, { email: 'no-name@example.com' }); // refused: becomes a sample
  // The prospect wrote: the lead has a thread, and its agent may answer at any hour.
  await t.app.inject({
    method: 'POST',
    url: '/v1/sms/inbound',
    headers: { 'content-type': 'application/json', 'x-sms-secret': SMS_SECRET },
    payload: JSON.stringify({ from: '3125550142', body: 'Hello, is this about insurance?' }),
  });
  await testDispatcher(t.db).runOnce();
  const samples = await json<{ samples: Array<{ sample_id: string }> }>(
    await adminInject(t.app, 'GET', `/sources/${source.source_id}/samples`),
    200,
  );
  const queue = await json<{ tasks: Array<{ task_id: string }> }>(
    await adminInject(t.app, 'GET', `/agents/${agent.agent_id}/dial-queue`),
    200,
  );
  const deliveries = await json<{ deliveries: Array<{ delivery_id: string }> }>(
    await adminInject(t.app, 'GET', `/agents/${agent.agent_id}/deliveries`),
    200,
  );
  const key = await json<{ key_id: string; key: string }>(
    await adminInject(t.app, 'POST', `/agents/${agent.agent_id}/keys`),
    201,
  );
  const returned = await json<{ lead_id: string }>(
    await deliver(t.app, source.token, { name: `${name} Returned`, phone: '(312) 555-0143' }),
    200,
  );
  const made = await json<{ return_id: string }>(
    await adminInject(t.app, 'POST', `/leads/${returned.lead_id}/returns`, { reason: 'wrong_number' }),
    201,
  );
  const sample = samples.samples[0];
  const delivery = deliveries.deliveries[0];
  const task = queue.tasks[0];
  if (!sample || !delivery || !task) throw new Error('expected a sample, a delivery and a call task');
  const agency = await agencyWorld(name, agent.agent_id);
  for (const owner of [`/agents/${agent.agent_id}`, `/agencies/${agency.agency_id}`]) {
    await json(
      await adminInject(t.app, 'POST', `${owner}/suppressions`, { list: 'dnc', phones: [LISTED] }),
      200,
    );
  }
  return {
    agent_id: agent.agent_id,
    source_id: source.source_id,
    token: source.token,
    lead_id: lead.lead_id,
    sample_id: sample.sample_id,
    destination_id: destination.destination_id,
    delivery_id: delivery.delivery_id,
    key_id: key.key_id,
    key: key.key,
    task_id: task.task_id,
    return_id: made.return_id,
    cadence_id: cadence.cadence_id,
    cadence_lead_id: enrolled.lead_id,
    ...agency,
  };
}

/** The agent's agency: a paused producer licensed in Texas, so a Texas lead waits in the fallback queue. */
async function agencyWorld(name: string, agentId: string) {
  const agency = await json<{ agency_id: string }>(
    await adminInject(t.app, 'POST', '/agencies', { name: `${name} agency`, fallback_agent_id: agentId }),
    201,
  );
  const producer = await json<{ agent_id: string }>(
    await adminInject(t.app, 'POST', '/agents', { name: `${name} producer` }),
    201,
  );
  const member = `/agencies/${agency.agency_id}/members/${producer.agent_id}`;
  await json(await adminInject(t.app, 'PUT', member, { licensed_states: ['TX'], active: false }), 201);
  const source = await json<{ token: string }>(
    await adminInject(t.app, 'POST', `/agencies/${agency.agency_id}/sources`, {
      name: `${name} agency source`,
    }),
    201,
  );
  const queued = await json<{ lead_id: string }>(
    await deliver(t.app, source.token, { name: `${name} Texan`, state: 'TX' }),
    200,
  );
  await json(await adminInject(t.app, 'PUT', member, { licensed_states: ['TX'] }), 200);
  const invite = async () =>
    (
      await json<{ invitation_id: string }>(
        await adminInject(t.app, 'POST', `/agencies/${agency.agency_id}/invitations`, {
          licensed_states: ['OK'],
        }),
        201,
      )
    ).invitation_id;
  return {
    agency_id: agency.agency_id,
    producer_id: producer.agent_id,
    queued_lead_id: queued.lead_id,
    invitation_id: await invite(),
    spare_invitation_id: await invite(),
  };
}

/** What each path parameter is filled with, and the 404 code it answers for another agent's. */
const PARAMS: Record<string, { of: (w: World) => string; code: string }> = {
  agent_id: { of: (w) => w.agent_id, code: 'AGENT_NOT_FOUND' },
  source_id: { of: (w) => w.source_id, code: 'SOURCE_NOT_FOUND' },
  lead_id: { of: (w) => w.lead_id, code: 'LEAD_NOT_FOUND' },
  sample_id: { of: (w) => w.sample_id, code: 'NOT_FOUND' },
  destination_id: { of: (w) => w.destination_id, code: 'DESTINATION_NOT_FOUND' },
  delivery_id: { of: (w) => w.delivery_id, code: 'DELIVERY_NOT_FOUND' },
  key_id: { of: (w) => w.key_id, code: 'KEY_NOT_FOUND' },
  task_id: { of: (w) => w.task_id, code: 'TASK_NOT_FOUND' },
  agency_id: { of: (w) => w.agency_id, code: 'AGENCY_NOT_FOUND' },
  // A suppression entry's list and value: its agent or agency, named first, gives the code.
  list: { of: () => 'dnc', code: 'NOT_FOUND' },
  entry: { of: () => LISTED, code: 'NOT_FOUND' },
  return_id: { of: (w) => w.return_id, code: 'RETURN_NOT_FOUND' },
  invitation_id: { of: (w) => w.invitation_id, code: 'INVITATION_NOT_FOUND' },
  cadence_id: { of: (w) => w.cadence_id, code: 'CADENCE_NOT_FOUND' },
  // A body's cadence: a source's, or the agent's default.
  default_cadence_id: { of: (w) => w.cadence_id, code: 'CADENCE_NOT_FOUND' },
};

/** The number on each agent's and agency's dnc list, so removing it answers 204 to its owner. */
const LISTED = '3125550199';

/** A parameter an operation fills with another of the world's records than PARAMS says. */
const PARAM_OVERRIDES: Record<string, Record<string, (w: World) => string>> = {
  assignFromFallbackQueue: { lead_id: (w) => w.queued_lead_id },
  withdrawInvitation: { invitation_id: (w) => w.spare_invitation_id },
  stopLeadCadence: { lead_id: (w) => w.cadence_lead_id },
};

/** What another agent's key gets from an operation that names the agent in its body, not its path. */
const BODY_CODES: Record<string, string> = { createAgency: 'AGENT_NOT_FOUND' };

/** A body each operation accepts, so a route that forgot the agent's scope would answer 2xx. */
const BODIES: Record<string, unknown> = {
  createAgency: (w: World) => ({ name: 'Planted agency', fallback_agent_id: w.agent_id }),
  updateAgency: { name: 'Renamed agency' },
  putAgencyMember: { licensed_states: ['IL'] },
  assignFromFallbackQueue: (w: World) => ({ agent_id: w.producer_id }),
  createAgencySource: { name: 'Planted agency source' },
  createAgent: { name: 'Intruder' },
  updateAgent: { name: 'Renamed by another agent' },
  createSource: { name: 'Planted source' },
  updateSource: { active: false },
  setMappingRules: { rules: { zz: 'name' } },
  createDestination: { kind: 'analytics', url: 'http://127.0.0.1:9/planted' },
  setAgentPassword: { password: 'correct horse battery staple' },
  recordCallOutcome: { outcome: 'no_answer' },
  setLeadStatus: { status: 'Not interested' },
  addLeadNote: { note: 'Planted note' },
  recordLeadCall: { outcome: 'no_answer' },
  addAgentSuppressions: { list: 'dnc', phones: ['3125550198'] },
  addAgencySuppressions: { list: 'litigator', emails: ['planted@example.com'] },
  returnLead: { reason: 'other' },
  decideReturn: { status: 'denied' },
  recordSale: { premium_cents: 100 },
  inviteProducer: { licensed_states: ['IL'] },
  answerLead: { body: 'Planted answer' },
  createCadence: { name: 'Planted cadence', steps: [{ after_minutes: 0, action: 'call' }] },
  updateCadence: { name: 'Renamed cadence' },
};

/** Operator-only operations: any agent key gets 403 FORBIDDEN, whoever they name. */
const OPERATOR_ONLY = new Set(['createAgent', 'setAgentPassword', 'listUnmatchedTexts']);

/** Operations that name no record: an agent key gets its own records only (checked below). */
const OWN_ONLY = new Set(['listAgents']);

/**
 * Operations whose path holds its own permission: an invitation's id, which the agency's manager
 * hands to the producer it invites. Whoever holds it joins (tested with the invitations below).
 */
const HELD_BY_ID = new Set(['acceptInvitation']);

/** Path parameters that are values, not ids: a suppression entry's list and entry. */
const VALUES = new Set(['list', 'entry']);

/** The request body's properties that hold an id (`format: uuid`), as the OpenAPI document says. */
function bodyIds(op: Operation): string[] {
  const doc = t.app.swagger() as unknown as {
    paths: Record<
      string,
      Record<string, { requestBody?: { content?: Record<string, { schema?: unknown }> } }>
    >;
  };
  const schema = doc.paths[op.path]?.[op.method.toLowerCase()]?.requestBody?.content?.['application/json']
    ?.schema as { properties?: Record<string, { format?: string }> } | undefined;
  return Object.entries(schema?.properties ?? {})
    .filter(([, p]) => p.format === 'uuid')
    .map(([name]) => name);
}

/**
 * What every table holds, as one digest a table: equal before and after a request that must
 * change nothing.
 */
async function fingerprint(): Promise<Record<string, string>> {
  const { rows: tables } = await t.db.query<{ name: string }>(
    `SELECT table_name AS name FROM information_schema.tables
      WHERE table_schema = current_schema() AND table_type = 'BASE TABLE' ORDER BY 1`,
  );
  const sql = tables
    .map(
      ({ name }) =>
        `SELECT '${name}' AS name, md5(COALESCE(string_agg(x::text, '|' ORDER BY x::text), '')) AS digest FROM "${name}" x`,
    )
    .join(' UNION ALL ');
  const { rows } = await t.db.query<{ name: string; digest: string }>(sql);
  return Object.fromEntries(rows.map((r) => [r.name, r.digest]));
}

interface Operation {
  method: 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE';
  path: string;
  operationId: string;
}

const LAST = ['deleteCadence', 'markDoNotContact', 'revokeAgentKey'];
const lastness = (operationId: string) => LAST.indexOf(operationId);

function adminOperations(): Operation[] {
  const doc = t.app.swagger() as unknown as {
    paths: Record<string, Record<string, { operationId: string }>>;
  };
  return (
    Object.entries(doc.paths)
      .filter(([path]) => path.startsWith('/v1/admin/'))
      .flatMap(([path, ops]) =>
        Object.entries(ops).map(([method, op]) => ({
          method: method.toUpperCase() as Operation['method'],
          path,
          operationId: op.operationId,
        })),
      )
      // Last: "do not contact" closes the call task the dial queue's route marks; a key revoked
      // first would be refused on every route after it.
      .sort((x, y) => lastness(x.operationId) - lastness(y.operationId))
  );
}

/** The path with `w`'s records in its parameters; the code another agent gets (the first parameter's). */
function fill(op: Operation, w: World): { url: string; code: string | null } {
  let code: string | null = BODY_CODES[op.operationId] ?? null;
  const url = op.path.replace(/\{(\w+)\}/g, (_m, name: string) => {
    const param = PARAMS[name];
    if (!param) throw new Error(`no value for {${name}} in ${op.path}: add it to PARAMS`);
    code ??= param.code;
    return (PARAM_OVERRIDES[op.operationId]?.[name] ?? param.of)(w);
  });
  return { url, code };
}

function call(op: Operation, url: string, key: string, w: World) {
  const given = BODIES[op.operationId];
  const body = typeof given === 'function' ? (given as (w: World) => unknown)(w) : given;
  return t.app.inject({
    method: op.method,
    url,
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    ...(body === undefined ? {} : { payload: JSON.stringify(body) }),
  });
}

// Made before the tests are collected: the admin routes are read from its OpenAPI document.
const SMS_SECRET = 'access-sms-secret';
const t: TestApp = await createTestApp({ sms: { provider: 'recorder', inboundSecret: SMS_SECRET } });
await t.app.ready();
beforeAll(async () => {
  receiver = await startReceiver();
  a = await world('Alice');
  b = await world('Bob');
}, 60_000);
afterAll(async () => {
  await receiver.close();
  await t.close();
});

describe('agent API keys on every admin route', () => {
  const operations = adminOperations();

  it('When the admin routes are read from the OpenAPI document, then there are all of them', () => {
    expect(operations.length).toBeGreaterThanOrEqual(25);
  });

  const named = operations.filter((op) => !HELD_BY_ID.has(op.operationId));
  it.each(named.map((op) => [`${op.method} ${op.path}`, op] as const))(
    'When %s is called with another agent’s key, then it answers 404 as if missing (or 403 when operator-only) and changes nothing',
    async (_label, op) => {
      const { url, code } = fill(op, b);
      const before = await fingerprint();
      const res = await call(op, url, a.key, b);
      expect(await fingerprint()).toEqual(before);
      if (OWN_ONLY.has(op.operationId)) {
        expect(res.statusCode, res.body).toBe(200);
        expect(res.body).not.toContain(b.agent_id);
        expect(res.body).not.toContain('Bob');
        return;
      }
      if (OPERATOR_ONLY.has(op.operationId)) {
        expect(res.statusCode, res.body).toBe(403);
        expect(res.json()).toMatchObject({ error_code: 'FORBIDDEN' });
        return;
      }
      expect(res.statusCode, res.body).toBe(404);
      expect(res.json()).toMatchObject({ error_code: code });
      expect(res.body).not.toContain('Bob'); // no hint of what is there
    },
  );

  it('When every route has been tried with another agent’s key, then the other agent’s records are as they were', async () => {
    const bob = (method: 'GET', url: string) =>
      t.app.inject({ method, url: `/v1/admin${url}`, headers: { authorization: `Bearer ${b.key}` } });
    expect((await bob('GET', `/agents/${b.agent_id}`)).json()).toMatchObject({ name: 'Bob' });
    const sources = (await bob('GET', `/agents/${b.agent_id}/sources`)).json<{
      sources: Array<{ active: boolean; name: string }>;
    }>();
    expect(sources.sources).toEqual([
      expect.objectContaining({ name: 'Bob source', active: true }),
      expect.objectContaining({ name: 'Bob agency source', active: true }),
    ]);
    const agency = (await bob('GET', `/agencies/${b.agency_id}`)).json<{
      name: string;
      members: unknown[];
    }>();
    expect(agency).toMatchObject({ name: 'Bob agency', members: [{ agent_id: b.producer_id }] });
    expect((await bob('GET', `/sources/${b.source_id}/destinations`)).json()).toMatchObject({
      destinations: [{ destination_id: b.destination_id }],
    });
    expect((await bob('GET', `/sources/${b.source_id}/mapping`)).json()).toMatchObject({ rules: {} });
    expect(
      (await deliver(t.app, b.token, { name: 'Still delivering', phone: '3125550100' })).statusCode,
    ).toBe(200);
  });

  it.each(operations.map((op) => [`${op.method} ${op.path}`, op] as const))(
    'When %s is called with the agent’s own key, then it is not refused (the test above could fail)',
    async (_label, op) => {
      const { url } = fill(op, b);
      const res = await call(op, url, b.key, b);
      if (OPERATOR_ONLY.has(op.operationId)) expect(res.statusCode, res.body).toBe(403);
      else expect(res.statusCode, `${op.operationId}: ${res.body}`).toBeLessThan(300);
    },
  );
});

/**
 * Every place an operation takes an id, one at a time: the key's own records everywhere else, so the
 * only thing wrong is the one id of another agent's (the way one agent's key once handed its agency
 * to another agent, or made another agent its producer). The body's ids are the request schema's
 * `uuid` properties, so a new route or field is covered the day it is added.
 */
describe('another agent’s id in one place of an otherwise own request', () => {
  /** The code a slot answers when it is not the first parameter's (the record before it is the key's own). */
  const SLOT_CODES: Record<string, Record<string, string>> = {
    // The agency is the key's own; another agent is no producer of it.
    deleteAgencyMember: { agent_id: 'NOT_FOUND' },
    // An invitation names its agency: with another agency it is no invitation at all.
    acceptInvitation: { agency_id: 'INVITATION_NOT_FOUND' },
  };

  interface Slot {
    op: Operation;
    where: 'path' | 'body';
    name: string;
  }

  const slots: Slot[] = adminOperations()
    .filter((op) => !OPERATOR_ONLY.has(op.operationId))
    .flatMap((op) => [
      ...[...op.path.matchAll(/\{(\w+)\}/g)]
        .map((m) => m[1] as string)
        .filter((name) => !VALUES.has(name))
        .map((name) => ({ op, where: 'path' as const, name })),
      ...bodyIds(op).map((name) => ({ op, where: 'body' as const, name })),
    ]);

  it('When the slots are counted, then the body’s agent ids are among them', () => {
    const body = slots.filter((x) => x.where === 'body').map((x) => `${x.op.operationId}.${x.name}`);
    expect(body).toEqual(
      expect.arrayContaining([
        'createAgency.fallback_agent_id',
        'updateAgency.fallback_agent_id',
        'assignFromFallbackQueue.agent_id',
      ]),
    );
  });

  it.each(slots.map((x) => [`${x.op.method} ${x.op.path}`, x.where, x.name, x] as const))(
    'When %s names another agent’s record in its %s’s %s, then it is 404 as if unknown and nothing changes',
    async (_label, _where, name, { op, where }) => {
      const theirs = (PARAMS[name.endsWith('agent_id') ? 'agent_id' : name] ?? PARAMS.agent_id)?.of(b);
      if (!theirs) throw new Error(`no value for ${name}`);
      const code =
        SLOT_CODES[op.operationId]?.[name] ??
        (name.endsWith('agent_id') ? 'AGENT_NOT_FOUND' : (PARAMS[name]?.code ?? 'NOT_FOUND'));
      const url = op.path.replace(/\{(\w+)\}/g, (_m, param: string) => {
        if (where === 'path' && param === name) return theirs;
        const own = PARAMS[param];
        if (!own) throw new Error(`no value for {${param}} in ${op.path}: add it to PARAMS`);
        return (PARAM_OVERRIDES[op.operationId]?.[param] ?? own.of)(a);
      });
      const given = BODIES[op.operationId];
      const body = typeof given === 'function' ? (given as (w: World) => unknown)(a) : given;
      const sent = where === 'body' ? { ...(body as object), [name]: theirs } : body;
      const before = await fingerprint();
      const res = await t.app.inject({
        method: op.method,
        url,
        headers: { authorization: `Bearer ${a.key}`, 'content-type': 'application/json' },
        ...(sent === undefined ? {} : { payload: JSON.stringify(sent) }),
      });
      expect(res.statusCode, res.body).toBe(404);
      expect(res.json()).toMatchObject({ error_code: code });
      expect(res.body).not.toContain('Bob');
      expect(await fingerprint()).toEqual(before);
    },
  );
});

describe('the agents list', () => {
  const list = (key: string, query = '') =>
    t.app.inject({
      method: 'GET',
      url: `/v1/admin/agents${query}`,
      headers: { authorization: `Bearer ${key}` },
    });

  it('When an agent key lists agents, then it gets its own agent alone, and no next page', async () => {
    const res = await list(a.key);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({
      agents: [expect.objectContaining({ agent_id: a.agent_id, name: 'Alice', timezone: 'America/Chicago' })],
      next_cursor: null,
    });
  });

  it('When the operator lists agents a page at a time, then every agent comes once, oldest first', async () => {
    const all = await json<{ agents: Array<{ agent_id: string }>; next_cursor: string | null }>(
      await adminInject(t.app, 'GET', '/agents'),
      200,
    );
    const ids = all.agents.map((x) => x.agent_id);
    expect(ids).toEqual(expect.arrayContaining([a.agent_id, b.agent_id]));
    expect(ids.indexOf(a.agent_id)).toBeLessThan(ids.indexOf(b.agent_id));
    const paged: string[] = [];
    let cursor: string | null = null;
    do {
      const page: { agents: Array<{ agent_id: string }>; next_cursor: string | null } = await json(
        await adminInject(t.app, 'GET', `/agents?limit=1${cursor ? `&cursor=${cursor}` : ''}`),
        200,
      );
      expect(page.agents.length).toBeLessThanOrEqual(1);
      paged.push(...page.agents.map((x) => x.agent_id));
      cursor = page.next_cursor;
    } while (cursor);
    expect(paged).toEqual(ids);
  });

  it.each([['?limit=0'], ['?limit=abc'], ['?cursor=not-an-id']])(
    'When the list is asked with %s, then it is 400 VALIDATION_ERROR, never a 500',
    async (query) => {
      const res = await adminInject(t.app, 'GET', `/agents${query}`);
      expect(res.statusCode, res.body).toBe(400);
      expect(res.json()).toMatchObject({ error_code: 'VALIDATION_ERROR' });
    },
  );

  it('When no key is sent, then the list is 401', async () => {
    expect((await t.app.inject({ method: 'GET', url: '/v1/admin/agents' })).statusCode).toBe(401);
  });
});

describe('agent keys and the operator', () => {
  it('When a key is revoked, then it is refused on the very next request; the operator key still sees every agent', async () => {
    const issued = await json<{ key_id: string; key: string }>(
      await adminInject(t.app, 'POST', `/agents/${a.agent_id}/keys`),
      201,
    );
    expect(issued.key).toMatch(/^lgk_[\w-]{43}$/);
    const get = (key: string, url: string) =>
      t.app.inject({ method: 'GET', url: `/v1/admin${url}`, headers: { authorization: `Bearer ${key}` } });
    expect((await get(issued.key, `/agents/${a.agent_id}`)).statusCode).toBe(200);
    const revoke = await t.app.inject({
      method: 'DELETE',
      url: `/v1/admin/agents/${a.agent_id}/keys/${issued.key_id}`,
      headers: { authorization: `Bearer ${issued.key}` },
    });
    expect(revoke.statusCode).toBe(204);
    const refused = await get(issued.key, `/agents/${a.agent_id}`);
    expect(refused.statusCode).toBe(401);
    expect(refused.json()).toMatchObject({ error_code: 'UNAUTHORIZED' });
    const keys = await json<{ keys: Array<{ key_id: string; revoked_at: string | null }> }>(
      await adminInject(t.app, 'GET', `/agents/${a.agent_id}/keys`),
      200,
    );
    expect(keys.keys.find((k) => k.key_id === issued.key_id)?.revoked_at).toEqual(expect.any(String));
    expect(JSON.stringify(keys)).not.toContain(issued.key);
    for (const w of [a, b])
      expect((await adminInject(t.app, 'GET', `/leads/${w.lead_id}`)).statusCode).toBe(200);
    expect((await get('lgk_' + 'x'.repeat(43), `/agents/${a.agent_id}`)).statusCode).toBe(401);
  });

  it('When the operator sets a password or an email, then the rules hold: 12 characters, one agent per email whatever its case', async () => {
    const put = (password: unknown) =>
      adminInject(t.app, 'PUT', `/agents/${a.agent_id}/password`, { password });
    expect((await put('short')).statusCode).toBe(400);
    expect((await put(12345678901234)).statusCode).toBe(400);
    expect((await put('twelve chars')).statusCode).toBe(204);
    const stored = await t.db.query<{ password_hash: string }>(
      'SELECT password_hash FROM agents WHERE agent_id = $1',
      [a.agent_id],
    );
    expect(stored.rows[0]?.password_hash).toMatch(/^\$argon2id\$/);
    expect(
      (await adminInject(t.app, 'PATCH', `/agents/${a.agent_id}`, { email: 'Alice@Example.com' })).statusCode,
    ).toBe(200);
    const taken = await adminInject(t.app, 'PATCH', `/agents/${b.agent_id}`, { email: 'alice@example.COM' });
    expect(taken.statusCode).toBe(409);
    expect(taken.json()).toMatchObject({ error_code: 'EMAIL_TAKEN' });
    const created = await adminInject(t.app, 'POST', '/agents', { name: 'Carol', email: 'not an email' });
    expect(created.statusCode).toBe(400);
  });
});
