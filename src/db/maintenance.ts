import { LIMITS } from '../limits.ts';
import type { Database } from './database.ts';

interface Log {
  info(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
}

/**
 * Vacuums and analyzes the database every LIMITS.embeddedMaintenanceMs, and analyzes a table that
 * grew by a tenth within LIMITS.statisticsCheckMs (`grownTables`), one statement at a time, as
 * autovacuum would, where nothing else does: the embedded database always (PostgreSQL in
 * single-user mode, where autovacuum never runs), and a PostgreSQL server whose `autovacuum` is
 * off (only this installation's tables, skipping any another process is vacuuming). Without it
 * the rows deliveries and the dispatcher update (outbox messages, texts, webhook deliveries,
 * merged leads) leave dead versions every index scan steps over, and the planner never learns how
 * big a queue has grown (a claim of a few webhook deliveries then sorts the whole backlog).
 * Returns the function that stops it.
 */
export async function maintainTables(db: Database, log: Log): Promise<() => void> {
  let vacuums: string[];
  try {
    vacuums = await vacuumStatements(db);
  } catch (err) {
    log.warn({ err }, 'could not tell whether the database needs vacuuming; not vacuuming it');
    return () => undefined;
  }
  if (vacuums.length === 0) return () => undefined;
  if (db.kind !== 'pglite') {
    log.info({}, 'autovacuum is off on this PostgreSQL: the server vacuums and analyzes its tables itself');
  }
  const analyze = db.kind === 'pglite' ? 'ANALYZE' : 'ANALYZE (SKIP_LOCKED)';
  let timer: NodeJS.Timeout | undefined;
  let stopped = false;
  let lastRun = Date.now();
  const run = async (statements: string[]) => {
    for (const statement of statements) {
      if (stopped) return;
      await db.query(statement);
      // Requests are read and answered between two statements (the embedded database once ran in
      // this thread, its statements following one another without the event loop turning).
      await new Promise((resolve) => setImmediate(resolve));
    }
  };
  // Every check: the whole upkeep once its interval has passed, else the statistics of the tables
  // that grew since theirs were taken.
  const check = async () => {
    if (Date.now() - lastRun >= LIMITS.embeddedMaintenanceMs) {
      lastRun = Date.now();
      return run(vacuums);
    }
    return run((await grownTables(db)).map((name) => `${analyze} ${name}`));
  };
  const next = () => {
    if (stopped) return;
    timer = setTimeout(() => {
      check().then(next, (err: unknown) => {
        log.warn({ err }, 'vacuuming the database failed; trying again later');
        next();
      });
    }, LIMITS.statisticsCheckMs);
    timer.unref();
  };
  next();
  return () => {
    stopped = true;
    clearTimeout(timer);
  };
}

/**
 * This installation's tables that grew by more than a tenth, and four pages, since their
 * statistics were taken (or, never analyzed, past four pages), as autovacuum's analyze threshold
 * would have it. A statement's cached plan is made again when a table it reads is analyzed; until
 * then it keeps the sizes it was planned for. Planned while the contact keys were a handful of
 * rows, the new-contact statement scanned them all for every lead instead of probing the primary
 * key, and a burst of new leads on a fresh database slowed down long before the regular upkeep.
 */
export async function grownTables(db: Database): Promise<string[]> {
  const { rows } = await db.query<{ name: string }>(
    `SELECT quote_ident(n.nspname) || '.' || quote_ident(c.relname) AS name
       FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
      WHERE n.nspname = current_schema() AND c.relkind = 'r'
        AND pg_relation_size(c.oid) / current_setting('block_size')::integer > c.relpages * 1.1 + 4
      ORDER BY c.relname`,
  );
  return rows.map((r) => r.name);
}

/**
 * The VACUUMs the server must run itself, in turn; none when autovacuum takes care of it. On a
 * server, one statement for this installation's tables, skipping any another process is vacuuming.
 * The embedded database (one connection) gets a VACUUM and an ANALYZE per table, deliveries' statements
 * going in between: one VACUUM (ANALYZE) of the whole database holds every request for as long as it
 * runs (its statistics sample is smaller too: pglite.ts).
 */
export async function vacuumStatements(db: Database): Promise<string[]> {
  if (db.kind !== 'pglite') {
    const { rows } = await db.query<{ autovacuum: string }>('SHOW autovacuum');
    if (rows[0]?.autovacuum !== 'off') return [];
  }
  const { rows: tables } = await db.query<{ name: string }>(
    `SELECT quote_ident(schemaname) || '.' || quote_ident(tablename) AS name FROM pg_tables
      WHERE schemaname = current_schema() ORDER BY tablename`,
  );
  const names = tables.map((t) => t.name);
  if (db.kind === 'pglite') return names.flatMap((name) => [`VACUUM ${name}`, `ANALYZE ${name}`]);
  return names.length > 0 ? [`VACUUM (ANALYZE, SKIP_LOCKED) ${names.join(', ')}`] : [];
}
