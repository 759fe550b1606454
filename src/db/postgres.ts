import pg from 'pg';
import { LIMITS } from '../config.ts';
import type { Database, QueryResult, Queryable } from './database.ts';

// count(*) and other bigints arrive as numbers, as they do from PGlite.
pg.types.setTypeParser(pg.types.builtins.INT8, (v) => Number(v));

export function createPostgresDb(connectionString: string, max: number = LIMITS.pgPoolSize): Database {
  const pool = new pg.Pool({ connectionString, max, connectionTimeoutMillis: LIMITS.pgConnectTimeoutMs });
  // An idle client losing its connection (server restart) must not crash the process.
  pool.on('error', () => undefined);

  const run = async <T>(client: pg.Pool | pg.PoolClient, sql: string, params?: readonly unknown[]) => {
    const res = await client.query(sql, params as unknown[] | undefined);
    return { rows: res.rows as T[], rowCount: res.rowCount ?? 0 } satisfies QueryResult<T>;
  };

  return {
    kind: 'postgres',
    query: (sql, params) => run(pool, sql, params),
    async withTransaction(fn) {
      const client = await pool.connect();
      const tx: Queryable = { query: (sql, params) => run(client, sql, params) };
      let broken = false;
      try {
        await client.query('BEGIN');
        const result = await fn(tx);
        await client.query('COMMIT');
        return result;
      } catch (err) {
        try {
          await client.query('ROLLBACK');
        } catch {
          broken = true; // connection is gone: do not return it to the pool
        }
        throw err;
      } finally {
        client.release(broken);
      }
    },
    close: () => pool.end(),
  };
}
