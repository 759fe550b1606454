import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addDestination, adminInject, createTestApp, seedSource, type TestApp } from './support/app.ts';
import { testDispatcher } from './support/automations.ts';
import { deliver } from './support/deliver.ts';
import { startReceiver } from './support/receiver.ts';
import { agentWithLogin, CONSOLE_PASSWORD, ConsoleClient } from './support/console-client.ts';

/**
 * Compliance screening end to end (docs/compliance.md), on the database the suite runs on: the
 * lists an agent or agency keeps, what a lead on each is given at intake, and what the dispatcher
 * and the sender then do and do not do.
 */

let t: TestApp;
let receiver: Awaited<ReturnType<typeof startReceiver>>;
beforeAll(async () => {
  receiver = await startReceiver();
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
  await receiver.close();
});

// 9 a.m. in Chicago: inside the calling hours, so a text goes at once; the lists' loads are moved
// to a day before it, so the registry is fresh unless a test makes it stale.
const MORNING = new Date('2027-01-15T15:00:00Z');
const MIDNIGHT = new Date('2027-01-15T06:00:00Z');
const DAY = 86_400_000;
const dispatcherAt = (at: Date) => testDispatcher(t.db, [0], { now: () => at });

let n = 0;
const source = () => seedSource(t.db, `Screened Agent ${++n}`, 'America/Chicago');

async function suppress(owner: string, list: string, values: { phones?: string[]; emails?: string[] }) {
  const res = await adminInject(t.app, 'POST', `${owner}/suppressions`, { list, ...values });
  expect(res.statusCode, res.body).toBe(200);
  return res.json<{ list: string; added: number; total: number }>();
}

/** Sets when every list was loaded, as if `daysBefore` days before `at`. */
async function loadedAt(at: Date, daysBefore: number) {
  const when = new Date(at.getTime() - daysBefore * DAY).toISOString();
  await t.db.query('UPDATE suppression_lists SET loaded_at = $1', [when]);
  await t.db.query('UPDATE agency_suppression_lists SET loaded_at = $1', [when]);
}

async function followUpOf(agentId: string, leadId: string) {
  const queue = (await adminInject(t.app, 'GET', `/agents/${agentId}/dial-queue`)).json<{
    tasks: Array<{ lead_id: string; status: string }>;
    blocked: Array<{ lead_id: string; blocked_reason: string }>;
  }>();
  const { rows } = await t.db.query<{ status: string; error: string | null }>(
    'SELECT status, error FROM sms_messages WHERE lead_id = $1',
    [leadId],
  );
  const open = queue.tasks.some((task) => task.lead_id === leadId);
  const blocked = queue.blocked.find((task) => task.lead_id === leadId);
  return {
    call: open ? 'open' : blocked ? blocked.blocked_reason : 'none',
    text: rows[0] ? (rows[0].error ?? rows[0].status) : 'none',
  };
}

async function screeningOf(leadId: string) {
  return (await adminInject(t.app, 'GET', `/leads/${leadId}`)).json<{ screening: unknown[] }>().screening;
}

describe('screening at intake and its effects: each list blocks what it must, and nothing else', () => {
  const PHONE = '3125550170';
  const EMAIL = 'listed@example.com';
  it.each([
    ['no list', null, {}, [], { call: 'open', text: 'sent' }],
    ['customer', 'customer', {}, [{ list: 'customer', matched: 'phone' }], { call: 'open', text: 'sent' }],
    ['dnc', 'dnc', {}, [{ list: 'dnc', matched: 'phone' }], { call: 'dnc', text: 'none' }],
    [
      'litigator',
      'litigator',
      {},
      [{ list: 'litigator', matched: 'phone' }],
      { call: 'litigator', text: 'none' },
    ],
    [
      'registry, texting consent only',
      'registry',
      {},
      [{ list: 'registry', matched: 'phone' }],
      { call: 'registry_without_consent', text: 'sent' },
    ],
    [
      'registry, no consent at all',
      'registry',
      { sms_consent: false },
      [{ list: 'registry', matched: 'phone' }],
      { call: 'registry_without_consent', text: 'none' },
    ],
    [
      'registry, a consent certificate',
      'registry',
      { consent_cert_url: 'https://cert.trustedform.com/0123456789abcdef' },
      [{ list: 'registry', matched: 'phone' }],
      { call: 'open', text: 'sent' },
    ],
    [
      'registry, a LeadiD',
      'registry',
      { consent_token: '01234567-89AB-CDEF-0123-456789ABCDEF' },
      [{ list: 'registry', matched: 'phone' }],
      { call: 'open', text: 'sent' },
    ],
  ] as const)(
    'When the lead’s phone is on %s, then its screening says so and the follow-up is as the rules say',
    async (_label, list, extra, screening, effect) => {
      const src = await source();
      const owner = `/agents/${src.agent_id}`;
      if (list) await suppress(owner, list, { phones: [`(312) 555-0170`] });
      await suppress(owner, 'customer', { phones: ['3125550999'] }); // another number: no match
      await loadedAt(MORNING, 1);
      const res = await deliver(t.app, src.token, {
        name: 'Lena List',
        phone: PHONE,
        sms_consent: true,
        ...extra,
      });
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json()).toMatchObject({ success: true });
      const leadId = res.json<{ lead_id: string }>().lead_id;
      expect(await screeningOf(leadId)).toEqual(screening.map((s) => ({ ...s, since: expect.any(String) })));
      await dispatcherAt(MORNING).runOnce();
      expect(await followUpOf(src.agent_id, leadId)).toEqual(effect);
    },
  );

  it('When the email is on an agency’s dnc list and the phone on the agent’s customer list, then both show and the agency’s list blocks', async () => {
    const src = await source();
    const agency = await adminInject(t.app, 'POST', '/agencies', {
      name: 'Listed agency',
      fallback_agent_id: src.agent_id,
    });
    expect(agency.statusCode, agency.body).toBe(201);
    await suppress(`/agencies/${agency.json().agency_id}`, 'dnc', { emails: ['Listed@Example.com'] });
    await suppress(`/agents/${src.agent_id}`, 'customer', { phones: [PHONE] });
    await loadedAt(MORNING, 1);
    const res = await deliver(t.app, src.token, {
      name: 'Ed Email',
      phone: PHONE,
      email: EMAIL,
      sms_consent: true,
    });
    const leadId = res.json<{ lead_id: string }>().lead_id;
    expect(await screeningOf(leadId)).toEqual([
      { list: 'customer', matched: 'phone', since: expect.any(String) },
      { list: 'dnc', matched: 'email', since: expect.any(String) },
    ]);
    await dispatcherAt(MORNING).runOnce();
    expect(await followUpOf(src.agent_id, leadId)).toEqual({ call: 'dnc', text: 'none' });
  });

  it('When the number opted out before, then the call task is blocked as opted out and no text goes', async () => {
    const src = await source();
    await t.db.query(`INSERT INTO sms_opt_outs (agent_id, phone, keyword) VALUES ($1, $2, 'STOP')`, [
      src.agent_id,
      PHONE,
    ]);
    const res = await deliver(t.app, src.token, { name: 'Otto Out', phone: PHONE, sms_consent: true });
    const leadId = res.json<{ lead_id: string }>().lead_id;
    expect(await screeningOf(leadId)).toEqual([]);
    await dispatcherAt(MORNING).runOnce();
    expect(await followUpOf(src.agent_id, leadId)).toEqual({ call: 'opted_out', text: 'none' });
  });

  it('When another agent lists the number, then this agent’s lead is on no list', async () => {
    const src = await source();
    const other = await source();
    await suppress(`/agents/${other.agent_id}`, 'dnc', { phones: [PHONE] });
    const res = await deliver(t.app, src.token, { name: 'Nora Nobody', phone: PHONE });
    expect(await screeningOf(res.json<{ lead_id: string }>().lead_id)).toEqual([]);
  });

  it('When a partner destination gets the lead, then the event carries its screening', async () => {
    const src = await source();
    await suppress(`/agents/${src.agent_id}`, 'litigator', { phones: [PHONE] });
    expect(
      (await addDestination(t.app, src.source_id, { url: `${receiver.url}/screened-${src.agent_id}` }))
        .statusCode,
    ).toBe(201);
    await deliver(t.app, src.token, { name: 'Pat Partner', phone: PHONE });
    await dispatcherAt(MORNING).runOnce();
    const got = receiver.received.find((r) => r.path === `/screened-${src.agent_id}`);
    expect(JSON.parse(got?.body ?? '{}')).toMatchObject({
      type: 'lead.created',
      data: { lead: { screening: [{ list: 'litigator', matched: 'phone' }] } },
    });
  });
});

describe('a stale registry', () => {
  it('When the registry was loaded 32 days ago, then leads without consent evidence are not called (nor texted without texting consent), until it is reloaded; /metrics says so', async () => {
    const src = await source();
    const owner = `/agents/${src.agent_id}`;
    await suppress(owner, 'registry', { phones: ['3125550001'] });
    const now = new Date();
    await loadedAt(now, 32);
    const bare = await deliver(t.app, src.token, { name: 'Stale Sam', phone: '3125550171' });
    const certified = await deliver(t.app, src.token, {
      name: 'Cert Cara',
      phone: '3125550172',
      consent_cert_url: 'https://cert.trustedform.com/fedcba9876543210',
    });
    await dispatcherAt(now).runOnce();
    expect((await followUpOf(src.agent_id, bare.json().lead_id)).call).toBe('registry_stale');
    expect((await followUpOf(src.agent_id, certified.json().lead_id)).call).toBe('open');
    const metrics = await t.app.inject({ method: 'GET', url: '/metrics' });
    expect(metrics.body).toMatch(/^leadgate_registry_lists_stale [1-9]/m);

    await suppress(owner, 'registry', { phones: ['3125550001'] }); // reloaded: nothing new, but loaded now
    const after = await deliver(t.app, src.token, { name: 'Fresh Fay', phone: '3125550173' });
    await dispatcherAt(now).runOnce();
    expect((await followUpOf(src.agent_id, after.json().lead_id)).call).toBe('open');
  });
});

describe('screening again before each text is sent', () => {
  it('When a number is added to the dnc list after the lead came in, then its scheduled text is not sent', async () => {
    const src = await source();
    await suppress(`/agents/${src.agent_id}`, 'customer', { phones: ['3125550998'] });
    await loadedAt(MIDNIGHT, 1);
    const res = await deliver(t.app, src.token, {
      name: 'Late Listed',
      phone: '3125550174',
      sms_consent: true,
    });
    const leadId = res.json<{ lead_id: string }>().lead_id;
    await dispatcherAt(MIDNIGHT).runOnce(); // outside the calling hours: the text waits
    expect(await followUpOf(src.agent_id, leadId)).toEqual({ call: 'open', text: 'scheduled' });
    await suppress(`/agents/${src.agent_id}`, 'dnc', { phones: ['3125550174'] });
    await loadedAt(MORNING, 1);
    await dispatcherAt(MORNING).runOnce();
    const { rows } = await t.db.query<{ status: string; error: string }>(
      'SELECT status, error FROM sms_messages WHERE lead_id = $1',
      [leadId],
    );
    expect(rows).toEqual([{ status: 'suppressed', error: 'dnc' }]);
  });

  it('When a number is added to the customer list after the lead came in, then its text still goes', async () => {
    const src = await source();
    const res = await deliver(t.app, src.token, {
      name: 'Kept Customer',
      phone: '3125550175',
      sms_consent: true,
    });
    const leadId = res.json<{ lead_id: string }>().lead_id;
    await dispatcherAt(MIDNIGHT).runOnce();
    await suppress(`/agents/${src.agent_id}`, 'customer', { phones: ['3125550175'] });
    await loadedAt(MORNING, 1);
    await dispatcherAt(MORNING).runOnce();
    expect((await followUpOf(src.agent_id, leadId)).text).toBe('sent');
  });
});

describe('the suppression routes', () => {
  it('When entries are added twice, listed by page and removed, then the counts follow and a rerun adds nothing', async () => {
    const src = await source();
    const owner = `/agents/${src.agent_id}`;
    expect(
      await suppress(owner, 'dnc', {
        phones: ['312-555-0101', '+1 (312) 555-0102', '3125550101'],
        emails: ['A@B.co'],
      }),
    ).toEqual({
      list: 'dnc',
      added: 3,
      total: 3,
    });
    expect(await suppress(owner, 'dnc', { phones: ['3125550102'], emails: ['a@b.co'] })).toEqual({
      list: 'dnc',
      added: 0,
      total: 3,
    });
    await suppress(owner, 'litigator', { phones: ['3125550103'] });
    const first = (await adminInject(t.app, 'GET', `${owner}/suppressions?list=dnc&limit=2`)).json();
    expect(first.entries).toEqual([
      { list: 'dnc', phone: '3125550101', added_at: expect.any(String) },
      { list: 'dnc', phone: '3125550102', added_at: expect.any(String) },
    ]);
    const second = (
      await adminInject(t.app, 'GET', `${owner}/suppressions?list=dnc&limit=2&cursor=${first.next_cursor}`)
    ).json();
    expect(second).toEqual({
      entries: [{ list: 'dnc', email: 'a@b.co', added_at: expect.any(String) }],
      next_cursor: null,
    });
    const all = (await adminInject(t.app, 'GET', `${owner}/suppressions`)).json();
    expect(all.entries.map((e: { list: string }) => e.list)).toEqual(['dnc', 'dnc', 'dnc', 'litigator']);

    expect(
      (await adminInject(t.app, 'DELETE', `${owner}/suppressions/dnc/(312)%20555-0101`)).statusCode,
    ).toBe(204);
    expect((await adminInject(t.app, 'DELETE', `${owner}/suppressions/dnc/3125550101`)).statusCode).toBe(404);
    expect((await adminInject(t.app, 'DELETE', `${owner}/suppressions/dnc/A%40B.CO`)).statusCode).toBe(204);
    expect(await suppress(owner, 'dnc', {})).toEqual({ list: 'dnc', added: 0, total: 1 });
  });

  it.each([
    ['POST', 'a list not known', '/suppressions', { list: 'donotcall', phones: ['3125550101'] }, /list/],
    ['POST', 'no list', '/suppressions', { phones: ['3125550101'] }, /list/],
    [
      'POST',
      'a short phone',
      '/suppressions',
      { list: 'dnc', phones: ['3125550101', '555-0101'] },
      /phones\[1\]/,
    ],
    [
      'POST',
      'no email',
      '/suppressions',
      { list: 'dnc', phones: ['3125550101'], emails: ['x y'] },
      /emails\[0\]/,
    ],
    ['POST', 'a number for a phone', '/suppressions', { list: 'dnc', phones: [3125550101] }, /phones/],
    ['POST', 'phones not a list', '/suppressions', { list: 'dnc', phones: 'x' }, /phones/],
    [
      'POST',
      'too many',
      '/suppressions',
      { list: 'dnc', phones: Array.from({ length: 10_001 }, () => '3125550101') },
      /phones/,
    ],
    ['GET', 'a list not known', '/suppressions?list=bogus', undefined, /list/],
    ['GET', 'a zero limit', '/suppressions?limit=0', undefined, /limit/],
    ['GET', 'a limit in words', '/suppressions?limit=ten', undefined, /limit/],
    ['GET', 'a made-up cursor', '/suppressions?cursor=nonsense', undefined, /cursor/],
    ['DELETE', 'no phone or email', '/suppressions/dnc/hello', undefined, /entry/],
  ] as const)(
    'When %s gets %s, then 400 VALIDATION_ERROR names the field and nothing is added',
    async (method, _label, path, body, named) => {
      const src = await source();
      const owner = `/agents/${src.agent_id}`;
      const res = await adminInject(t.app, method, `${owner}${path}`, body);
      expect(res.statusCode, res.body).toBe(400);
      expect(res.json()).toMatchObject({
        error_code: 'VALIDATION_ERROR',
        details: expect.stringMatching(named),
      });
      expect((await adminInject(t.app, 'GET', `${owner}/suppressions`)).json().entries).toEqual([]);
    },
  );

  it('When a path names a list that is not one, then it names nothing: 404, as an unknown path', async () => {
    const src = await source();
    const res = await adminInject(t.app, 'DELETE', `/agents/${src.agent_id}/suppressions/bogus/3125550101`);
    expect(res.statusCode).toBe(404);
  });

  it('When an agency’s routes get bad input or an unknown agency, then they answer as an agent’s do', async () => {
    const src = await source();
    const agency = (
      await adminInject(t.app, 'POST', '/agencies', {
        name: 'Routes agency',
        fallback_agent_id: src.agent_id,
      })
    ).json<{ agency_id: string }>();
    const owner = `/agencies/${agency.agency_id}`;
    const bad = await adminInject(t.app, 'POST', `${owner}/suppressions`, { list: 'dnc', phones: ['12'] });
    expect(bad.json()).toMatchObject({
      error_code: 'VALIDATION_ERROR',
      details: expect.stringMatching(/phones\[0\]/),
    });
    expect(await suppress(owner, 'registry', { phones: ['3125550101'] })).toEqual({
      list: 'registry',
      added: 1,
      total: 1,
    });
    const unknown = await adminInject(
      t.app,
      'GET',
      '/agencies/01890000-0000-7000-8000-000000000000/suppressions',
    );
    expect(unknown.json()).toMatchObject({ error_code: 'AGENCY_NOT_FOUND' });
  });
});

describe('the console', () => {
  it('When a call is blocked and the registry is stale, then Today and the dial queue show why, with nothing to call', async () => {
    const agent = await agentWithLogin(t.app, 'Connie Console');
    await suppress(`/agents/${agent.agent_id}`, 'litigator', { phones: ['3125550176'] });
    await suppress(`/agents/${agent.agent_id}`, 'registry', { phones: ['3125550002'] });
    await loadedAt(new Date(), 40);
    const lead = (await deliver(t.app, agent.token, { name: 'Litigious Lou', phone: '3125550176' })).json();
    await dispatcherAt(new Date()).runOnce();
    const b = new ConsoleClient(t.app);
    await b.login(agent.email, CONSOLE_PASSWORD);
    const today = (await b.get('/console/today')).body;
    expect(today).toContain('Your Do Not Call Registry list is stale');
    expect(today).toContain('Blocked by screening');
    expect(today).toContain('on the litigator list');
    // Not among the new leads waiting for a call.
    expect(today).toContain('Nobody waiting');
    const queue = (await b.get('/console/dial-queue')).body;
    expect(queue).toContain('on the litigator list');
    expect(queue).not.toContain(`href="tel:+13125550176"`);
    expect(queue).not.toContain(`/console/dial-queue/${lead.lead_id}`);
  });
});
