import type { Database } from './database.ts';
import { createPgliteDb } from './pglite.ts';
import { createPostgresDb } from './postgres.ts';

export type { Database, Queryable } from './database.ts';

/** PostgreSQL when a URL is given, otherwise embedded PGlite in `pgliteDir` (memory when undefined). */
export async function createDb(opts: { databaseUrl?: string; pgliteDir?: string }): Promise<Database> {
  if (opts.databaseUrl) return createPostgresDb(opts.databaseUrl);
  return createPgliteDb(opts.pgliteDir);
}

/** Both drivers return timestamptz as Date; the API speaks ISO-8601 strings. */
export function iso(value: unknown): string {
  return value instanceof Date ? value.toISOString() : new Date(String(value)).toISOString();
}
