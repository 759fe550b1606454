import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { textJobs } from '../src/automations/sms-repository.ts';
import { createDb, type Database } from '../src/db/index.ts';
import { jobQueue, type Claimed } from '../src/jobs/queue.ts';
import { createRunner, jobStep, type JobKind } from '../src/jobs/runner.ts';
import { createTestDb, TEST_DATABASE_URL, type TestDb } from './support/db.ts';
import { seqScans } from './support/plans.ts';
import { until } from './support/until.ts';

/**
 * The one job queue (src/jobs) on a table of its own: what a kind of job gets by naming its
 * table's columns. The four kinds' own behaviour is tested with them (webhooks, texts, consent
 * checks, Meta fetches).
 */
let t: TestDb;

interface Chore extends Claimed {
  tenant: string;
  chore_id: number;
  label: string;
}

const chores = jobQueue<Chore>({
  table: 'test_chores',
  key: [
    ['tenant', 'text'],
    ['chore_id', 'int'],
  ],
  waiting: 'waiting',
  running: 'doing',
  dueAt: 'due_at',
  error: 'problem',
  dueWhen: 'NOT j.paused',
  claimWith: { from: 'test_tenants n', on: 'n.tenant = j.tenant' },
  returning: 'j.tenant, j.chore_id, j.attempts, n.label',
});

const T0 = new Date('2027-03-01T12:00:00Z');
const later = (ms: number) => new Date(T0.getTime() + ms);

beforeAll(async () => {
  t = await createTestDb();
  await t.db.query(`CREATE TABLE test_tenants (tenant text PRIMARY KEY, label text NOT NULL)`);
  await t.db.query(`CREATE TABLE test_chores (
    tenant text NOT NULL REFERENCES test_tenants, chore_id int NOT NULL,
    status text NOT NULL DEFAULT 'waiting', attempts int NOT NULL DEFAULT 0,
    due_at timestamptz NOT NULL, lease_until timestamptz, problem text, paused boolean NOT NULL DEFAULT false,
    note text, finished_at timestamptz,
    PRIMARY KEY (tenant, chore_id))`);
  await t.db.query(`INSERT INTO test_tenants VALUES ('a', 'Agent A'), ('b', 'Agent B')`);
});
afterAll(() => t.cleanup());
beforeEach(async () => {
  await t.db.query('DELETE FROM test_chores');
});

async function addChores(n: number, due = T0, tenant = 'a') {
  await t.db.query(
    `INSERT INTO test_chores (tenant, chore_id, due_at) SELECT $1, i, $2 FROM generate_series(1, $3::int) AS i`,
    [tenant, due.toISOString(), n],
  );
}

const row = async (id: number) =>
  (
    await t.db.query<{
      status: string;
      attempts: number;
      problem: string | null;
      due_at: Date;
      leased: boolean;
    }>(
      `SELECT status, attempts, problem, due_at, lease_until IS NOT NULL AS leased FROM test_chores WHERE chore_id = $1`,
      [id],
    )
  ).rows[0];

describe('the job queue', () => {
  it('When jobs are due, then a claim takes them oldest first, leased, their attempt counted, with what its kind reads beside them', async () => {
    await addChores(2, later(-1_000));
    await t.db.query(`INSERT INTO test_chores (tenant, chore_id, due_at) VALUES ('b', 9, $1)`, [
      later(-5_000).toISOString(),
    ]);
    const claimed = await chores.claim(t.db, 10, 30_000, T0);
    expect(claimed.map((c) => [c.tenant, c.chore_id, c.attempts, c.label])).toEqual([
      ['b', 9, 1, 'Agent B'],
      ['a', 1, 1, 'Agent A'],
      ['a', 2, 1, 'Agent A'],
    ]);
    expect(await row(1)).toMatchObject({ status: 'doing', attempts: 1, leased: true });
  });

  it('When a job is not yet due, paused by its kind, or held under a lease, then no claim takes it', async () => {
    await addChores(1, later(60_000));
    await addChores(1, T0, 'b');
    await t.db.query(`UPDATE test_chores SET paused = true WHERE tenant = 'b'`);
    expect(await chores.claim(t.db, 10, 30_000, T0)).toEqual([]);
    await t.db.query(`UPDATE test_chores SET paused = false`);
    expect(await chores.claim(t.db, 10, 30_000, T0)).toHaveLength(1);
    expect(await chores.claim(t.db, 10, 30_000, later(29_000))).toEqual([]);
  });

  it('When a worker dies holding a job, then another claims it once the lease runs out, and the first one’s late outcome is not written', async () => {
    await addChores(1);
    const [first] = await chores.claim(t.db, 10, 30_000, T0);
    const [second] = await chores.claim(t.db, 10, 30_000, later(31_000));
    expect(second?.attempts).toBe(2);
    if (!first || !second) throw new Error('not claimed');
    expect(await chores.settle(t.db, [{ job: second, status: 'done' }])).toBe(1);
    expect(await chores.settle(t.db, [{ job: first, status: 'failed', error: 'late' }])).toBe(0);
    expect(await row(1)).toMatchObject({ status: 'done', attempts: 2, problem: null, leased: false });
  });

  it('When an attempt fails, then the job waits for its next try with the error, and is claimed again only then', async () => {
    await addChores(1);
    const [job] = await chores.claim(t.db, 10, 30_000, T0);
    if (!job) throw new Error('not claimed');
    await chores.settle(t.db, [{ job, status: 'waiting', error: 'x'.repeat(600), due: 60_000 }], T0);
    const waiting = await row(1);
    expect(waiting).toMatchObject({ status: 'waiting', attempts: 1, leased: false });
    expect(waiting?.problem).toHaveLength(500);
    expect(new Date(waiting?.due_at ?? 0).toISOString()).toBe(later(60_000).toISOString());
    expect(await chores.claim(t.db, 10, 30_000, later(59_000))).toEqual([]);
    expect((await chores.claim(t.db, 10, 30_000, later(60_000)))[0]?.attempts).toBe(2);
  });

  it('When a job is given up or tried again at a moment its kind names, then it says so', async () => {
    await addChores(2);
    const [one, two] = await chores.claim(t.db, 10, 30_000, T0);
    if (!one || !two) throw new Error('not claimed');
    await chores.settle(t.db, [
      { job: one, status: 'dead', error: 'schedule spent' },
      { job: two, status: 'waiting', error: 'busy', due: later(3_600_000) },
    ]);
    expect(await row(1)).toMatchObject({ status: 'dead', problem: 'schedule spent' });
    expect(new Date((await row(2))?.due_at ?? 0).toISOString()).toBe(later(3_600_000).toISOString());
  });

  it('When a stopping worker releases the jobs it holds, then they are as before their claim, and the next claim takes them at once', async () => {
    await addChores(3);
    const held = await chores.claim(t.db, 2, 30_000, T0);
    await chores.release(t.db, held);
    expect(await row(1)).toMatchObject({ status: 'waiting', attempts: 0, leased: false });
    expect(await chores.claim(t.db, 10, 30_000, T0)).toHaveLength(3);
  });

  it('When a kind writes more with its outcomes, then its columns and statements run with them', async () => {
    await addChores(2);
    const claimed = await chores.claim(t.db, 10, 30_000, T0);
    const settle = chores.settler<{ note: string }>({
      also: { note: 'text' },
      set: (clock) => `finished_at = ${clock}`,
      returning: 'j.tenant',
      then: (p) => `UPDATE test_tenants n SET label = ${p('label', 'text')}
        WHERE n.tenant IN (SELECT tenant FROM settled) RETURNING 1`,
    });
    await settle(
      t.db,
      claimed.map((job) => ({ job, status: 'done', note: `note ${job.chore_id}` })),
      { label: 'Agent A (done)' },
      T0,
    );
    const { rows: done } = await t.db.query<{ note: string; finished_at: Date }>(
      'SELECT note, finished_at FROM test_chores WHERE chore_id = 2',
    );
    expect(done[0]?.note).toBe('note 2');
    expect(new Date(done[0]?.finished_at ?? 0).toISOString()).toBe(T0.toISOString());
    const { rows } = await t.db.query<{ label: string }>(`SELECT label FROM test_tenants WHERE tenant = 'a'`);
    expect(rows[0]?.label).toBe('Agent A (done)');
    await t.db.query(`UPDATE test_tenants SET label = 'Agent A' WHERE tenant = 'a'`);
  });

  it('When a kind is registered with a runner, then its loop claims and handles every due job, and goes again at once after a full batch', async () => {
    await addChores(25, new Date(Date.now() - 1_000)); // due by the database's clock
    const handled: number[] = [];
    const kind: JobKind<Chore, { done: number }> = {
      name: 'chores',
      queue: chores,
      batch: 10,
      async handle(db, jobs) {
        handled.push(jobs.length);
        await chores.settle(
          db,
          jobs.map((job) => ({ job, status: 'done' })),
        );
        return { done: jobs.length };
      },
    };
    const lines: object[] = [];
    const log = { info: (obj: object) => lines.push(obj), warn: () => undefined };
    // A poll far longer than the test: only full rounds may follow one another.
    const runner = createRunner([jobStep(t.db, kind, { leaseMs: 30_000 })], {
      pollMs: 60_000,
      log,
      label: 'test',
    });
    runner.start();
    try {
      await until(() => handled.reduce((a, b) => a + b, 0) === 25, 10_000);
    } finally {
      await runner.stop();
    }
    expect(handled).toEqual([10, 10, 5]);
    expect(lines[0]).toEqual({ test: { step: 'chores', done: 10 } });
  });
});

describe.runIf(TEST_DATABASE_URL)('the job queue, on PostgreSQL', () => {
  it('When workers on their own connections claim at the same moment, then each job goes to one of them', async () => {
    await addChores(200);
    if (!t.url) throw new Error('no URL');
    const workers: Database[] = await Promise.all(
      Array.from({ length: 4 }, () => createDb({ databaseUrl: t.url as string })),
    );
    try {
      const taken: string[] = [];
      await Promise.all(
        workers.map(async (db) => {
          for (;;) {
            const jobs = await chores.claim(db, 7, 30_000, T0);
            if (jobs.length === 0) return;
            taken.push(...jobs.map((j) => `${j.tenant} ${j.chore_id}`));
          }
        }),
      );
      expect(taken).toHaveLength(200);
      expect(new Set(taken).size).toBe(200);
    } finally {
      await Promise.all(workers.map((db) => db.close()));
    }
  });
});

describe('the texts’ claim, with thousands of texts sent', () => {
  it('When the texts are claimed, then the statement reads the due ones by index, not every text', async () => {
    const agent = '00000000-0000-7000-8000-000000000001';
    await t.db.query(
      `INSERT INTO sms_messages (agent_id, sms_id, lead_id, message_id, to_phone, body, send_at, status)
       SELECT $1, gen_random_uuid(), gen_random_uuid(), gen_random_uuid(), '2145550100', 'Hi', now(), 'sent'
         FROM generate_series(1, 5000)`,
      [agent],
    );
    await t.db.query('ANALYZE sms_messages');
    const { claim } = textJobs.statements;
    expect(await seqScans(t.db, claim.text, claim.values({ limit: 200, lease_s: 30 }))).not.toContain(
      'sms_messages',
    );
  });
});
