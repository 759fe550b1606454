import { LIMITS } from '../config.ts';
import type { Database } from './database.ts';

/**
 * The embedded database runs PostgreSQL in single-user mode, where autovacuum never runs: the rows
 * deliveries and the dispatcher update (outbox messages, texts, webhook deliveries, merged leads)
 * leave dead versions that every index scan steps over, and the planner never learns a table's
 * size. Measured on the delivery bench, claiming due texts went from 1.3 to 17.6 ms within
 * seconds. So the server vacuums and analyzes it every LIMITS.embeddedMaintenanceMs, one run at a
 * time, as autovacuum would. Returns the function that stops it.
 */
export function maintainEmbedded(db: Database, log: { warn(obj: object, msg: string): void }): () => void {
  let timer: NodeJS.Timeout | undefined;
  let stopped = false;
  const next = () => {
    if (stopped) return;
    timer = setTimeout(() => {
      db.query('VACUUM (ANALYZE)').then(next, (err: unknown) => {
        log.warn({ err }, 'vacuuming the embedded database failed; trying again later');
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
