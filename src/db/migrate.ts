import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Database } from './database.ts';

const MIGRATIONS_DIR = join(dirname(fileURLToPath(import.meta.url)), '../../migrations');
// Any constant: every process migrating the same database takes the same advisory lock.
const MIGRATION_LOCK = 7_420_001;

export interface Migration {
  version: number;
  name: string;
  sql: string;
}

export function loadMigrations(dir = MIGRATIONS_DIR): Migration[] {
  return readdirSync(dir)
    .filter((f) => /^\d{4}-[\w-]+\.sql$/.test(f))
    .sort()
    .map((file) => ({
      version: Number(file.slice(0, 4)),
      name: file.replace(/\.sql$/, ''),
      sql: readFileSync(join(dir, file), 'utf8'),
    }));
}

/**
 * Applies pending migrations, each in its own transaction, under an advisory lock so that
 * several gateway processes starting together on one PostgreSQL migrate exactly once.
 * Returns the names of the migrations applied.
 */
export async function migrate(db: Database, migrations = loadMigrations()): Promise<string[]> {
  return db.withTransaction(async (tx) => {
    await tx.query('SELECT pg_advisory_xact_lock($1)', [MIGRATION_LOCK]);
    await tx.query(`CREATE TABLE IF NOT EXISTS schema_migrations (
      version integer PRIMARY KEY, name text NOT NULL, applied_at timestamptz NOT NULL DEFAULT now())`);
    const done = new Set(
      (await tx.query<{ version: number }>('SELECT version FROM schema_migrations')).rows.map(
        (r) => r.version,
      ),
    );
    const applied: string[] = [];
    for (const m of migrations) {
      if (done.has(m.version)) continue;
      for (const statement of splitStatements(m.sql)) await tx.query(statement);
      await tx.query('INSERT INTO schema_migrations (version, name) VALUES ($1, $2)', [m.version, m.name]);
      applied.push(m.name);
    }
    return applied;
  });
}

/**
 * Splits a migration on `;` at line ends; our migrations keep one statement per `;`. A function
 * body between `$$` lines is part of its statement, its own `;`s included.
 */
export function splitStatements(sql: string): string[] {
  const statements: string[] = [];
  let current: string[] = [];
  let inBody = false;
  for (const line of sql.split('\n')) {
    if (!inBody && /^\s*--/.test(line)) continue;
    current.push(line);
    if ((line.match(/\$\$/g) ?? []).length % 2 === 1) inBody = !inBody;
    if (!inBody && /;\s*$/.test(line)) {
      statements.push(current.join('\n').replace(/;\s*$/, ''));
      current = [];
    }
  }
  statements.push(current.join('\n'));
  return statements.map((s) => s.trim()).filter((s) => s.length > 0);
}
