import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminInject, createTestApp, type TestApp } from './support/app.ts';
import { testDispatcher } from './support/automations.ts';
import { agentWithLogin, CONSOLE_PASSWORD, ConsoleClient } from './support/console-client.ts';
import { deliver } from './support/deliver.ts';

/**
 * One agent never sees or changes another's: leads, sources, call tasks and texts, by URL or by a
 * post with the agent's own valid session and CSRF token.
 */

type Agent = Awaited<ReturnType<typeof agentWithLogin>>;

describe('one agent never sees another’s', () => {
  let t: TestApp;
  let alice: Agent;
  let bob: Agent;
  beforeAll(async () => {
    t = await createTestApp();
    alice = await agentWithLogin(t.app, 'Alice');
    bob = await agentWithLogin(t.app, 'Bob');
  });
  afterAll(() => t.close());

  it('When Alice opens Bob’s lead by URL, then she gets the same 404 page as for a lead that never was', async () => {
    const lead = (await deliver(t.app, bob.token, { name: 'Bob Prospect', phone: '3125550142' })).json<{
      lead_id: string;
    }>();
    const b = new ConsoleClient(t.app);
    await b.login(alice.email, CONSOLE_PASSWORD);
    const res = await b.get(`/console/leads/${lead.lead_id}`);
    expect(res.statusCode).toBe(404);
    expect(res.body).not.toContain('Bob Prospect');
    const missing = await b.get('/console/leads/00000000-0000-4000-8000-000000000000');
    expect(missing.statusCode).toBe(404);
    expect(missing.body).toBe(res.body.replace(/reference [^)]+/, 'reference'));
    const bobs = new ConsoleClient(t.app);
    await bobs.login(bob.email, CONSOLE_PASSWORD);
    expect((await bobs.get(`/console/leads/${lead.lead_id}`)).body).toContain('Bob Prospect');
    const list = await b.get('/console/leads');
    expect(list.body).not.toContain('Bob Prospect');
  });

  it('When Alice posts to Bob’s source or delivery with her own valid session and token, then nothing of Bob’s changes', async () => {
    const sources = (await adminInject(t.app, 'GET', `/agents/${bob.agent_id}/sources`)).json<{
      sources: Array<{ source_id: string }>;
    }>();
    const bobSource = sources.sources[0]?.source_id ?? '';
    const b = new ConsoleClient(t.app);
    await b.login(alice.email, CONSOLE_PASSWORD);
    const csrf = await b.csrf('/console/sources');
    const res = await b.post(`/console/sources/${bobSource}/regenerate`, { _csrf: csrf });
    expect(res.statusCode).toBe(404);
    const disable = await b.post(`/console/sources/${bobSource}/active`, { _csrf: csrf, active: 'false' });
    expect(disable.statusCode).toBe(404);
    expect((await deliver(t.app, bob.token, { name: 'Still Bob’s', phone: '3125550143' })).statusCode).toBe(
      200,
    );
    await testDispatcher(t.db).runOnce();
    const queue = async () =>
      (await adminInject(t.app, 'GET', `/agents/${bob.agent_id}/dial-queue`))
        .json<{ tasks: Array<{ task_id: string }> }>()
        .tasks.map((x) => x.task_id);
    const task = (await queue())[0] ?? '';
    expect(task).not.toBe('');
    const alices = await b.post(`/console/dial-queue/${task}/outcome`, {
      _csrf: csrf,
      outcome: 'not_interested',
    });
    expect(alices.statusCode).toBe(303); // her token was good: only the task's owner made it nothing
    expect(await queue()).toContain(task);
    // The same post by Bob takes the task out of his queue: Alice's was refused, not broken.
    const bobs = new ConsoleClient(t.app);
    await bobs.login(bob.email, CONSOLE_PASSWORD);
    const mine = await bobs.post(`/console/dial-queue/${task}/outcome`, {
      _csrf: await bobs.csrf('/console/dial-queue'),
      outcome: 'not_interested',
    });
    expect(mine.statusCode).toBe(303);
    expect(await queue()).not.toContain(task);
  });
});

describe('deliveries page', () => {
  let t: TestApp;
  let alice: Agent;
  let bob: Agent;
  beforeAll(async () => {
    t = await createTestApp();
    alice = await agentWithLogin(t.app, 'Alice');
    bob = await agentWithLogin(t.app, 'Bob');
  });
  afterAll(() => t.close());

  it('When a text failed for good, then the agent can send it again from the console; another agent cannot', async () => {
    const lead = (
      await deliver(t.app, alice.token, { name: 'Text Me', phone: '3125550177', sms_consent: true })
    ).json<{ lead_id: string }>();
    await testDispatcher(t.db, undefined, { now: () => new Date('2027-01-15T18:00:00Z') }).runOnce();
    const { rows } = await t.db.query<{ sms_id: string }>(
      `UPDATE sms_messages SET status = 'failed', attempts = 3, error = 'provider down'
        WHERE agent_id = $1 AND lead_id = $2 RETURNING sms_id`,
      [alice.agent_id, lead.lead_id],
    );
    const smsId = rows[0]?.sms_id ?? '';
    expect(smsId).not.toBe('');
    const row = async () =>
      (
        await t.db.query<{ status: string; attempts: number }>(
          'SELECT status, attempts FROM sms_messages WHERE sms_id = $1',
          [smsId],
        )
      ).rows[0];

    const bobs = new ConsoleClient(t.app);
    await bobs.login(bob.email, CONSOLE_PASSWORD);
    await bobs.post(`/console/texts/${smsId}/retry`, { _csrf: await bobs.csrf('/console/deliveries') });
    expect(await row()).toMatchObject({ status: 'failed' });

    const b = new ConsoleClient(t.app);
    await b.login(alice.email, CONSOLE_PASSWORD);
    const page = await b.get('/console/deliveries');
    expect(page.body).toContain(`/console/texts/${smsId}/retry`);
    expect(page.body).toContain('provider down');
    const res = await b.post(`/console/texts/${smsId}/retry`, { _csrf: await b.csrf('/console/deliveries') });
    expect(res.statusCode).toBe(303);
    expect(await row()).toMatchObject({ status: 'scheduled', attempts: 0 });
  });
});
