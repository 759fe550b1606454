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

/** SQLSTATE class 23: integrity constraint violation. */
export function isConstraintViolation(err: unknown): err is PgError {
  return isPgError(err) && err.code.startsWith('23');
}
