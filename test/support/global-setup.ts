import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createDb } from '../../src/db/index.ts';
import { migrate } from '../../src/db/migrate.ts';
import { PGLITE_TEMPLATE_ENV } from './db.ts';

/**
 * Once per test run on the embedded database: a data directory made by initdb and migrated, which
 * each test file's database starts as a copy of (test/support/db.ts). Making one afresh took 3–5 s
 * a file, a copy of this about half a second.
 */
export default async function setup(): Promise<() => void> {
  if (process.env.TEST_DATABASE_URL) return () => undefined;
  const root = mkdtempSync(join(tmpdir(), 'leadgate-test-template-'));
  const dir = join(root, 'pgdata');
  const db = await createDb({ pgliteDir: dir });
  await migrate(db);
  await db.close();
  process.env[PGLITE_TEMPLATE_ENV] = dir;
  return () => rmSync(root, { recursive: true, force: true });
}
