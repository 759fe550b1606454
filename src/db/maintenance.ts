import { LIMITS } from '../config.ts';
import type { Database } from './database.ts';

interface Log {
  info(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
}

/**
 * Vacuums and analyzes the database every LIMITS.embeddedMaintenanceMs, one run at a time, as
 * autovacuum would, where nothing else does: the embedded database always (PostgreSQL in
 * single-user mode, where autovacuum never runs), and a PostgreSQL server whose `autovacuum` is
 * off (only this installation's tables, skipping any another process is vacuuming). Without it
 * the rows deliveries and the dispatcher update (outbox messages, texts, webhook deliveries,
 * merged leads) leave dead versions every index scan steps over, and the planner never learns how
 * big a queue has grown. Measured: claiming due texts on the embedded database went from 1.3 to
 * 17.6 ms within seconds; on a PostgreSQL with autovacuum off, claiming 200 webhook deliveries
 * behind a 330,000-row backlog took 2.4 s (a sort of the whole backlog, planned for 200 rows).
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
  let timer: NodeJS.Timeout | undefined;
  let stopped = false;
  const run = async () => {
    for (const vacuum of vacuums) {
      if (stopped) return;
      await db.query(vacuum);
      // The embedded database runs in this thread, and its statements can follow one another
      // without the event loop turning: requests are read and answered between two statements.
      await new Promise((resolve) => setImmediate(resolve));
    }
  };
  const next = () => {
    if (stopped) return;
    timer = setTimeout(() => {
      run().then(next, (err: unknown) => {
        log.warn({ err }, 'vacuuming the database failed; trying again later');
        next();
      });
    }, LIMITS.embeddedMaintenanceMs);
    timer.unref();
  };
  next();
  return () => {
    stopped = true;
    clearTimeout(timer);
  };
}

/**
 * The VACUUMs the server must run itself, in turn; none when autovacuum takes care of it. On a
 * server, one statement for this installation's tables, skipping any another process is vacuuming.
 * The embedded database runs in the server's own thread, so it gets a VACUUM and an ANALYZE per
 * table, with requests answered in between: one VACUUM (ANALYZE) of the whole database took 1.2 s
 * at 40,000 leads, longer than the event-loop delay at which the server answers 503 (its statistics
 * sample is smaller too: pglite.ts); and a VACUUM (ANALYZE) per table, run back to back, held the
 * requests of its 30 s round for up to 500 ms (repeat contacts' p99 519 ms; 165–168 ms split).
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
