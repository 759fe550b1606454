import type { Queryable } from '../db/index.ts';
import { run, sql, type Param, type Statement } from '../db/statement.ts';

/**
 * A kind of job's table. Its rows are the jobs and also what the agent sees (a webhook delivery, a
 * text, a consent check), so each kind keeps its table and names; this says which column is which.
 * Every such table has `status`, `attempts` and `lease_until`.
 */
export interface JobTable {
  table: string;
  /** The columns naming one job, with their types. */
  key: ReadonlyArray<readonly [column: string, type: string]>;
  /** A job waiting for its time (and the status a job tried again goes back to). */
  waiting: string;
  /** A job a worker holds under its lease; the waiting status for a kind that shows no other. */
  running: string;
  /** When it is due; `thenBy`, the order of jobs due at the same moment. */
  dueAt: string;
  thenBy?: string;
  /** Where an attempt's error (or reason) is written. */
  error: string;
  /** Whether its rows carry `updated_at`. */
  updatedAt?: boolean;
  /** Besides its time, what makes a waiting job due: SQL on the row `j`. */
  dueWhen?: string;
  /** Tables a claim reads with each job (`FROM` items), and how they join the row `j`. */
  claimWith?: { from: string; on: string };
  /** What a claim returns, of `j` and `claimWith`'s tables. */
  returning: string;
}

/** A job a worker has claimed: its key columns and the attempt this claim is (counted from 1). */
export interface Claimed {
  attempts: number;
}

/** The database's clock, or the moment a test names. */
const clock = (p: Param<'at'>) => `COALESCE(${p('at', 'timestamptz')}, now())`;

const statusIn = (t: JobTable, row: string) =>
  t.running === t.waiting
    ? `${row}.status = '${t.waiting}'`
    : `${row}.status IN ('${t.waiting}', '${t.running}')`;

const keysMatch = (t: JobTable, a: string, b: string) =>
  t.key.map(([column]) => `${a}.${column} = ${b}.${column}`).join(' AND ');

const updated = (t: JobTable) => (t.updatedAt ? ', updated_at = now()' : '');

/**
 * Takes up to `limit` due jobs for this worker in one statement: waiting (or held by a worker whose
 * lease ran out: it died), their time come; locked `FOR UPDATE SKIP LOCKED` so two workers never
 * take one, leased for `leaseMs`, their attempt counted.
 */
function claimStatement(t: JobTable): Statement<'limit' | 'lease_s' | 'at'> {
  const keys = t.key.map(([column]) => `j.${column}`).join(', ');
  return sql(
    (p) => `WITH due AS (
  SELECT ${keys} FROM ${t.table} j
   WHERE ${statusIn(t, 'j')} AND (j.lease_until IS NULL OR j.lease_until < ${clock(p)})
     AND j.${t.dueAt} <= ${clock(p)}${t.dueWhen ? ` AND ${t.dueWhen}` : ''}
   ORDER BY j.${t.dueAt}${t.thenBy ? `, j.${t.thenBy}` : ''} LIMIT ${p('limit', 'int')}
   FOR UPDATE OF j SKIP LOCKED)
UPDATE ${t.table} j SET status = '${t.running}', attempts = j.attempts + 1,
       lease_until = ${clock(p)} + make_interval(secs => ${p('lease_s', 'float8')})${updated(t)}
  FROM due${t.claimWith ? `, ${t.claimWith.from}` : ''}
 WHERE ${keysMatch(t, 'j', 'due')}${t.claimWith ? ` AND ${t.claimWith.on}` : ''}
RETURNING ${t.returning}`,
  );
}

/** How a claimed job ends, or waits to be tried again. */
export interface Outcome<J extends Claimed> {
  job: J;
  /** The status it ends in; the table's waiting status to be tried again at `due`. */
  status: string;
  error?: string | null;
  /** When a job tried again is due: a moment, or milliseconds from the database's clock. */
  due?: Date | number;
}

/** Columns a kind writes with an outcome: its SQL type, and its value for each outcome. */
export type Also<X> = { [K in keyof X]: string };

export interface SettleSpec<X> {
  also?: Also<X>;
  /** More of the SET list, on the row `j`, the outcome `x` and the clock. */
  set?: (clock: string) => string;
  /**
   * What follows the outcomes written (the CTE `settled`, a row per job written, with its outcome's
   * place `n` and the columns `returning` names): further CTEs and the final statement. By
   * default, how many were written.
   */
  then?: (p: Param) => string;
  /** The job's columns `then` reads from `settled` (`j.*`, say); none by default. */
  returning?: string;
}

/**
 * The statement writing outcomes over their claims, all of them at once: a job is written only while
 * it is still the claim that was made (held, with the attempt count the claim took), so a job
 * taken over by another worker after its lease ran out, or canceled meanwhile, stays as it is.
 */
function settleStatement<X>(t: JobTable, spec: SettleSpec<X>): Statement {
  const also = Object.entries<string>(spec.also ?? ({} as Record<string, string>));
  return sql((p) => {
    const columns = [...t.key.map(([c]) => c), 'attempts', 'status', 'error', 'due_at', 'due_in_ms'];
    const arrays = [
      ...t.key.map(([c, type]) => p(`key.${c}`, `${type}[]`)),
      p('attempts', 'int[]'),
      p('status', 'text[]'),
      p('error', 'text[]'),
      p('due_at', 'timestamptz[]'),
      p('due_in_ms', 'float8[]'),
      ...also.map(([c, type]) => p(`also.${c}`, `${type}[]`)),
    ];
    const at = clock(p);
    return `WITH x AS (
  SELECT * FROM unnest(${arrays.join(', ')}) WITH ORDINALITY
         AS x (${[...columns, ...also.map(([c]) => c)].join(', ')}, n)),
settled AS (
  UPDATE ${t.table} j SET status = x.status, lease_until = NULL, ${t.error} = x.error,
         ${t.dueAt} = COALESCE(x.due_at, ${at} + make_interval(secs => x.due_in_ms / 1000), j.${t.dueAt})${updated(t)}
         ${also.map(([c]) => `, ${c} = x.${c}`).join('')}${spec.set ? `, ${spec.set(at)}` : ''}
    FROM x
   WHERE ${keysMatch(t, 'j', 'x')} AND j.status = '${t.running}' AND j.attempts = x.attempts
  RETURNING x.n${spec.returning ? `, ${spec.returning}` : ''})
${spec.then ? spec.then(p) : 'SELECT count(*)::int AS n FROM settled'}`;
  });
}

/** The statement handing claimed jobs back as they were before their claim (a worker stopping). */
function releaseStatement(t: JobTable): Statement {
  return sql(
    (p) => `UPDATE ${t.table} j SET status = '${t.waiting}', attempts = j.attempts - 1, lease_until = NULL
  FROM unnest(${[...t.key.map(([c, type]) => p(`key.${c}`, `${type}[]`)), p('attempts', 'int[]')].join(', ')})
       AS x (${[...t.key.map(([c]) => c), 'attempts'].join(', ')})
 WHERE ${keysMatch(t, 'j', 'x')} AND j.status = '${t.running}' AND j.attempts = x.attempts`,
  );
}

/** Writes outcomes over their claims (`JobQueue.settler`); `more`: the parameters of its `then`. */
export interface Settler<J extends Claimed, X> {
  (
    db: Queryable,
    outcomes: ReadonlyArray<Outcome<J> & X>,
    more?: Record<string, unknown>,
    at?: Date,
  ): Promise<number>;
  readonly statement: Statement;
}

export interface JobQueue<J extends Claimed> {
  readonly table: JobTable;
  /** Its claim and release statements, as run (their plans are tested). */
  readonly statements: { claim: Statement; release: Statement };
  /** Claims up to `limit` due jobs, leased for `leaseMs`; `at` (tests) stands for the database's clock. */
  claim(db: Queryable, limit: number, leaseMs: number, at?: Date): Promise<J[]>;
  /** Writes outcomes over their claims, in one statement; how many were still this worker's. */
  settle(db: Queryable, outcomes: ReadonlyArray<Outcome<J>>, at?: Date): Promise<number>;
  /** Hands claimed jobs back (a worker stopping); another worker takes them at once. */
  release(db: Queryable, jobs: readonly J[]): Promise<void>;
  /** Another way of writing outcomes, with more columns (`also`) or statements after (`then`). */
  settler<X extends object = object>(spec: SettleSpec<X>): Settler<J, X>;
}

/** One queue over a kind's table: its claim, outcome and release statements, written once. */
export function jobQueue<J extends Claimed>(t: JobTable): JobQueue<J> {
  const claim = claimStatement(t);
  const release = releaseStatement(t);
  const keyValues = (jobs: readonly J[]) =>
    Object.fromEntries(
      t.key.map(([c]) => [`key.${c}`, jobs.map((j) => (j as unknown as Record<string, unknown>)[c])]),
    );
  const settler = <X extends object>(spec: SettleSpec<X>): Settler<J, X> => {
    const statement = settleStatement(t, spec);
    const write = async (
      db: Queryable,
      outcomes: ReadonlyArray<Outcome<J> & X>,
      more: Record<string, unknown> = {},
      at?: Date,
    ): Promise<number> => {
      if (outcomes.length === 0) return 0;
      const alsoValues = Object.keys(spec.also ?? {}).map((c) => [
        `also.${c}`,
        outcomes.map((o) => (o as Record<string, unknown>)[c] ?? null),
      ]);
      const { rows } = await run<{ n: number }, string>(db, statement, {
        ...keyValues(outcomes.map((o) => o.job)),
        attempts: outcomes.map((o) => o.job.attempts),
        status: outcomes.map((o) => o.status),
        error: outcomes.map((o) => (o.error == null ? null : o.error.slice(0, 500))),
        due_at: outcomes.map((o) => (o.due instanceof Date ? o.due.toISOString() : null)),
        due_in_ms: outcomes.map((o) => (typeof o.due === 'number' ? o.due : null)),
        ...Object.fromEntries(alsoValues),
        ...more,
        at: at?.toISOString() ?? null,
      });
      return rows[0]?.n ?? 0;
    };
    return Object.assign(write, { statement });
  };
  const settle = settler({});
  return {
    table: t,
    statements: { claim, release },
    async claim(db, limit, leaseMs, at) {
      const { rows } = await run<J, string>(db, claim, {
        limit,
        lease_s: leaseMs / 1000,
        at: at?.toISOString() ?? null,
      });
      return rows;
    },
    settle: (db, outcomes, at) => settle(db, outcomes, {}, at),
    async release(db, jobs) {
      if (jobs.length === 0) return;
      await run(db, release, { ...keyValues(jobs), attempts: jobs.map((j) => j.attempts) });
    },
    settler,
  };
}
