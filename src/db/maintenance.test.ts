import { afterEach, describe, expect, it, vi } from 'vitest';
import { createTestDb } from '../../test/support/db.ts';
import { LIMITS } from '../limits.ts';
import type { Database } from './database.ts';
import { grownTables, maintainTables, vacuumStatements } from './maintenance.ts';

afterEach(() => {
  vi.useRealTimers();
});

/** Lets a run's statements and the real turns of the event loop between them happen. */
async function settle(): Promise<void> {
  for (let i = 0; i < 20; i++) await new Promise((resolve) => setImmediate(resolve));
}

const quiet = { info: () => undefined, warn: () => undefined };

/** The check for tables that grew (`grownTables`), made every LIMITS.statisticsCheckMs. */
const isGrowthCheck = (sql: string) => sql.includes('pg_relation_size');

/**
 * A database that records its statements (all but the growth checks, counted apart); a
 * PostgreSQL one answers SHOW autovacuum, and both their tables and the tables in `grown`.
 */
function fakeDb(fail: () => boolean, kind: 'pglite' | 'postgres' = 'pglite', autovacuum = 'on') {
  const statements: string[] = [];
  const grown: string[] = [];
  let checks = 0;
  const db = {
    kind,
    query: async (sql: string) => {
      if (isGrowthCheck(sql)) {
        checks++;
        return { rows: grown.map((name) => ({ name })), rowCount: grown.length };
      }
      statements.push(sql);
      if (sql === 'SHOW autovacuum') return { rows: [{ autovacuum }], rowCount: 1 };
      if (sql.includes('pg_tables'))
        return { rows: [{ name: 's.leads' }, { name: 's.outbox' }], rowCount: 2 };
      if (fail()) throw new Error('disk full');
      return { rows: [], rowCount: 0 };
    },
  } as unknown as Database;
  return { db, statements, grown, checks: () => checks };
}

describe('maintainTables', () => {
  it('When its interval passes, then the embedded database is vacuumed, then analyzed, a table at a time, again and again until stopped', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
    const { db, statements } = fakeDb(() => false);
    const stop = await maintainTables(db, quiet);
    statements.length = 0; // the list of tables
    await vi.advanceTimersByTimeAsync(LIMITS.embeddedMaintenanceMs - 1);
    await settle();
    expect(statements).toEqual([]);
    await vi.advanceTimersByTimeAsync(1);
    await settle();
    expect(statements).toEqual(['VACUUM s.leads', 'ANALYZE s.leads', 'VACUUM s.outbox', 'ANALYZE s.outbox']);
    await vi.advanceTimersByTimeAsync(LIMITS.embeddedMaintenanceMs);
    await settle();
    expect(statements).toHaveLength(8);
    stop();
    await vi.advanceTimersByTimeAsync(5 * LIMITS.embeddedMaintenanceMs);
    await settle();
    expect(statements).toHaveLength(8);
  });

  it('When a table grows by a tenth between two upkeeps, then it is analyzed at the next check, without a vacuum, and only while it keeps growing', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
    for (const kind of ['pglite', 'postgres'] as const) {
      const { db, statements, grown, checks } = fakeDb(() => false, kind, 'off');
      const stop = await maintainTables(db, quiet);
      statements.length = 0;
      await vi.advanceTimersByTimeAsync(LIMITS.statisticsCheckMs);
      await settle();
      expect(checks()).toBe(1);
      expect(statements).toEqual([]);
      grown.push('s.lead_contacts');
      await vi.advanceTimersByTimeAsync(LIMITS.statisticsCheckMs);
      await settle();
      expect(statements).toEqual([
        kind === 'pglite' ? 'ANALYZE s.lead_contacts' : 'ANALYZE (SKIP_LOCKED) s.lead_contacts',
      ]);
      grown.length = 0;
      await vi.advanceTimersByTimeAsync(LIMITS.statisticsCheckMs);
      await settle();
      expect(statements).toHaveLength(1);
      expect(checks()).toBe(3);
      stop();
    }
  });

  it('When the embedded database is vacuumed, then the event loop turns between two statements, so requests are answered in between', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
    const events: string[] = [];
    const db = {
      kind: 'pglite',
      query: async (sql: string) => {
        if (sql.includes('pg_tables'))
          return { rows: [{ name: 's.leads' }, { name: 's.outbox' }], rowCount: 2 };
        if (isGrowthCheck(sql)) return { rows: [], rowCount: 0 };
        events.push(sql);
        // What a request arriving during this statement gets to run: the next turn of the loop.
        setImmediate(() => events.push('a turn of the loop'));
        return { rows: [], rowCount: 0 };
      },
    } as unknown as Database;
    const stop = await maintainTables(db, quiet);
    await vi.advanceTimersByTimeAsync(LIMITS.embeddedMaintenanceMs);
    await settle();
    expect(events).toEqual([
      'VACUUM s.leads',
      'a turn of the loop',
      'ANALYZE s.leads',
      'a turn of the loop',
      'VACUUM s.outbox',
      'a turn of the loop',
      'ANALYZE s.outbox',
      'a turn of the loop',
    ]);
    stop();
  });

  it('When a run fails, then it is logged and the next one still comes', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
    let failing = true;
    const { db, statements } = fakeDb(() => failing);
    const warnings: string[] = [];
    const stop = await maintainTables(db, { ...quiet, warn: (_obj, msg) => warnings.push(msg) });
    statements.length = 0;
    await vi.advanceTimersByTimeAsync(LIMITS.embeddedMaintenanceMs);
    await settle();
    expect(warnings).toHaveLength(1);
    expect(statements).toHaveLength(1); // the run stopped at its first failure
    failing = false;
    await vi.advanceTimersByTimeAsync(LIMITS.embeddedMaintenanceMs);
    await settle();
    expect(statements).toHaveLength(5);
    expect(warnings).toHaveLength(1);
    stop();
  });

  it('When PostgreSQL runs autovacuum, then the server vacuums nothing itself', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
    const { db, statements, checks } = fakeDb(() => false, 'postgres', 'on');
    const stop = await maintainTables(db, quiet);
    await vi.advanceTimersByTimeAsync(3 * LIMITS.embeddedMaintenanceMs);
    await settle();
    expect(statements).toEqual(['SHOW autovacuum']);
    expect(checks()).toBe(0);
    stop();
  });

  it('When autovacuum is off on PostgreSQL, then the server vacuums and analyzes its own tables, skipping locked ones, and says so', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
    const { db, statements } = fakeDb(() => false, 'postgres', 'off');
    const said: string[] = [];
    const stop = await maintainTables(db, { ...quiet, info: (_obj, msg) => said.push(msg) });
    expect(said).toEqual([expect.stringContaining('autovacuum is off')]);
    await vi.advanceTimersByTimeAsync(LIMITS.embeddedMaintenanceMs);
    await settle();
    expect(statements.at(-1)).toBe('VACUUM (ANALYZE, SKIP_LOCKED) s.leads, s.outbox');
    stop();
  });
});

describe('grownTables on a real database', () => {
  it('When a table has grown by a tenth since its statistics, then it is listed until it is analyzed again', async () => {
    const { db, cleanup } = await createTestDb();
    try {
      await db.query('CREATE TABLE growth_probe (id integer, note text)');
      await db.query("INSERT INTO growth_probe SELECT i, 'first' FROM generate_series(1, 10) i");
      await db.query('ANALYZE growth_probe');
      expect(await grownTables(db)).toEqual([]);
      await db.query("INSERT INTO growth_probe SELECT i, 'a later row' FROM generate_series(1, 3000) i");
      const grown = await grownTables(db);
      expect(grown).toHaveLength(1);
      expect(grown[0]).toMatch(/\.growth_probe$/);
      await db.query(`ANALYZE ${grown[0] ?? ''}`);
      expect(await grownTables(db)).toEqual([]);
      await db.query('DROP TABLE growth_probe');
    } finally {
      await cleanup();
    }
  });
});

describe('vacuumStatements on a real database', () => {
  it('When they run, then they succeed and cover this installation’s tables only (or autovacuum does it)', async () => {
    const { db, cleanup } = await createTestDb();
    try {
      const statements = await vacuumStatements(db);
      const statement = statements.join('; ') || null;
      if (db.kind === 'postgres') {
        const { rows } = await db.query<{ autovacuum: string; schema: string }>(
          'SELECT current_setting($1) AS autovacuum, current_schema() AS schema',
          ['autovacuum'],
        );
        if (rows[0]?.autovacuum === 'on') {
          expect(statement).toBeNull();
          return;
        }
        expect(statement).toContain(`${rows[0]?.schema ?? ''}.outbox`);
        expect(statement).toContain(`${rows[0]?.schema ?? ''}.webhook_deliveries`);
        expect(statement).not.toMatch(/pg_catalog|public\./);
      }
      expect(statement).not.toBeNull();
      if (db.kind === 'pglite')
        expect(statements).toEqual(expect.arrayContaining(['VACUUM public.leads', 'ANALYZE public.leads']));
      for (const vacuum of statements) await db.query(vacuum);
    } finally {
      await cleanup();
    }
  });
});
