import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { createDb } from '../../src/db/index.ts';
import { migrate } from '../../src/db/migrate.ts';
import { PGLITE_IMAGE_ENV, PGLITE_TEMPLATE_ENV } from './db.ts';

/**
 * Once per test run on the embedded database: a data directory made by initdb and migrated, which
 * servers started by tests begin as a copy of, and its dump, which each test file's in-memory
 * database starts from (test/support/db.ts). Loading the dump into memory is the fastest of the
 * three ways a file could get its database (docs/benchmarks.md).
 */
export default async function setup(): Promise<() => void> {
  if (process.env.TEST_DATABASE_URL) return () => undefined;
  const root = mkdtempSync(join(tmpdir(), 'leadgate-test-template-'));
  const dir = join(root, 'pgdata');
  const db = await createDb({ pgliteDir: dir });
  await migrate(db);
  await db.close();
  const template = await PGlite.create({ dataDir: dir });
  const image = join(root, 'pgdata.tar');
  writeFileSync(image, new Uint8Array(await (await template.dumpDataDir('none')).arrayBuffer()));
  await template.close();
  process.env[PGLITE_TEMPLATE_ENV] = dir;
  process.env[PGLITE_IMAGE_ENV] = image;
  return () => rmSync(root, { recursive: true, force: true });
}
