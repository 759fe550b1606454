import { newId } from '../db/ids.ts';
import { iso, type Queryable } from '../db/index.ts';
import { jobQueue } from '../jobs/queue.ts';
import type { JsonObject } from '../json.ts';
import type { DestinationKind } from './payloads.ts';

export const DELIVERY_STATUSES = ['pending', 'sending', 'delivered', 'dead', 'canceled'] as const;
export type DeliveryStatus = (typeof DELIVERY_STATUSES)[number];

export interface NewDelivery {
  agent_id: string;
  message_id: string;
  destination_id: string;
  lead_id: string | null;
  seq: number;
  topic: string;
  body: JsonObject;
}

/** Every delivery of a fan-out round, in one statement; one already made for its message is kept. */
export async function insertDeliveries(tx: Queryable, deliveries: readonly NewDelivery[]): Promise<void> {
  if (deliveries.length === 0) return;
  const column = <K extends keyof NewDelivery>(key: K) => deliveries.map((d) => d[key]);
  await tx.query(
    `INSERT INTO webhook_deliveries (agent_id, delivery_id, message_id, destination_id, lead_id, seq, topic, body)
     SELECT * FROM unnest($1::uuid[], $2::uuid[], $3::uuid[], $4::uuid[], $5::uuid[], $6::bigint[], $7::text[], $8::jsonb[])
     ON CONFLICT (agent_id, message_id, destination_id) DO NOTHING`,
    [
      column('agent_id'),
      deliveries.map(() => newId()),
      column('message_id'),
      column('destination_id'),
      column('lead_id'),
      column('seq'),
      column('topic'),
      deliveries.map((d) => JSON.stringify(d.body)),
    ],
  );
}

/** A delivery a worker has taken: it alone sends it until its lease runs out. */
export interface ClaimedDelivery {
  agent_id: string;
  delivery_id: string;
  message_id: string;
  destination_id: string;
  attempts: number;
  body: JsonObject;
  url: string;
  secret: string;
  kind: DestinationKind;
}

/**
 * The webhook deliveries' queue (src/jobs). A delivery is due when it is pending (or its sender's
 * lease ran out: the worker died) and its time has come, its destination is active, and no older
 * delivery of the same lead to the same destination is still pending — so a lead's events arrive
 * in order. A claim returns the destination with the delivery.
 */
export const webhookJobs = jobQueue<ClaimedDelivery>({
  table: 'webhook_deliveries',
  key: [
    ['agent_id', 'uuid'],
    ['delivery_id', 'uuid'],
  ],
  waiting: 'pending',
  running: 'sending',
  dueAt: 'next_attempt_at',
  thenBy: 'seq',
  error: 'last_error',
  updatedAt: true,
  dueWhen: `EXISTS (SELECT FROM sync_destinations s
                 WHERE s.agent_id = j.agent_id AND s.destination_id = j.destination_id AND s.active)
     AND (j.lead_id IS NULL OR NOT EXISTS (
           SELECT 1 FROM webhook_deliveries e
            WHERE e.destination_id = j.destination_id AND e.lead_id = j.lead_id
              AND e.seq < j.seq AND e.status IN ('pending', 'sending')))`,
  claimWith: {
    from: 'sync_destinations s',
    on: 's.agent_id = j.agent_id AND s.destination_id = j.destination_id',
  },
  returning:
    'j.agent_id, j.delivery_id, j.message_id, j.destination_id, j.attempts, j.body, s.url, s.secret, s.kind',
});

/** An attempt's outcome, with the receiver's HTTP status; delivered ones note when. */
const settleDeliveries = webhookJobs.settler<{ last_status: number | null }>({
  also: { last_status: 'int' },
  set: () => `delivered_at = CASE WHEN x.status = 'delivered' THEN now() ELSE j.delivered_at END`,
});

/** Deliveries the receiver took (2xx), all of a round in one statement. */
export async function markDelivered(
  db: Queryable,
  delivered: ReadonlyArray<{ d: ClaimedDelivery; httpStatus: number }>,
): Promise<void> {
  await settleDeliveries(
    db,
    delivered.map(({ d, httpStatus }) => ({
      job: d,
      status: 'delivered',
      error: null,
      last_status: httpStatus,
    })),
  );
}

/** A failed attempt: tried again after `retryInMs`, or dead when the schedule is spent (null). */
export async function markFailed(
  db: Queryable,
  d: ClaimedDelivery,
  failure: {
    httpStatus: number | null;
    error: string;
    retryInMs: number | null;
    final?: 'dead' | 'canceled';
  },
): Promise<void> {
  const status = failure.final ?? (failure.retryInMs === null ? 'dead' : 'pending');
  await settleDeliveries(db, [
    {
      job: d,
      status,
      error: failure.error,
      due: status === 'pending' && failure.retryInMs !== null ? failure.retryInMs : undefined,
      last_status: failure.httpStatus,
    },
  ]);
}

export interface DeliveryView {
  delivery_id: string;
  destination_id: string;
  message_id: string;
  lead_id: string | null;
  topic: string;
  status: DeliveryStatus;
  attempts: number;
  last_status: number | null;
  last_error: string | null;
  next_attempt_at: string | null;
  delivered_at: string | null;
  created_at: string;
  /** Where it goes: the destination's URL; null once the destination was removed. */
  destination_url: string | null;
}

const VIEW = `delivery_id, destination_id, message_id, lead_id, topic, status, attempts, last_status, last_error,
  next_attempt_at, delivered_at, created_at,
  (SELECT d.url FROM sync_destinations d
    WHERE d.agent_id = webhook_deliveries.agent_id AND d.destination_id = webhook_deliveries.destination_id)
    AS destination_url`;

/**
 * Whether sending a delivery again now can help: a dead letter, or one waiting for its next try
 * after a failure. A delivered one needs nothing, one being sent is busy, one canceled lost its
 * destination, and a first try not yet made is on its way.
 */
export function retryHelps(d: Pick<DeliveryView, 'status' | 'attempts'>): boolean {
  return d.status === 'dead' || (d.status === 'pending' && d.attempts > 0);
}

type ViewRow = Omit<DeliveryView, 'next_attempt_at' | 'delivered_at' | 'created_at'> & {
  next_attempt_at: Date;
  delivered_at: Date | null;
  created_at: Date;
};

function toView(r: ViewRow): DeliveryView {
  const waiting = r.status === 'pending' || r.status === 'sending';
  return {
    ...r,
    next_attempt_at: waiting ? iso(r.next_attempt_at) : null,
    delivered_at: r.delivered_at ? iso(r.delivered_at) : null,
    created_at: iso(r.created_at),
  };
}

/** An agent's deliveries, newest first, optionally of one status. */
export async function listDeliveries(
  db: Queryable,
  agentId: string,
  status: DeliveryStatus | undefined,
  limit: number,
): Promise<DeliveryView[]> {
  const { rows } = await db.query<ViewRow>(
    `SELECT ${VIEW} FROM webhook_deliveries WHERE agent_id = $1 AND ($2::text IS NULL OR status = $2)
      ORDER BY created_at DESC, seq DESC LIMIT $3`,
    [agentId, status ?? null, limit],
  );
  return rows.map(toView);
}

/** Sends a dead (or failed) delivery again now, with a fresh retry schedule. */
export async function retryDelivery(
  db: Queryable,
  deliveryId: string,
  owner: string | null = null,
): Promise<DeliveryView | null> {
  const { rows } = await db.query<ViewRow>(
    `UPDATE webhook_deliveries SET status = 'pending', attempts = 0, next_attempt_at = now(), lease_until = NULL,
            updated_at = now()
      WHERE delivery_id = $1 AND status <> 'sending' AND ($2::uuid IS NULL OR agent_id = $2::uuid)
      RETURNING ${VIEW}`,
    [deliveryId, owner],
  );
  return rows[0] ? toView(rows[0]) : null;
}
