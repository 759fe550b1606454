import { LIMITS } from '../config.ts';
import { newId } from '../db/ids.ts';
import { iso, type Queryable } from '../db/index.ts';
import type { JsonObject } from '../json.ts';

/** What the gateway did with a scheduler event; the agent sees it in the source's event log. */
export type EventOutcome =
  | 'lead_created'
  | 'lead_updated'
  | 'appointment_canceled'
  | 'appointment_rescheduled'
  | 'no_show_marked'
  | 'no_show_removed'
  | 'ignored'
  | 'ignored_unknown_invitee';

export interface NewBookingEvent {
  agent_id: string;
  source_id: string;
  event: string;
  invitee_uri: string | null;
  lead_id: string | null;
  outcome: EventOutcome;
  payload: JsonObject;
}

export async function recordBookingEvent(tx: Queryable, e: NewBookingEvent): Promise<void> {
  await tx.query(
    `INSERT INTO booking_events (agent_id, event_id, source_id, event, invitee_uri, lead_id, outcome, payload)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`,
    [
      e.agent_id,
      newId(),
      e.source_id,
      e.event,
      e.invitee_uri,
      e.lead_id,
      e.outcome,
      JSON.stringify(e.payload),
    ],
  );
}

export interface BookingEventView {
  event_id: string;
  received_at: string;
  event: string;
  invitee_uri: string | null;
  lead_id: string | null;
  outcome: EventOutcome;
  payload: unknown;
}

/** The newest scheduler events of one source, acted on or ignored. */
export async function listBookingEvents(
  db: Queryable,
  source: { agent_id: string; source_id: string },
  limit: number = LIMITS.eventsListed,
): Promise<BookingEventView[]> {
  const { rows } = await db.query<BookingEventView & { received_at: Date | string }>(
    `SELECT event_id, received_at, event, invitee_uri, lead_id, outcome, payload
       FROM booking_events WHERE agent_id = $1 AND source_id = $2
      ORDER BY received_at DESC, event_id DESC LIMIT $3`,
    [source.agent_id, source.source_id, limit],
  );
  return rows.map((r) => ({ ...r, received_at: iso(r.received_at) }));
}
