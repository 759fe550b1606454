import type { Database, Queryable } from '../../src/db/index.ts';

/**
 * Wraps a database so a test can make it fail: `down` makes every statement fail like a lost
 * connection; `failWhen` fails the matching statements, in a transaction or not. `seen` is every
 * statement (`BEGIN` for a transaction) that reached the database while it was up, in order; a test
 * empties it with `seen.length = 0`.
 */
export function faultyDb(db: Database) {
  const state = {
    down: false,
    failWhen: undefined as ((sql: string) => boolean) | undefined,
    seen: [] as string[],
  };
  const check = (sql: string) => {
    if (state.down)
      throw Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' });
    state.seen.push(sql);
    if (state.failWhen?.(sql)) throw new Error(`injected failure: ${sql.slice(0, 40)}`);
  };
  const wrapped: Database = {
    kind: db.kind,
    async query(sql, params) {
      check(sql);
      return db.query(sql, params);
    },
    async withTransaction(fn) {
      check('BEGIN');
      return db.withTransaction((tx: Queryable) =>
        fn({
          async query(sql, params) {
            check(sql);
            return tx.query(sql, params);
          },
        }),
      );
    },
    close: () => db.close(),
  };
  return { db: wrapped, state };
}

export type FaultyDb = ReturnType<typeof faultyDb>;

/** Runs `act` while the statements `fail` picks fail, then lets every statement through again. */
export async function whileFailing<T>(
  faulty: FaultyDb,
  fail: (sql: string) => boolean,
  act: () => Promise<T>,
): Promise<T> {
  faulty.state.failWhen = fail;
  try {
    return await act();
  } finally {
    faulty.state.failWhen = undefined;
  }
}

/**
 * The database whose transactions, after a statement `match` picks has answered, await `then()`
 * before going on: a test holds one transaction there (its rows read and locked) while another runs.
 */
export function pausedAfter(
  db: Database,
  match: (sql: string) => boolean,
  then: () => Promise<void>,
): Database {
  return {
    ...db,
    withTransaction: (fn) =>
      db.withTransaction((tx) =>
        fn({
          async query(sql, params) {
            const result = await tx.query(sql, params);
            if (match(sql)) await then();
            return result;
          },
        } as Queryable),
      ),
  };
}
