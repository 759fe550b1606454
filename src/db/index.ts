import { LIMITS } from '../limits.ts';
import { DatabaseBusyError, isPgError, type Database } from './database.ts';
import { createPgliteThreadDb } from './pglite-thread.ts';
import { createPostgresDb } from './postgres.ts';

export type { Database, Queryable } from './database.ts';
export { isRefusedValue } from './database.ts';
export { settingMadeOnce } from './settings.ts';

export interface DbOptions {
  /** `postgres://…`: a PostgreSQL server; else embedded PGlite. */
  databaseUrl?: string;
  /** PGlite's directory; in memory when undefined (tests). */
  pgliteDir?: string;
  /**
   * Without `pgliteDir`: the in-memory database starts from this dump of a data directory (a tar
   * file made by PGlite's `dumpDataDir`) rather than a new one, so the suite's test files each
   * start from one migrated database without initdb or a copy on disk.
   */
  pgliteImage?: string;
  /** The embedded database's shared buffers in MB; LIMITS.embeddedSharedBuffersMb by default. */
  pgliteSharedBuffersMb?: number;
  /** Whether the embedded database's thread gives freed memory back (freed-memory.ts); yes by default. */
  pgliteReturnsMemory?: boolean;
  /** Told of every connection that fails (a server restart, a killed backend); the process goes on. */
  onConnectionError?: (err: Error) => void;
  /** How many calls may wait for a connection before more are refused with `DatabaseBusyError`. */
  maxWaiting?: number;
}

/** PostgreSQL when a URL is given, otherwise embedded PGlite in its own thread; either way with a bounded wait. */
export async function createDb(opts: DbOptions): Promise<Database> {
  const maxWaiting = opts.maxWaiting ?? LIMITS.dbMaxWaiting;
  if (opts.databaseUrl) {
    const db = createPostgresDb(opts.databaseUrl, { onConnectionError: opts.onConnectionError });
    return withBoundedWait(db, LIMITS.pgPoolSize + maxWaiting);
  }
  const place = {
    dir: opts.pgliteDir,
    image: opts.pgliteImage,
    sharedBuffersMb: opts.pgliteSharedBuffersMb,
    returnsMemory: opts.pgliteReturnsMemory,
  };
  return withBoundedWait(await createPgliteThreadDb(place), 1 + maxWaiting);
}

/**
 * Overload is answered, not queued forever: when `limit` calls are already running or waiting for
 * a connection, the next is refused at once (the gateway answers 503 with Retry-After) instead of
 * waiting behind all of them while latency grows without bound.
 */
export function withBoundedWait(db: Database, limit: number): Database {
  let inFlight = 0;
  const admit = async <T>(run: () => Promise<T>): Promise<T> => {
    if (inFlight >= limit) throw new DatabaseBusyError();
    inFlight++;
    try {
      return await run();
    } finally {
      inFlight--;
    }
  };
  return {
    kind: db.kind,
    query: (sql, params) => admit(() => db.query(sql, params)),
    withTransaction: (fn) => admit(() => retryConflicts(() => db.withTransaction(fn))),
    close: () => db.close(),
  };
}

/**
 * A transaction the database aborted as a deadlock or a serialization failure (40P01, 40001) is
 * run again, up to LIMITS.transactionAttempts in all: concurrent merges of overlapping contacts can
 * deadlock, and the second try goes through. Its work was rolled back, so running it again is safe.
 */
async function retryConflicts<T>(run: () => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await run();
    } catch (err) {
      const retryable = isPgError(err) && (err.code === '40P01' || err.code === '40001');
      if (!retryable || attempt >= LIMITS.transactionAttempts) throw err;
    }
  }
}

/** Both drivers return timestamptz as Date; the API speaks ISO-8601 strings. */
export function iso(value: unknown): string {
  return value instanceof Date ? value.toISOString() : new Date(String(value)).toISOString();
}
