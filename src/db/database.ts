/**
 * The one small database interface the rest of the code sees. Two drivers implement it:
 * `pg` (a PostgreSQL server, the system of record) and PGlite (embedded, the default).
 * Both speak the same SQL; migrations are shared.
 */
export interface QueryResult<T> {
  rows: T[];
  rowCount: number;
}

export interface Queryable {
  query<T = Record<string, unknown>>(sql: string, params?: readonly unknown[]): Promise<QueryResult<T>>;
}

export interface Database extends Queryable {
  readonly kind: 'postgres' | 'pglite';
  /** Runs `fn` in one transaction: committed when it resolves, rolled back when it throws. */
  withTransaction<T>(fn: (tx: Queryable) => Promise<T>): Promise<T>;
  close(): Promise<void>;
}

/**
 * A transaction's statements, as a driver runs them: the code inside may send several without
 * waiting for each (Promise.all), so the transaction ends only once every statement sent has
 * finished (one sent together with a statement that failed must not run after the ROLLBACK,
 * outside the transaction), and refuses statements sent after its end. `oneAtATime`: each waits
 * for the one before it (pg's own queue for a busy client is deprecated); otherwise they go to the
 * driver at once.
 */
export function transactionStatements(
  run: (sql: string, params?: readonly unknown[]) => Promise<QueryResult<unknown>>,
  { oneAtATime }: { oneAtATime: boolean },
): { tx: Queryable; end(): Promise<void> } {
  let ended = false;
  /** Settles once every statement sent so far has finished. */
  let allDone: Promise<void> = Promise.resolve();
  const settled = () => undefined;
  return {
    tx: {
      query<T>(sql: string, params?: readonly unknown[]) {
        if (ended) return Promise.reject(new Error('the transaction has ended'));
        const result = (oneAtATime ? allDone.then(() => run(sql, params)) : run(sql, params)) as Promise<
          QueryResult<T>
        >;
        const done = result.then(settled, settled);
        // One at a time, a statement finishes after every one before it.
        allDone = oneAtATime ? done : Promise.all([allDone, done]).then(settled);
        return result;
      },
    },
    end() {
      ended = true;
      return allDone;
    },
  };
}

/** A PostgreSQL error as both drivers report it (SQLSTATE in `code`). */
export interface PgError extends Error {
  code: string;
  constraint?: string;
  detail?: string;
  table?: string;
  column?: string;
}

export function isPgError(err: unknown): err is PgError {
  const code: unknown = err instanceof Error ? (err as { code?: unknown }).code : undefined;
  return typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code);
}

/** The database's connection failures, as pg and Node report them: retrying later will work. */
const TRANSIENT_NETWORK_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'EAI_AGAIN',
]);
const TRANSIENT_MESSAGES =
  /Connection terminated|connection error and is not queryable|timeout exceeded when trying to connect|Cannot use a pool after calling end|Client was closed|server closed the connection unexpectedly/i;

/**
 * The connection to the primary broke, or the server it reached no longer takes writes: the
 * connection broke (SQLSTATE class 08, or as the network reports it), the server is shutting down
 * or starting (57P01–57P03), it is read-only (25006: a standby, or a primary since demoted), or no
 * host takes writes (`NoPrimaryError`). The primary may have moved: the driver asks the hosts again.
 */
export function isConnectionLoss(err: unknown): boolean {
  if (err instanceof NoPrimaryError) return true;
  if (!(err instanceof Error)) return false;
  const code = (err as { code?: unknown }).code;
  if (typeof code === 'string') {
    if (TRANSIENT_NETWORK_CODES.has(code)) return true;
    if (/^08/.test(code) || ['57P01', '57P02', '57P03', '25006'].includes(code)) return true;
  }
  return TRANSIENT_MESSAGES.test(err.message);
}

/**
 * A failure that says nothing about the delivery and will pass: a lost connection or primary
 * (`isConnectionLoss`), out of connections (53300), a deadlock or serialization failure that
 * outlived its retries, or the process's own limit on waiting for the database
 * (`DatabaseBusyError`). The sender is told 503 with Retry-After.
 */
export function isTransientDbError(err: unknown): boolean {
  if (err instanceof DatabaseBusyError || isConnectionLoss(err)) return true;
  const code = err instanceof Error ? (err as { code?: unknown }).code : undefined;
  return typeof code === 'string' && ['53300', '40001', '40P01'].includes(code);
}

/**
 * A value the database refused (SQLSTATE class 22, data exception: a date out of its range, a NUL in
 * text, a malformed id): the request's fault, which validation before the query should have caught.
 */
export function isRefusedValue(err: unknown): boolean {
  const code = err instanceof Error ? (err as { code?: unknown }).code : undefined;
  return typeof code === 'string' && /^22[0-9A-Z]{3}$/.test(code);
}

/** Too many requests are already waiting for the database: refused at once rather than queued. */
export class DatabaseBusyError extends Error {
  constructor() {
    super('too many requests waiting for the database');
    this.name = 'DatabaseBusyError';
  }
}

/** No host of the connection string takes writes now: during a failover, before a standby is promoted. */
export class NoPrimaryError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'NoPrimaryError';
  }
}

/** SQLSTATE class 23: integrity constraint violation. */
export function isConstraintViolation(err: unknown): err is PgError {
  return isPgError(err) && err.code.startsWith('23');
}
