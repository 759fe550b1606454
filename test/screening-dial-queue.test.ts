import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readDialQueue } from '../src/automations/dial-queue.ts';
import { adminInject, createTestApp, seedSource, type TestApp } from './support/app.ts';
import { testDispatcher } from './support/automations.ts';
import { deliver } from './support/deliver.ts';
import { agentWithLogin, CONSOLE_PASSWORD, ConsoleClient } from './support/console-client.ts';

/**
 * Open call tasks screened again whenever the dial queue is read and an outcome recorded
 * (docs/compliance.md, docs/decisions/0068-call-tasks-screened-when-read.md): a number listed
 * after its task was made is not offered to be called, on the database the suite runs on.
 */

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});

const DAY = 86_400_000;
let n = 0;
let phone = 3125550400;
const source = () => seedSource(t.db, `Rescreened Agent ${++n}`, 'America/Chicago');

async function suppress(owner: string, list: string, values: { phones?: string[]; emails?: string[] }) {
  const res = await adminInject(t.app, 'POST', `${owner}/suppressions`, { list, ...values });
  expect(res.statusCode, res.body).toBe(200);
}

interface Queue {
  tasks: Array<{ task_id: string; lead_id: string }>;
  blocked: Array<{ task_id: string; lead_id: string; blocked_reason: string }>;
}
const queueOf = async (agentId: string) => {
  const res = await adminInject(t.app, 'GET', `/agents/${agentId}/dial-queue`);
  expect(res.statusCode, res.body).toBe(200);
  return res.json<Queue>();
};

/** Where the lead's call task is in the queue: `open`, the blocked reason, or `none`. */
async function callOf(agentId: string, leadId: string) {
  const queue = await queueOf(agentId);
  if (queue.tasks.some((task) => task.lead_id === leadId)) return 'open';
  return queue.blocked.find((task) => task.lead_id === leadId)?.blocked_reason ?? 'none';
}

/** A new lead of the source, with its call task made (open) by the dispatcher. */
async function leadWithOpenTask(src: { agent_id: string; token: string }, extra: object = {}) {
  const number = String(phone++);
  const res = await deliver(t.app, src.token, { name: 'Listed Later', phone: number, ...extra });
  expect(res.statusCode, res.body).toBe(200);
  const leadId = res.json<{ lead_id: string }>().lead_id;
  await testDispatcher(t.db).runOnce();
  const task = (await queueOf(src.agent_id)).tasks.find((x) => x.lead_id === leadId);
  if (!task) throw new Error('no open call task');
  return { lead_id: leadId, task_id: task.task_id, phone: number };
}

describe('a list changed after the call task was made', () => {
  it.each([
    ['dnc, by phone', 'dnc', 'phone', {}, 'dnc'],
    ['litigator, by phone', 'litigator', 'phone', {}, 'litigator'],
    ['dnc, by email', 'dnc', 'email', {}, 'dnc'],
    ['litigator, by email', 'litigator', 'email', {}, 'litigator'],
    ['registry, no consent evidence', 'registry', 'phone', {}, 'registry_without_consent'],
    [
      'registry, a consent certificate',
      'registry',
      'phone',
      { consent_cert_url: 'https://cert.trustedform.com/0123456789abcdef' },
      'open',
    ],
    [
      'registry, a LeadiD',
      'registry',
      'phone',
      { consent_token: '01234567-89AB-CDEF-0123-456789ABCDEF' },
      'open',
    ],
    ['customer', 'customer', 'phone', {}, 'open'],
  ] as const)(
    'When the lead’s number is added to %s after its task was made, then the queue shows it as the rules say',
    async (_label, list, by, extra, expected) => {
      const src = await source();
      const email = `later${n}@example.com`;
      const task = await leadWithOpenTask(src, { email, ...extra });
      await suppress(
        `/agents/${src.agent_id}`,
        list,
        by === 'phone' ? { phones: [`+1 ${task.phone}`] } : { emails: [email.toUpperCase()] },
      );
      expect(await callOf(src.agent_id, task.lead_id)).toBe(expected);
      if (expected !== 'open') {
        // Shown as a block made at fan-out is: the same fields, never among the tasks to call.
        const queue = await queueOf(src.agent_id);
        expect(queue.blocked).toEqual([
          {
            task_id: task.task_id,
            lead_id: task.lead_id,
            name: 'Listed Later',
            phone: task.phone,
            blocked_reason: expected,
            created_at: expect.any(String),
          },
        ]);
        expect(queue.tasks).toEqual([]);
      }
    },
  );

  it('When an agency adds a producer’s number to its dnc list, then the producer’s open task is blocked', async () => {
    const fallback = await source();
    const producer = await source();
    const agency = await adminInject(t.app, 'POST', '/agencies', {
      name: `Later agency ${n}`,
      fallback_agent_id: fallback.agent_id,
    });
    expect(agency.statusCode, agency.body).toBe(201);
    const agencyId = agency.json<{ agency_id: string }>().agency_id;
    const joined = await adminInject(t.app, 'PUT', `/agencies/${agencyId}/members/${producer.agent_id}`, {
      licensed_states: ['IL'],
    });
    expect(joined.statusCode, joined.body).toBe(201);
    const task = await leadWithOpenTask(producer);
    const other = await leadWithOpenTask(producer);
    await suppress(`/agencies/${agencyId}`, 'litigator', { phones: [task.phone] });
    expect(await callOf(producer.agent_id, task.lead_id)).toBe('litigator');
    expect(await callOf(producer.agent_id, other.lead_id)).toBe('open');
  });

  it('When the entry is removed again, then the task is back among those to call; a task blocked when it was made stays blocked', async () => {
    const src = await source();
    const owner = `/agents/${src.agent_id}`;
    const task = await leadWithOpenTask(src);
    await suppress(owner, 'dnc', { phones: [task.phone] });
    expect(await callOf(src.agent_id, task.lead_id)).toBe('dnc');
    // A lead that arrives while the number is listed: its task is blocked as it is made.
    const listedFirst = String(phone++);
    const again = await deliver(t.app, src.token, { name: 'Listed First', phone: listedFirst });
    await suppress(owner, 'dnc', { phones: [listedFirst] });
    const first = again.json<{ lead_id: string }>().lead_id;
    await testDispatcher(t.db).runOnce();
    expect(await callOf(src.agent_id, first)).toBe('dnc');

    expect((await adminInject(t.app, 'DELETE', `${owner}/suppressions/dnc/${task.phone}`)).statusCode).toBe(
      204,
    );
    expect((await adminInject(t.app, 'DELETE', `${owner}/suppressions/dnc/${listedFirst}`)).statusCode).toBe(
      204,
    );
    expect(await callOf(src.agent_id, task.lead_id)).toBe('open');
    expect(await callOf(src.agent_id, first)).toBe('dnc');
  });

  it('When another gateway on the same database adds the entry, then this one’s next read honours it', async () => {
    const src = await source();
    const task = await leadWithOpenTask(src);
    const other = await createTestApp({ testDb: t.testDb });
    try {
      const res = await adminInject(other.app, 'POST', `/agents/${src.agent_id}/suppressions`, {
        list: 'dnc',
        phones: [task.phone],
      });
      expect(res.statusCode, res.body).toBe(200);
    } finally {
      await other.close();
    }
    expect(await callOf(src.agent_id, task.lead_id)).toBe('dnc');
  });

  it('When the registry goes stale after the task was made, then a lead without consent evidence is blocked until it is reloaded', async () => {
    const src = await source();
    const owner = `/agents/${src.agent_id}`;
    await suppress(owner, 'registry', { phones: ['3125550003'] });
    const bare = await leadWithOpenTask(src);
    const certified = await leadWithOpenTask(src, {
      consent_cert_url: 'https://cert.trustedform.com/fedcba9876543210',
    });
    await t.db.query(`UPDATE suppression_lists SET loaded_at = $2 WHERE agent_id = $1`, [
      src.agent_id,
      new Date(Date.now() - 32 * DAY).toISOString(),
    ]);
    expect(await callOf(src.agent_id, bare.lead_id)).toBe('registry_stale');
    expect(await callOf(src.agent_id, certified.lead_id)).toBe('open');
    await suppress(owner, 'registry', { phones: ['3125550003'] }); // reloaded
    expect(await callOf(src.agent_id, bare.lead_id)).toBe('open');
  });

  it('When the number opted out, then its task shows blocked as opted out', async () => {
    const src = await source();
    const task = await leadWithOpenTask(src);
    await t.db.query(`INSERT INTO sms_opt_outs (agent_id, phone, keyword) VALUES ($1, $2, 'STOP')`, [
      src.agent_id,
      task.phone,
    ]);
    expect(await callOf(src.agent_id, task.lead_id)).toBe('opted_out');
  });
});

describe('an email delivered in capitals', () => {
  it('When the list holds it in lower case, then the queue blocks the call: the lead stored it as intake normalized it', async () => {
    const src = await source();
    const task = await leadWithOpenTask(src, { email: ` Capital${n}@Example.COM ` });
    const stored = await t.db.query<{ email: string }>('SELECT email FROM leads WHERE lead_id = $1', [
      task.lead_id,
    ]);
    expect(stored.rows[0]?.email).toBe(`capital${n}@example.com`);
    await suppress(`/agents/${src.agent_id}`, 'dnc', { emails: [`capital${n}@example.com`] });
    expect(await callOf(src.agent_id, task.lead_id)).toBe('dnc');
  });
});

describe('recording the outcome of a task a list blocks now', () => {
  it('When the task is named, then 404 TASK_NOT_FOUND and nothing changes; by lead, the call is the lead’s own, without the task', async () => {
    const src = await source();
    const task = await leadWithOpenTask(src);
    await suppress(`/agents/${src.agent_id}`, 'dnc', { phones: [task.phone] });
    const res = await adminInject(
      t.app,
      'POST',
      `/agents/${src.agent_id}/dial-queue/${task.task_id}/outcome`,
      { outcome: 'no_answer' },
    );
    expect(res.statusCode, res.body).toBe(404);
    expect(res.json()).toMatchObject({ error_code: 'TASK_NOT_FOUND' });
    const stored = async () =>
      (
        await t.db.query<{ status: string; calls: number }>(
          'SELECT status, calls FROM dial_tasks WHERE task_id = $1',
          [task.task_id],
        )
      ).rows;
    expect(await stored()).toEqual([{ status: 'open', calls: 0 }]);

    const byLead = await adminInject(t.app, 'POST', `/leads/${task.lead_id}/call-outcome`, {
      outcome: 'reached',
    });
    expect(byLead.statusCode, byLead.body).toBe(200);
    expect(byLead.json()).toMatchObject({ status: 'Contacted' });
    const lead = (await adminInject(t.app, 'GET', `/leads/${task.lead_id}`)).json<{
      history: Array<{ event: string; details: { task_id?: unknown } }>;
    }>();
    expect(lead.history.at(-1)).toMatchObject({ event: 'call_outcome', details: { task_id: null } });
    expect(await stored()).toEqual([{ status: 'open', calls: 0 }]);
  });
});

describe('the queue fills past blocked tasks', () => {
  it('When the oldest tasks are blocked now, then the callable ones behind them are still listed', async () => {
    const src = await source();
    const listed = [await leadWithOpenTask(src), await leadWithOpenTask(src)];
    const callable = [await leadWithOpenTask(src), await leadWithOpenTask(src)];
    await suppress(`/agents/${src.agent_id}`, 'dnc', { phones: listed.map((x) => x.phone) });
    const queue = await readDialQueue(
      t.db,
      { agent_id: src.agent_id, timezone: 'America/Chicago' },
      new Date(),
      2,
    );
    expect(queue.tasks.map((x) => x.lead_id)).toEqual(callable.map((x) => x.lead_id));
    expect(queue.blocked.map((x) => x.lead_id).sort()).toEqual(listed.map((x) => x.lead_id).sort());
  });
});

describe('the console', () => {
  it('When a number is listed after its task was made, then the dial queue, Today and the lead page show it blocked, with nothing to call', async () => {
    const agent = await agentWithLogin(t.app, 'Lisa Later');
    const task = await leadWithOpenTask(agent);
    const b = new ConsoleClient(t.app);
    await b.login(agent.email, CONSOLE_PASSWORD);
    expect((await b.get('/console/dial-queue')).body).toContain(`href="tel:+1${task.phone}"`);
    await suppress(`/agents/${agent.agent_id}`, 'litigator', { phones: [task.phone] });
    const queue = (await b.get('/console/dial-queue')).body;
    expect(queue).toContain('on the litigator list');
    expect(queue).not.toContain(`href="tel:+1${task.phone}"`);
    expect(queue).not.toContain(`/console/dial-queue/${task.task_id}/outcome`);
    const today = (await b.get('/console/today')).body;
    expect(today).toContain('Blocked by screening');
    expect(today).not.toContain(`href="tel:+1${task.phone}"`);
    expect(today).toContain('Nobody waiting');
    expect((await b.get(`/console/leads/${task.lead_id}`)).body).toMatch(
      /Call task \(speed to lead\) · blocked/,
    );
  });
});
