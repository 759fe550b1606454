import type { Queryable } from '../db/index.ts';

/** The dispatcher's backlog and the Meta fetcher's, for the metrics: one statement. */
export async function queueStats(db: Queryable) {
  const { rows } = await db.query<{
    depth: number;
    lag: number | null;
    pending: number;
    dead: number;
    texts_due: number;
    meta_pending: number;
    meta_reconnect: number;
  }>(
    `SELECT (SELECT count(*)::int FROM outbox WHERE dispatched_at IS NULL) AS depth,
            (SELECT EXTRACT(EPOCH FROM now() - min(created_at))::float8 FROM outbox WHERE dispatched_at IS NULL) AS lag,
            (SELECT count(*)::int FROM webhook_deliveries WHERE status IN ('pending', 'sending')) AS pending,
            (SELECT count(*)::int FROM webhook_deliveries WHERE status = 'dead') AS dead,
            (SELECT count(*)::int FROM sms_messages
              WHERE status IN ('scheduled', 'sending') AND send_at <= now()) AS texts_due,
            (SELECT count(*)::int FROM meta_leads WHERE status IN ('pending', 'fetching')) AS meta_pending,
            (SELECT count(*)::int FROM sources WHERE meta_reconnect_since IS NOT NULL) AS meta_reconnect`,
  );
  const r = rows[0];
  return {
    outboxDepth: r?.depth ?? 0,
    outboxLagSeconds: r?.lag ?? 0,
    webhooksPending: r?.pending ?? 0,
    deadLetters: r?.dead ?? 0,
    textsDue: r?.texts_due ?? 0,
    metaLeadsPending: r?.meta_pending ?? 0,
    metaReconnectNeeded: r?.meta_reconnect ?? 0,
  };
}
