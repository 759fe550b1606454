import type {
  BookedAppointment,
  NamedAppointment,
  NewAppointment,
} from '../appointments/appointment-repository.ts';
import type { ResolvedAppointment } from '../appointments/schedule.ts';
import type { AgendaEvent, AppointmentStatus } from '../appointments/transitions.ts';
import type { NewBookingEvent } from '../booking-events/booking-event-repository.ts';
import type { BookingEvent } from '../booking-events/parse-event.ts';
import type { JsonObject } from '../json.ts';
import type { Bill } from '../leads/billing.ts';
import type { LeadUpdate, NewHistoryEntry, NewLead } from '../leads/lead-repository.ts';
import type { NewPurchase } from '../leads/purchase-repository.ts';
import type { StoredLead } from '../leads/merge-lead.ts';
import type { OutboxMessage } from '../outbox/topics.ts';
import type { Routed } from '../routing/route-delivery.ts';
import type { AppointmentFacts } from './outbox-messages.ts';
import type { PreparedLead } from './prepare-lead.ts';
import type { DeliveredLead } from './result.ts';

// What a live delivery is, what the database tells its write, and what its write plan holds: the
// types the planner (plan-write.ts), its records (plan-records.ts) and both writes share.

type InviteeEvent = Extract<BookingEvent, { kind: 'invitee' }>;

/** A live delivery, decided up to what the database knows. */
export interface LiveDelivery {
  lead: PreparedLead;
  /** The replay key, per source: the sender's idempotency key, or a scheduler's invitee uri + event. */
  replayKey: string | null;
  /**
   * The body digest stored with the replay key (idempotency/body-digest.ts): set when the key is
   * the sender's `Idempotency-Key` header, so an exact resend can be answered without mapping.
   */
  bodyDigest: string | null;
  /** Stored on the lead as `idempotency_key`. */
  leadKey: string | null;
  /** The appointment's external id: a scheduler's invitee uri. */
  externalId: string | null;
  /** What the delivery does to the agenda; null when it carries no appointment. */
  agenda: AgendaEvent | null;
  /** For a scheduler's cancel: the canceled meeting, recorded closed if it was never seen. */
  meeting: ResolvedAppointment | null;
  /** The scheduler event the delivery came from, recorded in the source's event log. */
  scheduler: { event: InviteeEvent; payload: JsonObject } | null;
  /**
   * A scheduler's invitee without a name: the same lead named by its email or phone, written only
   * if the contact is new. A stored contact is merged with `lead`, which has no name, so the
   * stand-in never replaces a stored name (nor the first name derived from it).
   */
  leadIfNew?: PreparedLead;
}

/**
 * A plain lead's live delivery (not a scheduler's event): its key, if any, is both the replay key
 * and the lead's `idempotency_key`; an appointment it names is booked.
 */
export function leadDelivery(
  lead: PreparedLead,
  key: string | null,
  bodyDigest: string | null,
): LiveDelivery {
  return {
    lead,
    replayKey: key,
    bodyDigest,
    leadKey: key,
    externalId: null,
    agenda: lead.appointment ? { kind: 'book' } : null,
    meeting: null,
    scheduler: null,
  };
}

/** The agenda as the delivery found it (row-locked), and the appointment it would write. */
export interface AgendaRead {
  named: NamedAppointment | null;
  booked: BookedAppointment[];
  incoming: AppointmentFacts | null;
  /** A scheduler booking's `old_invitee`: the lead's appointment it replaces. */
  replaced: NamedAppointment | null;
  /** A scheduler cancel's `new_invitee`: the lead's appointment that already replaced it. */
  replacement: NamedAppointment | null;
  /** Everything a change may name, for the outbox messages. */
  facts: AppointmentFacts[];
}

/**
 * What the database told the delivery: the contact it is (null: a new one), the agenda, and for an
 * agency's source the producer the lead was routed to.
 */
export interface Found {
  /** The lead id a new contact gets. */
  newLeadId: string;
  stored: StoredLead | null;
  agenda: AgendaRead;
  routed?: Routed | null;
  /** A repeat contact's bill (leads/billing.ts); absent: a new contact, billable. */
  bill?: Bill | null;
}

export type AgendaWrite =
  /** `continues`: the appointment a reschedule replaced (its calendar event goes on in this one). */
  | { op: 'insert'; row: NewAppointment; continues?: string }
  | { op: 'update'; appointment_id: string; status: AppointmentStatus };

/** Every row a delivery writes, decided; `applyWrite` (or the one-statement path) writes them. */
export interface WritePlan {
  leadId: string;
  /** A new contact's row, a repeat contact's merged values, or null: the lead is left as it is. */
  lead: { op: 'insert'; row: NewLead } | { op: 'update'; row: LeadUpdate } | null;
  agenda: AgendaWrite[];
  history: NewHistoryEntry[];
  eventLog: NewBookingEvent | null;
  /** A plain lead's purchase: its price and whether the vendor may bill it; null for a scheduler's event. */
  purchase: NewPurchase | null;
  messages: OutboxMessage[];
  result: { kind: 'created' | 'merged'; lead: DeliveredLead };
}
