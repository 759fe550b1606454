import type { AgendaEvent, AgendaPlan } from '../appointments/transitions.ts';
import type { NewBookingEvent } from '../booking-events/booking-event-repository.ts';
import type { JsonObject } from '../json.ts';
import type { NewHistoryEntry } from '../leads/lead-repository.ts';
import type { LeadStatus } from '../leads/lead-status.ts';
import type { MergeResult } from '../leads/merge-lead.ts';
import type { OutboxMessage } from '../outbox/topics.ts';
import type { Routing } from '../routing/route.ts';
import type { AuthenticatedSource } from '../sources/source-repository.ts';
import type { AgendaRead, LiveDelivery } from './live-delivery.ts';

// What a delivery's write records beside the lead and its agenda: its history lines, the
// scheduler's event-log line and the lead's outbox message. Pure.

/** What the planner decided, as the records tell it. */
export interface Written {
  leadId: string;
  /** For a repeat contact: the status it had, and the merge. */
  merge: { from: LeadStatus; result: MergeResult } | null;
  status: LeadStatus;
  plan: AgendaPlan;
  /** An event about an invitee already replaced by its reschedule: the lead was left as it was. */
  superseded: boolean;
  /** How an agency's lead came to its producer (told in the history); null for an agent's own source. */
  routing: Routing | null;
}

/** The appointment a booking delivery booked or kept (the history's and messages' `appointment_id`). */
export function bookedBy(d: LiveDelivery, plan: AgendaPlan): string | null {
  return d.agenda?.kind === 'book' ? (plan.subject?.appointment_id ?? null) : null;
}

/** `created` or `merged` with every field change, then what a scheduler's cancel did. */
export function historyEntries(source: AuthenticatedSource, d: LiveDelivery, w: Written): NewHistoryEntry[] {
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
        ...(w.routing ? { routing: w.routing } : {}),
      },
    });
  } else {
    entries.push({
      ...entry,
      event: 'created',
      details: {
        status: w.status,
        appointment_id: appointmentId,
        warnings,
        ...(w.routing ? { routing: w.routing } : {}),
      },
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
export function eventLogLine(
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

/** `lead.created` or `lead.updated`, with the appointment the delivery booked or kept. */
export function leadMessage(
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
