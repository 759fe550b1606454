import { DateTime } from 'luxon';
import type {
  BookedAppointment,
  NamedAppointment,
  NewAppointment,
} from '../appointments/appointment-repository.ts';
import type { ResolvedAppointment } from '../appointments/schedule.ts';
import {
  isSuperseded,
  planAgenda,
  type AgendaEvent,
  type AgendaPlan,
  type AppointmentStatus,
} from '../appointments/transitions.ts';
import type { NewBookingEvent } from '../booking-events/booking-event-repository.ts';
import type { BookingEvent } from '../booking-events/parse-event.ts';
import type { JsonObject } from '../json.ts';
import { consentEvidence } from '../leads/consent.ts';
import type { LeadUpdate, NewHistoryEntry, NewLead } from '../leads/lead-repository.ts';
import { statusAfterAgenda, type LeadStatus } from '../leads/lead-status.ts';
import { mergeLead, type MergeResult, type StoredLead } from '../leads/merge-lead.ts';
import type { OutboxMessage } from '../outbox/topics.ts';
import type { AuthenticatedSource } from '../sources/source-repository.ts';
import { appointmentMessages, type AppointmentFacts } from './outbox-messages.ts';
import type { PreparedLead } from './prepare-lead.ts';
import type { DeliveredLead } from './result.ts';

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

/** What the database told the delivery: the contact it is (null: a new one), and the agenda. */
export interface Found {
  /** The lead id a new contact gets. */
  newLeadId: string;
  stored: StoredLead | null;
  agenda: AgendaRead;
}

export type AgendaWrite =
  { op: 'insert'; row: NewAppointment } | { op: 'update'; appointment_id: string; status: AppointmentStatus };

/** Every row a delivery writes, decided; `applyWrite` (or the one-statement path) writes them. */
export interface WritePlan {
  leadId: string;
  /** A new contact's row, a repeat contact's merged values, or null: the lead is left as it is. */
  lead: { op: 'insert'; row: NewLead } | { op: 'update'; row: LeadUpdate } | null;
  agenda: AgendaWrite[];
  history: NewHistoryEntry[];
  eventLog: NewBookingEvent | null;
  messages: OutboxMessage[];
  result: { kind: 'created' | 'merged'; lead: DeliveredLead };
}

/**
 * The agenda a delivery finds when nothing it names is stored: a new contact's, with the
 * appointment it asks for (if any) under a fresh id. What the one-statement path assumes, and
 * the database confirms in that statement.
 */
export function emptyAgenda(d: LiveDelivery, appointmentId: string): AgendaRead {
  const wanted = d.agenda?.kind === 'cancel' ? d.meeting : d.lead.appointment;
  const incoming = wanted
    ? { appointment_id: appointmentId, scheduled_at: wanted.scheduled_at, external_id: d.externalId }
    : null;
  return {
    named: null,
    booked: [],
    incoming,
    replaced: null,
    replacement: null,
    facts: incoming ? [incoming] : [],
  };
}

/**
 * Decides a live delivery from what the database holds: merge or create, the agenda changes, the
 * lead's status, its history, the scheduler's event-log line and the outbox messages. Pure.
 */
export function planWrite(source: AuthenticatedSource, delivery: LiveDelivery, found: Found): WritePlan {
  const { stored, agenda } = found;
  const d = stored || !delivery.leadIfNew ? delivery : { ...delivery, lead: delivery.leadIfNew };
  const leadId = stored?.lead_id ?? found.newLeadId;
  const plan = d.agenda ? planAgenda(d.agenda, agenda) : { changes: [], subject: null, otherBooked: false };
  // A scheduler event about an invitee its reschedule already replaced is older news than the
  // lead: it closes the old appointment (history, event log) and leaves the lead as it is.
  const superseded = stored !== null && d.scheduler !== null && isSuperseded(agenda);
  const merge = stored
    ? {
        from: stored.status,
        result: superseded ? unchanged(stored) : mergeInto(stored, d.lead, source.agent_timezone),
      }
    : null;
  const status =
    superseded && stored
      ? stored.status
      : statusAfterAgenda(d.agenda, merge?.result.status ?? d.lead.status, plan);
  const consent = consentEvidence(d.lead.fields, source.source_id);
  const body_format = d.lead.format;
  const w: Written = { leadId, merge, status, plan, superseded };
  const result = {
    kind: merge ? ('merged' as const) : ('created' as const),
    lead: deliveredLead(source, d, leadId, status),
  };
  return {
    leadId,
    lead: merge
      ? superseded
        ? null
        : { op: 'update', row: { ...merge.result, status, consent, body_format } }
      : {
          op: 'insert',
          row: {
            agent_id: source.agent_id,
            source_id: source.source_id,
            status,
            fields: d.lead.fields,
            custom_fields: d.lead.custom_fields,
            idempotency_key: d.leadKey,
            consent,
            body_format,
          },
        },
    agenda: agendaWrites(source, d, leadId, plan),
    history: historyEntries(source, d, w),
    eventLog: d.scheduler ? eventLogLine(source, d.scheduler, d.agenda, w) : null,
    messages: [
      ...(superseded ? [] : [leadMessage(source, d, w, agenda)]),
      ...appointmentMessages(plan.changes, {
        lead_id: leadId,
        source_id: source.source_id,
        appointments: agenda.facts,
        reason: d.scheduler?.event.cancellation?.reason ?? null,
      }),
    ],
    result,
  };
}

interface Written {
  leadId: string;
  /** For a repeat contact: the status it had, and the merge. */
  merge: { from: LeadStatus; result: MergeResult } | null;
  status: LeadStatus;
  plan: AgendaPlan;
  /** An event about an invitee already replaced by its reschedule: the lead was left as it was. */
  superseded: boolean;
}

/** The stored lead as it is: what a superseded event "merges". */
function unchanged(stored: StoredLead): MergeResult {
  return { fields: stored.fields, custom_fields: stored.custom_fields, status: stored.status, changes: {} };
}

function mergeInto(stored: StoredLead, lead: PreparedLead, agentTimezone: string): MergeResult {
  const today = DateTime.now().setZone(agentTimezone).toISODate() ?? '';
  return mergeLead(
    stored,
    { fields: lead.fields, custom_fields: lead.custom_fields, hasAppointment: lead.appointment !== null },
    today,
  );
}

/** The planned agenda changes as rows; a new appointment carries the links the sender put in custom_fields. */
function agendaWrites(
  source: AuthenticatedSource,
  d: LiveDelivery,
  leadId: string,
  plan: AgendaPlan,
): AgendaWrite[] {
  return plan.changes.map((change): AgendaWrite => {
    if (change.op === 'update')
      return { op: 'update', appointment_id: change.appointment_id, status: change.to };
    const time = d.agenda?.kind === 'cancel' ? d.meeting : d.lead.appointment;
    if (!time) throw new Error('an appointment to insert without its time');
    const text = (key: string) => {
      const value = d.lead.custom_fields[key];
      return typeof value === 'string' ? value : null;
    };
    const setter = d.lead.fields.setter_dialer_name;
    return {
      op: 'insert',
      row: {
        ...time,
        agent_id: source.agent_id,
        appointment_id: change.appointment_id,
        lead_id: leadId,
        status: change.status,
        setter_dialer_name: typeof setter === 'string' ? setter : null,
        join_url: text('join_url'),
        cancel_url: text('cancel_url'),
        reschedule_url: text('reschedule_url'),
        external_id: d.externalId,
      },
    };
  });
}

/** The appointment a booking delivery booked or kept (the history's and messages' `appointment_id`). */
function bookedBy(d: LiveDelivery, plan: AgendaPlan): string | null {
  return d.agenda?.kind === 'book' ? (plan.subject?.appointment_id ?? null) : null;
}

/** `created` or `merged` with every field change, then what a scheduler's cancel did. */
function historyEntries(source: AuthenticatedSource, d: LiveDelivery, w: Written): NewHistoryEntry[] {
  const entry = { agent_id: source.agent_id, lead_id: w.leadId, source_id: source.source_id };
  const appointmentId = bookedBy(d, w.plan);
  const warnings = d.lead.warnings.length;
  const entries: NewHistoryEntry[] = [];
  if (w.superseded) {
    // Nothing of the lead changed: only what the event did to the agenda is told below.
  } else if (w.merge) {
    const rescheduled = d.agenda?.kind === 'book' ? w.plan.changes.filter((c) => c.op === 'update') : [];
    entries.push({
      ...entry,
      event: 'merged',
      changes: w.merge.result.changes,
      details: {
        status_from: w.merge.from,
        status_to: w.status,
        appointment_id: appointmentId,
        rescheduled_appointment_ids: rescheduled.map((c) => c.appointment_id),
        warnings,
      },
    });
  } else {
    entries.push({
      ...entry,
      event: 'created',
      details: { status: w.status, appointment_id: appointmentId, warnings },
    });
  }
  if (d.agenda?.kind === 'cancel' && d.scheduler) {
    const event = d.scheduler.event;
    entries.push({
      ...entry,
      event: `appointment_${d.agenda.as}`,
      details: {
        invitee_uri: event.inviteeUri,
        appointment_id: w.plan.subject?.appointment_id ?? null,
        new_invitee: event.newInvitee,
        reason: event.cancellation?.reason ?? null,
        canceled_by: event.cancellation?.canceled_by ?? null,
        canceler_type: event.cancellation?.canceler_type ?? null,
        status_to: w.status,
      },
    });
  }
  return entries;
}

/**
 * The event-log line: what a cancel did to the appointment, else whether the lead was created or
 * updated; a late booking of an invitee already replaced changed nothing and is `ignored`.
 */
function eventLogLine(
  source: AuthenticatedSource,
  scheduler: NonNullable<LiveDelivery['scheduler']>,
  agenda: AgendaEvent | null,
  w: Written,
): NewBookingEvent {
  const outcome =
    agenda?.kind === 'cancel'
      ? (`appointment_${agenda.as}` as const)
      : w.superseded
        ? 'ignored'
        : w.merge
          ? 'lead_updated'
          : 'lead_created';
  return bookingEventRow(
    source,
    scheduler.event.event,
    scheduler.event.inviteeUri,
    scheduler.payload,
    w.leadId,
    outcome,
  );
}

/** The record of one scheduler event for the agent's event log. */
export function bookingEventRow(
  source: AuthenticatedSource,
  event: string,
  inviteeUri: string | null,
  payload: JsonObject,
  leadId: string | null,
  outcome: NewBookingEvent['outcome'],
): NewBookingEvent {
  return {
    agent_id: source.agent_id,
    source_id: source.source_id,
    event,
    invitee_uri: inviteeUri,
    lead_id: leadId,
    outcome,
    payload,
  };
}

function deliveredLead(
  source: AuthenticatedSource,
  d: LiveDelivery,
  leadId: string,
  status: LeadStatus,
): DeliveredLead {
  return {
    lead_id: leadId,
    agent_id: source.agent_id,
    status,
    appointment: d.lead.appointment,
    auto_sync_enabled: source.auto_sync_enabled,
    warnings: d.lead.warnings,
    ...(d.agenda?.kind === 'cancel' ? { closed: d.agenda.as } : {}),
  };
}

/** `lead.created` or `lead.updated`, with the appointment the delivery booked or kept. */
function leadMessage(
  source: AuthenticatedSource,
  d: LiveDelivery,
  w: Written,
  agenda: AgendaRead,
): OutboxMessage {
  const appointmentId = bookedBy(d, w.plan);
  const common = {
    lead_id: w.leadId,
    source_id: source.source_id,
    status: w.status,
    appointment_id: appointmentId,
    scheduled_at: agenda.facts.find((a) => a.appointment_id === appointmentId)?.scheduled_at ?? null,
  };
  if (w.merge) {
    return {
      topic: 'lead.updated',
      payload: { ...common, status_from: w.merge.from, changed_fields: Object.keys(w.merge.result.changes) },
    };
  }
  const text = (field: string) => {
    const value = d.lead.fields[field];
    return typeof value === 'string' ? value : null;
  };
  return {
    topic: 'lead.created',
    payload: { ...common, name: text('name') ?? '', phone: text('phone'), email: text('email') },
  };
}
