import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDb, TEST_DATABASE_URL, type TestDb } from './support/db.ts';
import { GATEWAY } from './support/deliver.ts';
import { startGatewayProcess, startWorkerProcess, type GatewayProcess } from './support/processes.ts';
import { stepMessageIdSql } from '../src/leads/cadence-stop.ts';

const STEPS = 30;

/** A zone where it is now the middle of the day, so every step falls due inside its calling hours. */
function daytimeZone(): string {
  const zones = [
    'Pacific/Kiritimati',
    'Asia/Tokyo',
    'Asia/Kolkata',
    'Europe/Berlin',
    'America/New_York',
    'America/Los_Angeles',
    'Pacific/Honolulu',
  ];
  const hour = (zone: string) =>
    Number(
      new Intl.DateTimeFormat('en-US', { hour: 'numeric', hourCycle: 'h23', timeZone: zone }).format(
        new Date(),
      ),
    );
  return zones.find((zone) => hour(zone) >= 9 && hour(zone) <= 19) ?? 'America/New_York';
}
const CADENCE = '01900000-0000-7000-8000-00000000ca0e';

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
  /** How many steps are done, over all the plans. */
  const done = async () =>
    (await testDb.db.query<{ n: number }>('SELECT COALESCE(sum(next_step), 0)::int AS n FROM cadence_runs'))
      .rows[0]?.n ?? 0;

  it('When two workers go at 7,500 due call steps and one is killed midway, then each step makes one call task', async () => {
    const serve = await startGatewayProcess({ ...env, LEADGATE_DISPATCHER: '0' });
    running.push(serve);
    const admin = { authorization: 'Bearer cadence-workers' };
    const agent = await post(serve.url, '/v1/admin/agents', { name: 'Cadence Workers' }, admin);
    const source = await post(serve.url, `/v1/admin/agents/${agent.agent_id}/sources`, { name: 'S' }, admin);
    const leads = 250;
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
    // Plans written as the fan-out writes them, of a cadence of thirty calls, all due now: enough
    // rounds that the worker killed is most likely holding some.
    await testDb.db.query(
      `INSERT INTO cadence_versions (agent_id, cadence_id, version, name, steps)
       VALUES ($1, $2, 1, 'Workers', (SELECT jsonb_agg(jsonb_build_object('after_minutes', 0, 'action', 'call'))
                                         FROM generate_series(1, ${STEPS})))`,
      [agent.agent_id, CADENCE],
    );
    await testDb.db.query(
      `INSERT INTO cadence_runs (agent_id, lead_id, cadence_agent_id, cadence_id, version, started_at, zone, due_at)
       SELECT agent_id, lead_id, agent_id, $1, 1, now() - interval '1 minute', $2,
              now() - interval '1 minute' FROM leads`,
      [CADENCE, daytimeZone()],
    );
    const [one, two] = await Promise.all([startWorkerProcess(env), startWorkerProcess(env)]);
    if (!one || !two) throw new Error('two workers');
    running.push(one, two);
    const deadline = Date.now() + 90_000;
    while ((await done()) === 0) {
      if (Date.now() > deadline) throw new Error('no step done');
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    one.child.kill('SIGKILL');
    while ((await done()) < leads * STEPS) {
      if (Date.now() > deadline) throw new Error(`steps done: ${await done()}`);
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    expect(await done()).toBe(leads * STEPS);
    // Every step of every plan made exactly one call task, keyed by the step.
    const { rows } = await testDb.db.query<{ steps: number; made: number; most: number }>(
      `SELECT count(*)::int AS steps, count(t.n)::int AS made, max(t.n)::int AS most
         FROM cadence_runs r CROSS JOIN generate_series(0, ${STEPS} - 1) AS k
         LEFT JOIN LATERAL (SELECT count(*)::int AS n FROM dial_tasks d
                             WHERE d.agent_id = r.agent_id AND d.message_id = ${stepMessageIdSql('r.lead_id', 'k')}) t
           ON t.n > 0`,
    );
    expect(rows[0]).toEqual({ steps: leads * STEPS, made: leads * STEPS, most: 1 });
    const runs = await testDb.db.query<{ status: string; n: number }>(
      'SELECT status, count(*)::int AS n FROM cadence_runs GROUP BY status',
    );
    expect(runs.rows).toEqual([{ status: 'completed', n: leads }]);
  }, 150_000);
});
