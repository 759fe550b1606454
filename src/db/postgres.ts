import pg from 'pg';
import { parseIntoClientConfig } from 'pg-connection-string';
import { LIMITS } from '../limits.ts';
import { transactionStatements, type Database, type QueryResult } from './database.ts';
import { statementName } from './statement-names.ts';

// count(*) and other bigints arrive as numbers, as they do from PGlite.
pg.types.setTypeParser(pg.types.builtins.INT8, (v) => Number(v));

/**
 * A pool of connections to a PostgreSQL server. A server restart or a killed backend must never
 * end the process: every client has an error listener for its whole life, idle or checked out (a
 * checked-out client's error otherwise has no listener, and Node exits), and a client that failed
 * is destroyed, never handed out again. The error reaches the caller as a rejected query.
 */
export function createPostgresDb(
  connectionString: string,
  opts: { max?: number; onConnectionError?: (err: Error) => void } = {},
): Database {
  const pool = new pg.Pool({
    ...connectionConfig(connectionString),
    max: opts.max ?? LIMITS.pgPoolSize,
    connectionTimeoutMillis: LIMITS.pgConnectTimeoutMs,
  });
  const failed = new WeakSet<pg.PoolClient>();
  const report = (err: Error) => opts.onConnectionError?.(err);
  pool.on('connect', (client) => {
    client.on('error', (err) => {
      failed.add(client);
      report(err);
    });
  });
  // The pool re-emits an idle client's error; the listener above has already reported it.
  pool.on('error', () => undefined);

  const run = async <T>(client: pg.Pool | pg.PoolClient, sql: string, params?: readonly unknown[]) => {
    const name = params && params.length > 0 ? statementName(sql) : undefined;
    const res = await (name
      ? client.query({ name, text: sql, values: params as unknown[] })
      : client.query(sql, params as unknown[] | undefined));
    return { rows: res.rows as T[], rowCount: res.rowCount ?? 0 } satisfies QueryResult<T>;
  };

  return {
    kind: 'postgres',
    query: (sql, params) => run(pool, sql, params),
    async withTransaction(fn) {
      const client = await pool.connect();
      const { tx, end } = transactionStatements((sql, params) => run(client, sql, params), {
        oneAtATime: true,
      });
      try {
        await client.query('BEGIN');
        const result = await fn(tx).finally(end);
        await client.query('COMMIT');
        return result;
      } catch (err) {
        try {
          if (!failed.has(client)) await client.query('ROLLBACK');
        } catch {
          failed.add(client); // the connection is gone
        }
        throw err;
      } finally {
        // A client whose connection failed is destroyed, not returned to the pool.
        client.release(failed.has(client));
      }
    },
    close: () => pool.end(),
  };
}

/**
 * The connection string read as pg reads it (`pg-connection-string`, which also takes a Unix
 * socket's directory: `postgres://user@/db?host=/var/run/postgresql`), with `-c jit=off` added to
 * its `options` (kept, if it has some). Every statement here is a short one: JIT-compiling a plan
 * whose estimate looks large (a dispatcher's claim over a queue full of dead rows) costs far more
 * than it saves. Throws when the string is not one pg can read.
 */
export function connectionConfig(connectionString: string): pg.ClientConfig {
  const config = parseIntoClientConfig(connectionString);
  return { ...config, options: config.options ? `${config.options} -c jit=off` : '-c jit=off' };
}
