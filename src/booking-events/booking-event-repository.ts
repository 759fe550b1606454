import { LIMITS } from '../limits.ts';
import { newId } from '../db/ids.ts';
import { iso, type Queryable } from '../db/index.ts';
import { insertRow, run, type RowShape } from '../db/statement.ts';
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

const EVENT_ROW: RowShape = {
  table: 'booking_events',
  columns: [
    { name: 'agent_id', type: 'uuid' },
    { name: 'event_id', type: 'uuid' },
    { name: 'source_id', type: 'uuid' },
    { name: 'event', type: 'text' },
    { name: 'invitee_uri', type: 'text' },
    { name: 'lead_id', type: 'uuid' },
    { name: 'outcome', type: 'text' },
    { name: 'payload', type: 'jsonb' },
  ],
};

const INSERT_EVENT = insertRow(EVENT_ROW);

export async function recordBookingEvent(tx: Queryable, e: NewBookingEvent): Promise<void> {
  await run(tx, INSERT_EVENT, { ...e, event_id: newId(), payload: JSON.stringify(e.payload) });
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
