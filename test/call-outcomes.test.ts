import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LIMITS } from '../src/limits.ts';
import type { Database } from '../src/db/index.ts';
import { actOnLead } from '../src/use-cases/lead-actions.ts';
import type { CallOutcome } from '../src/leads/lead-status.ts';
import { adminInject, createTestApp, seedSource, type TestApp } from './support/app.ts';
import { testDispatcher } from './support/automations.ts';
import { deliver } from './support/deliver.ts';
import { TEST_DATABASE_URL } from './support/db.ts';
import { pausedAfter } from './support/faulty-db.ts';
import { signal } from './support/signal.ts';

/** The dial queue's call outcomes (docs/admin-api.md, "Call outcomes"), on the suite's database. */

/** A call task's outcome as the console and the admin API record it: null when the task is not open. */
async function recordCallOutcome(
  db: Database,
  agentId: string,
  taskId: string,
  outcome: CallOutcome,
  now: Date,
) {
  const done = await actOnLead(
    db,
    { task_id: taskId, agent_id: agentId },
    { kind: 'call_outcome', outcome },
    now,
  );
  return done.ok ? done.call : null;
}

let t: TestApp;
let seeded: Awaited<ReturnType<typeof seedSource>>;
let phone = 3125550300;

beforeAll(async () => {
  t = await createTestApp();
  seeded = await seedSource(t.db, 'Dialer Dan');
});
afterAll(async () => {
  await t.close();
});

/** A new lead with a phone, and its call task once the dispatcher has handed the message on. */
async function leadWithTask(extra: object = {}) {
  const lead = (
    await deliver(t.app, seeded.token, { name: 'Call Me', phone: String(phone++), ...extra })
  ).json<{
    lead_id: string;
  }>();
  await testDispatcher(t.db).runOnce();
  const queue = (await adminInject(t.app, 'GET', `/agents/${seeded.agent_id}/dial-queue`)).json<{
    tasks: Array<{ task_id: string; lead_id: string }>;
  }>();
  const task = queue.tasks.find((x) => x.lead_id === lead.lead_id);
  if (!task) throw new Error('no call task');
  return { lead_id: lead.lead_id, task_id: task.task_id };
}

const mark = (taskId: string, outcome: string) =>
  adminInject(t.app, 'POST', `/agents/${seeded.agent_id}/dial-queue/${taskId}/outcome`, { outcome });
const lead = async (id: string) =>
  (await adminInject(t.app, 'GET', `/leads/${id}`)).json<{
    status: string;
    history: Array<{ event: string; changes: unknown; details: unknown }>;
  }>();
const queued = async () =>
  (await adminInject(t.app, 'GET', `/agents/${seeded.agent_id}/dial-queue`))
    .json<{ tasks: Array<{ task_id: string }> }>()
    .tasks.map((x) => x.task_id);

describe('call outcomes', () => {
  it('When a new lead is reached, then it is Contacted, its task leaves the queue and its history says so', async () => {
    const { lead_id, task_id } = await leadWithTask();
    const res = await mark(task_id, 'reached');
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ task_status: 'done', calls: 1, lead_status: 'Contacted' });
    const after = await lead(lead_id);
    expect(after.status).toBe('Contacted');
    expect(after.history.at(-1)).toMatchObject({
      event: 'call_outcome',
      changes: { status: { from: 'New', to: 'Contacted' } },
      details: { outcome: 'reached', calls: 1 },
    });
    expect(await queued()).not.toContain(task_id);
    expect((await mark(task_id, 'reached')).json()).toMatchObject({ error_code: 'TASK_NOT_FOUND' });
  });

  it('When nobody answers, then the task comes back an hour later and the third no-answer closes it', async () => {
    const { lead_id, task_id } = await leadWithTask();
    const start = new Date();
    const first = await recordCallOutcome(t.db, seeded.agent_id, task_id, 'no_answer', start);
    expect(first).toMatchObject({ task_status: 'open', calls: 1, lead_status: 'New' });
    expect(await queued()).not.toContain(task_id); // out of the queue for now
    const later = new Date(start.getTime() + LIMITS.noAnswerRetryMs + 1000);
    const { readDialQueue } = await import('../src/automations/dial-queue.ts');
    const agent = { agent_id: seeded.agent_id, timezone: 'America/Chicago' };
    expect((await readDialQueue(t.db, agent, later, 100)).tasks.map((x) => x.task_id)).toContain(task_id);
    expect(await recordCallOutcome(t.db, seeded.agent_id, task_id, 'no_answer', later)).toMatchObject({
      task_status: 'open',
      calls: 2,
    });
    expect(await recordCallOutcome(t.db, seeded.agent_id, task_id, 'no_answer', later)).toMatchObject({
      task_status: 'done',
      calls: 3,
    });
    expect((await lead(lead_id)).status).toBe('New');
  });

  it('When a number is bad or the prospect not interested, then the lead says so; a later delivery brings it back to New', async () => {
    const bad = await leadWithTask();
    expect((await mark(bad.task_id, 'bad_number')).json()).toMatchObject({ lead_status: 'Bad number' });
    const no = await leadWithTask({ email: 'not.now@example.com' });
    expect((await mark(no.task_id, 'not_interested')).json()).toMatchObject({
      lead_status: 'Not interested',
    });
    const listed = (
      await adminInject(t.app, 'GET', `/agents/${seeded.agent_id}/leads?status=not%20interested`)
    ).json<{
      leads: Array<{ lead_id: string }>;
    }>();
    expect(listed.leads.map((l) => l.lead_id)).toEqual([no.lead_id]);
    const again = await deliver(t.app, seeded.token, { name: 'Call Me', email: 'not.now@example.com' });
    expect(again.json()).toMatchObject({ resubmit: true, status: 'New' });
  });

  it('When the same task is marked twice at once, then exactly one mark counts', async () => {
    const { lead_id, task_id } = await leadWithTask();
    const results = await Promise.all([mark(task_id, 'reached'), mark(task_id, 'not_interested')]);
    expect(results.map((r) => r.statusCode).sort()).toEqual([200, 404]);
    const history = (await lead(lead_id)).history.filter((h) => h.event === 'call_outcome');
    expect(history).toHaveLength(1);
  });

  it.runIf(TEST_DATABASE_URL)(
    'When one mark holds the task while another is made, then the other waits for it and finds the task done (PostgreSQL)',
    async () => {
      const { lead_id, task_id } = await leadWithTask();
      // The first mark stops inside its transaction, the task and the lead read and locked.
      const hasRead = signal();
      const released = signal();
      const inTransaction = (db: Database, afterSelect: () => Promise<void>) =>
        pausedAfter(db, (sql) => sql.includes('FOR UPDATE OF t, l'), afterSelect);
      const first = recordCallOutcome(
        inTransaction(t.db, () => (hasRead.fire(), released.done)),
        seeded.agent_id,
        task_id,
        'reached',
        new Date(),
      );
      await hasRead.done;
      let secondRead = false;
      const second = recordCallOutcome(
        inTransaction(t.db, async () => void (secondRead = true)),
        seeded.agent_id,
        task_id,
        'not_interested',
        new Date(),
      );
      // Until the second waits on the lock, or (were there none) has read the task still open.
      const waiting = async () =>
        (
          await t.db.query<{ n: number }>(
            `SELECT count(*)::int AS n FROM pg_stat_activity
              WHERE wait_event_type = 'Lock' AND query LIKE '%FOR UPDATE OF t, l%'`,
          )
        ).rows[0]?.n ?? 0;
      for (let i = 0; !secondRead && (await waiting()) === 0; i++) {
        if (i > 200) throw new Error('the second mark neither waited nor read');
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      released.fire();
      const [won, lost] = await Promise.all([first, second]);
      expect(won).toMatchObject({ task_id, lead_id });
      expect(lost).toBeNull();
      const history = (await lead(lead_id)).history.filter((h) => h.event === 'call_outcome');
      expect(history).toHaveLength(1);
    },
  );

  it('When the outcome is not one of the four, then 400 and nothing changes', async () => {
    const { task_id } = await leadWithTask();
    const res = await mark(task_id, 'voicemail');
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ error_code: 'VALIDATION_ERROR' });
    expect(await queued()).toContain(task_id);
  });
});
