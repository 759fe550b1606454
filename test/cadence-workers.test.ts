import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDb, TEST_DATABASE_URL, type TestDb } from './support/db.ts';
import { GATEWAY } from './support/deliver.ts';
import { startGatewayProcess, startWorkerProcess, type GatewayProcess } from './support/processes.ts';

/**
 * Cadence steps with several `leadgate worker` processes on one PostgreSQL (docs/cadences.md, "What a
 * step does"): every due step is done once, by one of them, even when one is killed holding steps —
 * the other takes them over when their lease ends. PostgreSQL only: the embedded database belongs to
 * one process.
 */
describe.skipIf(!TEST_DATABASE_URL)('cadence steps across worker processes', () => {
  let testDb: TestDb;
  let env: Record<string, string>;
  const running: GatewayProcess[] = [];

  beforeAll(async () => {
    testDb = await createTestDb();
    env = {
      DATABASE_URL: testDb.url ?? '',
      ADMIN_API_KEY: 'cadence-workers',
      LEADGATE_DEMO: '0',
      LOG_LEVEL: 'warn',
    };
  });
  afterAll(async () => {
    await Promise.all(running.map((p) => p.stop('SIGKILL')));
    await testDb.cleanup();
  });

  const post = async (url: string, path: string, body: object, headers: Record<string, string>) => {
    const res = await fetch(`${url}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      body: JSON.stringify(body),
    });
    expect(res.status, await res.clone().text()).toBeLessThan(300);
    return (await res.json()) as Record<string, string>;
  };
  const counts = async () =>
    (
      await testDb.db.query<{ status: string; n: number }>(
        'SELECT status, count(*)::int AS n FROM cadence_steps GROUP BY status',
      )
    ).rows.reduce<Record<string, number>>((all, r) => ({ ...all, [r.status]: r.n }), {});

  it('When two workers go at 7,500 due call steps and one is killed midway, then each step makes one call task', async () => {
    const serve = await startGatewayProcess({ ...env, LEADGATE_DISPATCHER: '0' });
    running.push(serve);
    const admin = { authorization: 'Bearer cadence-workers' };
    const agent = await post(serve.url, '/v1/admin/agents', { name: 'Cadence Workers' }, admin);
    const source = await post(serve.url, `/v1/admin/agents/${agent.agent_id}/sources`, { name: 'S' }, admin);
    const leads = 250;
    const STEPS = 30;
    for (let i = 0; i < leads; i++)
      await post(
        serve.url,
        GATEWAY,
        { name: `Worker Lead ${i}`, phone: `21455${String(10000 + i)}` },
        {
          'x-source-token': source.token ?? '',
        },
      );
    await serve.stop();
    running.splice(running.indexOf(serve), 1);
    // Plans written as the fan-out writes them, thirty call steps each, all due now: enough rounds
    // that the worker killed is most likely holding some.
    await testDb.db.query(
      `INSERT INTO cadence_runs (agent_id, lead_id, cadence_id, name, started_at)
       SELECT agent_id, lead_id, gen_random_uuid(), 'Workers', now() FROM leads`,
    );
    await testDb.db.query(
      `INSERT INTO cadence_steps (agent_id, lead_id, step_no, step_id, action, due_at)
       SELECT agent_id, lead_id, n, gen_random_uuid(), 'call', now() - interval '1 minute'
         FROM leads, generate_series(0, 29) AS n`,
    );
    const [one, two] = await Promise.all([startWorkerProcess(env), startWorkerProcess(env)]);
    if (!one || !two) throw new Error('two workers');
    running.push(one, two);
    const deadline = Date.now() + 90_000;
    while (((await counts()).done ?? 0) === 0) {
      if (Date.now() > deadline) throw new Error('no step done');
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    one.child.kill('SIGKILL');
    while (((await counts()).done ?? 0) < leads * STEPS) {
      if (Date.now() > deadline) throw new Error(`steps left: ${JSON.stringify(await counts())}`);
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    expect(await counts()).toEqual({ done: leads * STEPS });
    const { rows } = await testDb.db.query<{ tasks: number; steps: number; per_step: number }>(
      `SELECT count(*)::int AS tasks, count(DISTINCT s.step_id)::int AS steps,
              max(c.n)::int AS per_step
         FROM dial_tasks t JOIN cadence_steps s ON s.agent_id = t.agent_id AND s.step_id = t.message_id
         CROSS JOIN LATERAL (SELECT count(*) AS n FROM dial_tasks d
                              WHERE d.agent_id = s.agent_id AND d.message_id = s.step_id) c`,
    );
    expect(rows[0]).toEqual({ tasks: leads * STEPS, steps: leads * STEPS, per_step: 1 });
    const runs = await testDb.db.query<{ status: string; n: number }>(
      'SELECT status, count(*)::int AS n FROM cadence_runs GROUP BY status',
    );
    expect(runs.rows).toEqual([{ status: 'completed', n: leads }]);
  }, 150_000);
});
