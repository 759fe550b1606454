import pg from 'pg';
import { parseIntoClientConfig } from 'pg-connection-string';
import { LIMITS } from '../limits.ts';
import { readDatabaseUrl } from '../database-url.ts';
import { isConnectionLoss, transactionStatements, type Database, type QueryResult } from './database.ts';
import { createPrimary } from './primary.ts';
import { statementName } from './statement-names.ts';

// count(*) and other bigints arrive as numbers, as they do from PGlite.
pg.types.setTypeParser(pg.types.builtins.INT8, (v) => Number(v));

/**
 * Pools of connections to a PostgreSQL server, one per host of the connection string, used through
 * the one that takes writes now (primary.ts). A server restart, a killed backend or a failover must
 * never end the process: every client has an error listener for its whole life, idle or checked
 * out (a checked-out client's error otherwise has no listener, and Node exits), and a client that
 * failed is destroyed, never handed out again. The error reaches the caller as a rejected query;
 * one that says the primary may have moved has the hosts asked again at the next call.
 */
export function createPostgresDb(
  connectionString: string,
  opts: { max?: number; onConnectionError?: (err: Error) => void } = {},
): Database {
  const { hosts, target } = readDatabaseUrl(connectionString, process.env.PGTARGETSESSIONATTRS);
  const failed = new WeakSet<pg.PoolClient>();
  const report = (err: Error) => opts.onConnectionError?.(err);
  const pools = hosts.map((host) => {
    const config = connectionConfig(host);
    const pool = new pg.Pool({
      ...config,
      max: opts.max ?? LIMITS.pgPoolSize,
      connectionTimeoutMillis: LIMITS.pgConnectTimeoutMs,
    });
    pool.on('connect', (client) => {
      client.on('error', (err) => {
        failed.add(client);
        report(err);
      });
    });
    // The pool re-emits an idle client's error; the listener above has already reported it.
    pool.on('error', () => undefined);
    return { pool, name: `${config.host ?? ''}:${config.port ?? ''}` };
  });
  const primary = createPrimary(pools, { target, retryMs: LIMITS.primaryRetryMs });

  const run = async <T>(client: pg.PoolClient, sql: string, params?: readonly unknown[]) => {
    const name = params && params.length > 0 ? statementName(sql) : undefined;
    const res = await (name
      ? client.query({ name, text: sql, values: params as unknown[] })
      : client.query(sql, params as unknown[] | undefined));
    return { rows: res.rows as T[], rowCount: res.rowCount ?? 0 } satisfies QueryResult<T>;
  };

  /** Runs `use` on a connection to the primary; a connection that failed is destroyed, not returned. */
  const withClient = async <T>(use: (client: pg.PoolClient) => Promise<T>): Promise<T> => {
    const { client, pool } = await primary.connect();
    try {
      return await use(client);
    } catch (err) {
      if (isConnectionLoss(err)) {
        failed.add(client);
        primary.lost(pool);
      }
      throw err;
    } finally {
      client.release(failed.has(client));
    }
  };

  return {
    kind: 'postgres',
    query: (sql, params) => withClient((client) => run(client, sql, params)),
    withTransaction: (fn) =>
      withClient(async (client) => {
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
        }
      }),
    close: async () => {
      await Promise.all(pools.map(({ pool }) => pool.end()));
    },
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
