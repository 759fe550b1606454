import type { JsonObject } from '../json.ts';

/**
 * What a live delivery tells the agent's other tools: one outbox message per thing that happened,
 * named for it. The payloads are documented for receivers in docs/outbox.md (a test keeps the two
 * in step). Listen mode, replays and refused deliveries write none.
 */

interface LeadPayload {
  lead_id: string;
  source_id: string;
  /** The lead's status after this delivery. */
  status: string;
  /** The appointment this delivery booked or kept, if any. */
  appointment_id: string | null;
  scheduled_at: string | null;
}

export interface LeadCreated extends LeadPayload {
  name: string;
  phone: string | null;
  email: string | null;
}

export interface LeadUpdated extends LeadPayload {
  status_from: string;
  /** Every field whose value the delivery changed (`custom_fields.<key>` for custom fields). */
  changed_fields: string[];
  /** What the agent did, when the agent changed the lead (absent for a delivery). */
  action?: AgentAction;
}

/** An agent's action on a lead, from the console or the admin API. */
export type AgentAction =
  | { kind: 'status' }
  | { kind: 'note'; note: string }
  | { kind: 'call_outcome'; outcome: string }
  | { kind: 'do_not_contact' };

export interface AppointmentPayload {
  appointment_id: string;
  lead_id: string;
  source_id: string;
  scheduled_at: string;
  /** The scheduler's invitee uri, for appointments booked by a scheduler. */
  external_id: string | null;
}

export interface AppointmentRescheduled extends AppointmentPayload {
  /** The appointment that replaces it, when the same delivery booked it (a lead resent with a new time). */
  replaced_by: string | null;
}

export interface AppointmentCanceled extends AppointmentPayload {
  /** The reason the scheduler gave, if any. */
  reason: string | null;
}

/** A lead of an agency nobody worked in time, moved to another producer by the claim timer. */
export interface LeadReassigned {
  lead_id: string;
  source_id: string;
  /** The producer it was with. */
  from_agent_id: string;
  /** The producer it is with now. */
  agent_id: string;
  /** `reassigned`: the next producer of the rotation; `fallback`: the agency's fallback producer. */
  rule: string;
}

/**
 * A prospect revoked consent to texts and calls (a STOP, or plain words) from the number of this
 * lead: one per lead of the number, of every agent the opt-out covers.
 */
export interface LeadOptedOut {
  lead_id: string;
  source_id: string;
  /** The number that opted out (10 digits). */
  phone: string;
  /** `keyword`: the whole reply was an opt-out keyword; `words`: a phrase within it. */
  by: 'keyword' | 'words';
  /** The keyword, or the phrase found, as the tables write it. */
  words: string;
  opted_out_at: string;
}

/** A return asked of a lead's vendor, or its outcome (docs/economics.md). */
export interface LeadReturned {
  lead_id: string;
  source_id: string;
  return_id: string;
  reason: string;
  /** `requested`, then `credited` or `denied`. */
  status: string;
  price_cents: number;
  /** What shows the reason: the dial attempts, the earlier lead, the state. */
  evidence: JsonObject;
  note: string | null;
}

/** A policy sold to a lead. */
export interface LeadSold {
  lead_id: string;
  source_id: string;
  sale_id: string;
  premium_cents: number;
  product: string | null;
  sold_at: string;
}

/** A prospect's text, put in the thread of one of its leads (docs/conversations.md). */
export interface LeadReplied {
  lead_id: string;
  source_id: string;
  /** `reply`, `contact_limits` (it limits when or how to be contacted) or `opt_out`. */
  intent: string;
  message: { message_id: string; body: string; at: string };
}

export interface OutboxPayloads {
  'lead.created': LeadCreated;
  'lead.updated': LeadUpdated;
  'lead.reassigned': LeadReassigned;
  'lead.opted_out': LeadOptedOut;
  'lead.replied': LeadReplied;
  'lead.returned': LeadReturned;
  'lead.sold': LeadSold;
  'appointment.booked': AppointmentPayload;
  'appointment.rescheduled': AppointmentRescheduled;
  'appointment.canceled': AppointmentCanceled;
  'appointment.no_show': AppointmentPayload;
  'appointment.no_show_removed': AppointmentPayload;
}

export type OutboxTopic = keyof OutboxPayloads;

export const OUTBOX_TOPICS = [
  'lead.created',
  'lead.updated',
  'lead.reassigned',
  'lead.opted_out',
  'lead.replied',
  'lead.returned',
  'lead.sold',
  'appointment.booked',
  'appointment.rescheduled',
  'appointment.canceled',
  'appointment.no_show',
  'appointment.no_show_removed',
] as const satisfies readonly OutboxTopic[];

/** One message of a delivery, before it is written. */
export type OutboxMessage = { [T in OutboxTopic]: { topic: T; payload: OutboxPayloads[T] } }[OutboxTopic];
