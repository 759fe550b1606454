import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDb, type TestDb } from './support/db.ts';

/**
 * What distributing the schema by tenant (docs/scaling.md) needs of it, on the migrated schema:
 * every table is classed on that page, and every distributed table keeps its tenant, `agent_id`,
 * in its primary key, its unique indexes and its foreign keys to other distributed tables.
 */

let t: TestDb;
beforeAll(async () => {
  t = await createTestDb();
});
afterAll(() => t.cleanup());

const doc = readFileSync(new URL('../docs/scaling.md', import.meta.url), 'utf8');
/** The tables of the row of docs/scaling.md's table that starts with `kind`. */
function tablesOf(kind: string): string[] {
  const row = doc.split('\n').find((line) => line.startsWith(`| ${kind}`)) ?? '';
  const cell = row.split('|')[2] ?? '';
  return [...cell.matchAll(/`([a-z_]+)`/g)].map((m) => m[1] ?? '');
}
const DISTRIBUTED = tablesOf('Distributed by `agent_id`');
const BY_AGENCY = tablesOf('Distributed by `agency_id`');
const REFERENCE = tablesOf('Reference');
const COORDINATOR = tablesOf('Coordinator only');

async function rows<T>(sql: string): Promise<T[]> {
  return (await t.db.query<T>(sql)).rows;
}

describe('the schema can be distributed by tenant (docs/scaling.md)', () => {
  it('When the schema is migrated, then every table is classed as distributed or reference, once', async () => {
    const tables = await rows<{ name: string }>(
      `SELECT relname AS name FROM pg_class
        WHERE relnamespace = current_schema()::regnamespace AND relkind IN ('r', 'p') ORDER BY 1`,
    );
    expect(DISTRIBUTED.length).toBeGreaterThan(5);
    expect([...DISTRIBUTED, ...BY_AGENCY, ...REFERENCE, ...COORDINATOR].sort()).toEqual(
      tables.map((r) => r.name),
    );
  });

  it('When a table is distributed, then it carries the tenant and its primary key starts from it', async () => {
    const keys = await rows<{ table: string; columns: string[] }>(
      `SELECT c.conrelid::regclass::text AS table,
              array(SELECT a.attname::text FROM unnest(c.conkey) AS k (n)
                      JOIN pg_attribute a ON a.attrelid = c.conrelid AND a.attnum = k.n) AS columns
         FROM pg_constraint c
        WHERE c.connamespace = current_schema()::regnamespace AND c.contype = 'p'`,
    );
    for (const table of DISTRIBUTED) {
      expect(keys.find((k) => k.table === table)?.columns[0], table).toBe('agent_id');
    }
  });

  it('When a table is distributed by agency, then its primary key and its unique indexes start from the agency', async () => {
    const unique = await rows<{ table: string; columns: string[] }>(
      `SELECT i.indrelid::regclass::text AS table,
              array(SELECT a.attname::text FROM unnest(i.indkey) AS k (n)
                      JOIN pg_attribute a ON a.attrelid = i.indrelid AND a.attnum = k.n) AS columns
         FROM pg_index i JOIN pg_class c ON c.oid = i.indrelid
        WHERE c.relnamespace = current_schema()::regnamespace AND i.indisunique`,
    );
    expect(BY_AGENCY.length).toBeGreaterThan(0);
    for (const table of BY_AGENCY) {
      const keys = unique.filter((u) => u.table === table);
      expect(keys.length, table).toBeGreaterThan(0);
      for (const key of keys) expect(key.columns[0], table).toBe('agency_id');
    }
  });

  it('When a distributed table has a unique index, then the tenant is one of its columns', async () => {
    const unique = await rows<{ table: string; index: string; columns: string[] }>(
      `SELECT i.indrelid::regclass::text AS table, i.indexrelid::regclass::text AS index,
              array(SELECT a.attname::text FROM unnest(i.indkey) AS k (n)
                      JOIN pg_attribute a ON a.attrelid = i.indrelid AND a.attnum = k.n) AS columns
         FROM pg_index i JOIN pg_class c ON c.oid = i.indrelid
        WHERE c.relnamespace = current_schema()::regnamespace AND i.indisunique`,
    );
    const missing = unique
      .filter((u) => DISTRIBUTED.includes(u.table) && !u.columns.includes('agent_id'))
      .map((u) => u.index);
    expect(missing).toEqual([]);
    expect(unique.filter((u) => DISTRIBUTED.includes(u.table)).length).toBeGreaterThan(DISTRIBUTED.length);
  });

  it('When a distributed table refers to another, then the reference goes through the tenant', async () => {
    const foreign = await rows<{ table: string; target: string; name: string; columns: string[] }>(
      `SELECT c.conrelid::regclass::text AS table, c.confrelid::regclass::text AS target, c.conname AS name,
              array(SELECT a.attname::text FROM unnest(c.conkey) AS k (n)
                      JOIN pg_attribute a ON a.attrelid = c.conrelid AND a.attnum = k.n) AS columns
         FROM pg_constraint c
        WHERE c.connamespace = current_schema()::regnamespace AND c.contype = 'f'`,
    );
    const between = foreign.filter((f) => DISTRIBUTED.includes(f.table) && DISTRIBUTED.includes(f.target));
    expect(between.length).toBeGreaterThan(0);
    expect(between.filter((f) => !f.columns.includes('agent_id')).map((f) => f.name)).toEqual([]);
  });
});
