import type { Queryable } from '../db/index.ts';
import { REGISTRY_MAX_AGE_MS } from '../screening/lists.ts';

/** The dispatcher's backlog, the Meta fetcher's and the stale registry lists, for the metrics: one statement. */
export async function queueStats(db: Queryable) {
  const { rows } = await db.query<{
    depth: number;
    lag: number | null;
    pending: number;
    dead: number;
    texts_due: number;
    steps_due: number;
    reminders_due: number;
    meta_pending: number;
    meta_reconnect: number;
    stale_registry: number;
  }>(
    `SELECT (SELECT count(*)::int FROM outbox WHERE dispatched_at IS NULL) AS depth,
            (SELECT EXTRACT(EPOCH FROM now() - min(created_at))::float8 FROM outbox WHERE dispatched_at IS NULL) AS lag,
            (SELECT count(*)::int FROM webhook_deliveries WHERE status IN ('pending', 'sending')) AS pending,
            (SELECT count(*)::int FROM webhook_deliveries WHERE status = 'dead') AS dead,
            (SELECT count(*)::int FROM sms_messages
              WHERE status IN ('scheduled', 'sending') AND send_at <= now()) AS texts_due,
            (SELECT count(*)::int FROM cadence_runs
              WHERE status IN ('active', 'stepping') AND due_at <= now()) AS steps_due,
            (SELECT count(*)::int FROM appointment_reminders
              WHERE status IN ('planned', 'sending') AND due_at <= now()) AS reminders_due,
            (SELECT count(*)::int FROM meta_leads WHERE status IN ('pending', 'fetching')) AS meta_pending,
            (SELECT count(*)::int FROM sources WHERE meta_reconnect_since IS NOT NULL) AS meta_reconnect,
            (SELECT count(*)::int FROM (
               SELECT loaded_at FROM suppression_lists WHERE list = 'registry'
               UNION ALL SELECT loaded_at FROM agency_suppression_lists WHERE list = 'registry') r
              WHERE r.loaded_at < now() - make_interval(secs => $1)) AS stale_registry`,
    [REGISTRY_MAX_AGE_MS / 1000],
  );
  const r = rows[0];
  return {
    outboxDepth: r?.depth ?? 0,
    outboxLagSeconds: r?.lag ?? 0,
    webhooksPending: r?.pending ?? 0,
    deadLetters: r?.dead ?? 0,
    textsDue: r?.texts_due ?? 0,
    cadenceStepsDue: r?.steps_due ?? 0,
    remindersDue: r?.reminders_due ?? 0,
    metaLeadsPending: r?.meta_pending ?? 0,
    metaReconnectNeeded: r?.meta_reconnect ?? 0,
    staleRegistryLists: r?.stale_registry ?? 0,
  };
}
