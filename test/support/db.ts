import { randomBytes } from 'node:crypto';
import { cpSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createDb, type Database } from '../../src/db/index.ts';
import { migrate } from '../../src/db/migrate.ts';

/** Where the run's migrated embedded data directory is (test/support/global-setup.ts), if any. */
export const PGLITE_TEMPLATE_ENV = 'LEADGATE_TEST_PGLITE_TEMPLATE';
/** Where its dump is, which in-memory test databases start from. */
export const PGLITE_IMAGE_ENV = 'LEADGATE_TEST_PGLITE_IMAGE';

/** The run's migrated embedded database as a dump, if the run made one (on PostgreSQL it does not). */
export const pgliteImage = (): string | undefined => process.env[PGLITE_IMAGE_ENV];

/** Set by CI (and `npm run test:pg`): run the suite against this PostgreSQL server, else PGlite. */
export const TEST_DATABASE_URL = process.env.TEST_DATABASE_URL || undefined;

export interface TestDb {
  db: Database;
  /** A URL other processes can use to reach the same schema (PostgreSQL only). */
  url: string | undefined;
  cleanup(): Promise<void>;
}

/**
 * A connection string with its query parameters edited. Split by hand, not by `new URL`: a Unix
 * socket's form (`postgres://user@/db?host=/var/run/postgresql`) is no WHATWG URL.
 */
export function editQuery(connectionString: string, edit: (params: URLSearchParams) => void): string {
  const at = connectionString.indexOf('?');
  const params = new URLSearchParams(at < 0 ? '' : connectionString.slice(at + 1));
  edit(params);
  const query = params.toString();
  return `${at < 0 ? connectionString : connectionString.slice(0, at)}${query ? `?${query}` : ''}`;
}

/** A URL whose connections use `schema` as search_path. */
export function urlWithSchema(base: string, schema: string): string {
  return editQuery(base, (p) => p.set('options', `-c search_path=${schema}`));
}

/** A URL whose server takes no writes, as a standby does not (`default_transaction_read_only`). */
export function readOnlyUrl(url: string): string {
  return editQuery(url, (p) =>
    p.set('options', `${p.get('options') ?? ''} -c default_transaction_read_only=on`),
  );
}

/**
 * A fresh, migrated database for one test file: an embedded PGlite in memory (started from the
 * run's migrated database when there is one), or on PostgreSQL a schema of its own (so test files
 * run in parallel without seeing each other).
 */
export async function createTestDb(): Promise<TestDb> {
  if (!TEST_DATABASE_URL) {
    const image = pgliteImage();
    const db = await createDb(image ? { pgliteImage: image } : {});
    await migrate(db);
    return { db, url: undefined, cleanup: () => db.close() };
  }
  const schema = `t_${randomBytes(6).toString('hex')}`;
  const admin = await createDb({ databaseUrl: TEST_DATABASE_URL });
  await admin.query(`CREATE SCHEMA ${schema}`);
  const url = urlWithSchema(TEST_DATABASE_URL, schema);
  const db = await createDb({ databaseUrl: url });
  await migrate(db);
  return {
    db,
    url,
    async cleanup() {
      await db.close();
      await admin.query(`DROP SCHEMA ${schema} CASCADE`);
      await admin.close();
    },
  };
}

/**
 * A new `DATA_DIR` (its name starting with `prefix`) whose embedded database is a copy of the run's
 * migrated one when there is one, so a server started on it skips initdb and the migrations (3–15 s
 * a start on this machine); else empty. For tests that start servers but are not about a first start.
 */
export function migratedDataDir(prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  const template = process.env[PGLITE_TEMPLATE_ENV];
  if (template) cpSync(template, join(dir, 'pgdata'), { recursive: true });
  return dir;
}
