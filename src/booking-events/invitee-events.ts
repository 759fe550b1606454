import {
  hasOtherBookedAppointment,
  lockAppointmentByExternalId,
  setAppointmentStatus,
} from '../appointments/appointment-repository.ts';
import type { Database, Queryable } from '../db/index.ts';
import type { JsonObject } from '../ingest/types.ts';
import { ingestLead, type DeliveryResponse } from '../leads/ingest-lead.ts';
import { insertHistory, setLeadStatus, type LeadStatus } from '../leads/lead-repository.ts';
import { bookAppointment, type Outcome } from '../leads/lead-writes.ts';
import { prepareLead, type PreparedLead } from '../leads/prepare-lead.ts';
import type { AuthenticatedSource } from '../sources/source-repository.ts';
import { recordBookingEvent } from './booking-event-repository.ts';
import type { BookingEvent } from './parse-event.ts';

type InviteeEvent = Extract<BookingEvent, { kind: 'invitee' }>;

/** An invitee event as a lead delivery: the scheduler's booking goes through the same pipeline. */
export function prepareInviteeLead(event: InviteeEvent, agentTimezone: string): PreparedLead {
  // A cancel is about a meeting that no longer happens: its time must not book anything.
  const submission =
    event.event === 'invitee.canceled' ? omit(event.submission, ['scheduled_at']) : event.submission;
  return prepareLead(withNameFallback(submission), agentTimezone);
}

/**
 * `invitee.created`: the lead is created or merged as Scheduled with its appointment, keyed by the
 * invitee uri. If this invitee was already canceled or rescheduled (events out of order), the
 * recorded appointment keeps that status and the lead's status follows its agenda.
 */
export function inviteeCreated(
  db: Database,
  source: AuthenticatedSource,
  event: InviteeEvent,
  lead: PreparedLead,
  raw: JsonObject,
): Promise<DeliveryResponse> {
  const uri = event.inviteeUri;
  return ingestLead(db, source, lead, {
    ...eventKeys(uri, event.event),
    after: async (tx, outcome, response) => {
      let status = outcome.status;
      if (uri && outcome.appointmentId) {
        const appt = await lockAppointmentByExternalId(tx, source.agent_id, uri);
        if (appt && appt.status !== 'booked') {
          const others = await hasOtherBookedAppointment(
            tx,
            source.agent_id,
            outcome.leadId,
            appt.appointment_id,
          );
          status = others ? 'Scheduled' : appt.status === 'canceled' ? 'Canceled' : outcome.status;
          await setLeadStatus(tx, source.agent_id, outcome.leadId, status);
        }
      }
      await record(tx, source, event, raw, outcome, outcome.merged ? 'lead_updated' : 'lead_created');
      return { ...response, status };
    },
  });
}

/**
 * `invitee.canceled`: the contact is created or merged, then its appointment for this invitee
 * becomes `canceled` (lead `Canceled`) or, with `rescheduled: true`, `rescheduled` (lead stays
 * `Scheduled`). A cancel never touches another appointment, so one that arrives after the
 * reschedule's new booking cannot cancel it; the lead stays Scheduled while a booking remains.
 */
export function inviteeCanceled(
  db: Database,
  source: AuthenticatedSource,
  event: InviteeEvent,
  lead: PreparedLead,
  raw: JsonObject,
): Promise<DeliveryResponse> {
  const uri = event.inviteeUri;
  const target = event.rescheduled ? 'rescheduled' : 'canceled';
  return ingestLead(db, source, lead, {
    ...eventKeys(uri, event.event),
    after: async (tx, outcome, response) => {
      const appointmentId = await closeInviteeAppointment(tx, source, event, outcome.leadId, target);
      const others = await hasOtherBookedAppointment(tx, source.agent_id, outcome.leadId, appointmentId);
      const status: LeadStatus = event.rescheduled || others ? 'Scheduled' : 'Canceled';
      await setLeadStatus(tx, source.agent_id, outcome.leadId, status);
      await insertHistory(tx, {
        agent_id: source.agent_id,
        lead_id: outcome.leadId,
        source_id: source.source_id,
        event: event.rescheduled ? 'appointment_rescheduled' : 'appointment_canceled',
        details: {
          invitee_uri: uri,
          appointment_id: appointmentId,
          new_invitee: event.newInvitee,
          reason: event.cancellation?.reason ?? null,
          canceled_by: event.cancellation?.canceled_by ?? null,
          canceler_type: event.cancellation?.canceler_type ?? null,
          status_to: status,
        },
      });
      await record(tx, source, event, raw, outcome, `appointment_${target}`);
      return {
        ...response,
        message: event.rescheduled ? 'Appointment rescheduled' : 'Appointment canceled',
        status,
      };
    },
  });
}

/**
 * Marks this invitee's appointment; one never seen is recorded with that status, so a late
 * `invitee.created` for it will not book it again. A canceled or rescheduled appointment stays so.
 */
async function closeInviteeAppointment(
  tx: Queryable,
  source: AuthenticatedSource,
  event: InviteeEvent,
  leadId: string,
  target: 'canceled' | 'rescheduled',
): Promise<string | null> {
  const uri = event.inviteeUri;
  if (!uri) return null;
  const appt = await lockAppointmentByExternalId(tx, source.agent_id, uri);
  if (appt) {
    if (appt.status === 'booked' || appt.status === 'no_show') {
      await setAppointmentStatus(tx, source.agent_id, appt.appointment_id, target);
    }
    return appt.appointment_id;
  }
  const meeting = prepareLead(withNameFallback(event.submission), source.agent_timezone);
  const id = await bookAppointment(tx, source, meeting, leadId, { leadKey: uri, externalId: uri });
  if (!id) return null;
  await setAppointmentStatus(tx, source.agent_id, id, target);
  return id;
}

/** Replays are per invitee and event: a cancel is never a replay of the create. */
function eventKeys(uri: string | null, eventName: string) {
  return uri ? { idempotencyKey: `${uri}#${eventName}`, leadKey: uri, externalId: uri } : {};
}

function record(
  tx: Queryable,
  source: AuthenticatedSource,
  event: InviteeEvent,
  raw: JsonObject,
  outcome: Outcome,
  what: 'lead_created' | 'lead_updated' | 'appointment_canceled' | 'appointment_rescheduled',
): Promise<void> {
  return recordBookingEvent(tx, {
    agent_id: source.agent_id,
    source_id: source.source_id,
    event: event.event,
    invitee_uri: event.inviteeUri,
    lead_id: outcome.leadId,
    outcome: what,
    payload: raw,
  });
}

/** Schedulers retry a refusal for a day: a booking without a name is named by its email or phone. */
function withNameFallback(submission: JsonObject): JsonObject {
  const has = (k: string) => typeof submission[k] === 'string' && (submission[k] as string).trim() !== '';
  if (has('name') || has('first_name')) return submission;
  const fallback = has('email') ? submission.email : has('phone') ? submission.phone : undefined;
  return fallback === undefined ? submission : { ...submission, name: fallback };
}

function omit(obj: JsonObject, keys: string[]): JsonObject {
  return Object.fromEntries(Object.entries(obj).filter(([k]) => !keys.includes(k)));
}
