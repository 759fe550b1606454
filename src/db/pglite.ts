import { mkdirSync } from 'node:fs';
import { PGlite } from '@electric-sql/pglite';
import type { Database, QueryResult, Queryable } from './database.ts';

/** Embedded PostgreSQL (WASM) in `dir`, or in memory when `dir` is undefined (tests). */
export async function createPgliteDb(dir: string | undefined): Promise<Database> {
  if (dir) mkdirSync(dir, { recursive: true });
  const db = await PGlite.create(dir ? { dataDir: dir } : {});

  const run = async <T>(q: Pick<PGlite, 'query'>, sql: string, params?: readonly unknown[]) => {
    const res = await q.query<T>(sql, params as unknown[] | undefined);
    // PGlite reports affectedRows 0 for a SELECT: a statement that returns rows counts its rows,
    // as pg's rowCount does.
    const rowCount = res.fields.length > 0 ? res.rows.length : (res.affectedRows ?? 0);
    return { rows: res.rows, rowCount } satisfies QueryResult<T>;
  };

  return {
    kind: 'pglite',
    query: (sql, params) => run(db, sql, params),
    // PGlite is one connection: `transaction` serialises transactions and holds plain queries
    // until the running transaction ends, so row locks and unique checks behave as on a server.
    withTransaction: (fn) =>
      db.transaction((t) => fn({ query: (sql, params) => run(t, sql, params) } as Queryable)),
    close: () => db.close(),
  };
}
