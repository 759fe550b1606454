import { newId } from '../db/ids.ts';
import { iso, type Queryable } from '../db/index.ts';
import type { DestinationKind } from './payloads.ts';
import { newWebhookSecret } from './signing.ts';

/** An outbound destination of a lead source, as the admin API shows it (never its secret). */
export interface DestinationView {
  destination_id: string;
  agent_id: string;
  source_id: string;
  kind: DestinationKind;
  url: string;
  /** The topics it receives; null: every topic. */
  events: string[] | null;
  active: boolean;
  disabled_reason: string | null;
  last_success_at: string | null;
  failing_since: string | null;
  created_at: string;
}

const COLUMNS = `destination_id, agent_id, source_id, kind, url, events, active, disabled_reason, last_success_at,
  failing_since, created_at`;

type Row = Omit<DestinationView, 'last_success_at' | 'failing_since' | 'created_at'> & {
  last_success_at: Date | null;
  failing_since: Date | null;
  created_at: Date;
};

function view(row: Row): DestinationView {
  return {
    ...row,
    last_success_at: row.last_success_at ? iso(row.last_success_at) : null,
    failing_since: row.failing_since ? iso(row.failing_since) : null,
    created_at: iso(row.created_at),
  };
}

export async function createDestination(
  db: Queryable,
  d: { agent_id: string; source_id: string; kind: DestinationKind; url: string; events: string[] | null },
): Promise<{ destination: DestinationView; secret: string }> {
  const secret = newWebhookSecret();
  const { rows } = await db.query<Row>(
    `INSERT INTO sync_destinations (agent_id, destination_id, source_id, kind, url, events, secret)
     VALUES ($1, $2, $3, $4, $5, $6, $7) RETURNING ${COLUMNS}`,
    [d.agent_id, newId(), d.source_id, d.kind, d.url, d.events, secret],
  );
  const row = rows[0];
  if (!row) throw new Error('expected the destination row');
  return { destination: view(row), secret };
}

export async function listDestinations(db: Queryable, sourceId: string): Promise<DestinationView[]> {
  const { rows } = await db.query<Row>(
    `SELECT ${COLUMNS} FROM sync_destinations WHERE source_id = $1 ORDER BY created_at, destination_id`,
    [sourceId],
  );
  return rows.map(view);
}

/** Deletes a destination (of `owner`'s, when given) and cancels its pending deliveries; false when none. */
export async function deleteDestination(
  db: Queryable,
  destinationId: string,
  owner: string | null = null,
): Promise<boolean> {
  if (owner !== null) {
    const { rows } = await db.query<{ agent_id: string }>(
      'SELECT agent_id FROM sync_destinations WHERE destination_id = $1',
      [destinationId],
    );
    if (rows[0]?.agent_id !== owner) return false;
  }
  await cancelPending(db, destinationId);
  const { rowCount } = await db.query('DELETE FROM sync_destinations WHERE destination_id = $1', [
    destinationId,
  ]);
  return rowCount > 0;
}

/**
 * The active destinations of a source that receive `topic`, for a dispatch: by the source alone,
 * for an agency's source sends its leads' events from every producer they were routed to.
 */
export async function destinationsFor(
  tx: Queryable,
  sourceId: string,
  topic: string,
): Promise<Array<{ destination_id: string; kind: DestinationKind }>> {
  const { rows } = await tx.query<{ destination_id: string; kind: DestinationKind }>(
    `SELECT destination_id, kind FROM sync_destinations
      WHERE source_id = $1 AND active AND (events IS NULL OR $2 = ANY (events))
      ORDER BY destination_id`,
    [sourceId, topic],
  );
  return rows;
}

/** A delivery succeeded: the destination is healthy again. */
export async function markDestinationsHealthy(
  db: Queryable,
  destinationIds: readonly string[],
): Promise<void> {
  if (destinationIds.length === 0) return;
  await db.query(
    // Written at most once a second per destination: concurrent successes need not queue on its row.
    `UPDATE sync_destinations SET last_success_at = now(), failing_since = NULL
      WHERE destination_id = ANY($1::uuid[])
        AND (failing_since IS NOT NULL OR last_success_at IS NULL OR last_success_at < now() - interval '1 second')`,
    [[...new Set(destinationIds)]],
  );
}

/**
 * A delivery failed: the destination is failing since its first failure after a success, and is
 * disabled once it has failed without a success for `disableAfterMs`. Returns whether it was disabled.
 */
export async function markDestinationFailing(
  db: Queryable,
  destinationId: string,
  disableAfterMs: number,
): Promise<boolean> {
  const { rows } = await db.query<{ failing_since: Date }>(
    `UPDATE sync_destinations SET failing_since = COALESCE(failing_since, now())
      WHERE destination_id = $1 RETURNING failing_since`,
    [destinationId],
  );
  const since = rows[0]?.failing_since;
  if (!since || Date.now() - new Date(since).getTime() < disableAfterMs) return false;
  await disableDestination(db, destinationId, 'failing');
  return true;
}

/** Switches a destination off (`gone`: it answered 410; `failing`: no success for days). */
export async function disableDestination(
  db: Queryable,
  destinationId: string,
  reason: 'gone' | 'failing',
): Promise<void> {
  await db.query(
    'UPDATE sync_destinations SET active = false, disabled_reason = $2 WHERE destination_id = $1 AND active',
    [destinationId, reason],
  );
  await cancelPending(db, destinationId);
}

async function cancelPending(db: Queryable, destinationId: string): Promise<void> {
  await db.query(
    `UPDATE webhook_deliveries SET status = 'canceled', lease_until = NULL, updated_at = now()
      WHERE destination_id = $1 AND status IN ('pending', 'sending')`,
    [destinationId],
  );
}
