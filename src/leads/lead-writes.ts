import {
  insertAppointment,
  lockAppointmentByExternalId,
  lockBookedAppointments,
  setAppointmentStatus,
} from '../appointments/appointment-repository.ts';
import type { Queryable } from '../db/index.ts';
import type { AuthenticatedSource } from '../sources/source-repository.ts';
import { moveContactKeys } from './contact-keys.ts';
import { insertHistory, insertLead, lockLead, updateLead, type LeadStatus } from './lead-repository.ts';
import { mergeLead } from './merge-lead.ts';
import type { PreparedLead } from './prepare-lead.ts';

export interface Outcome {
  leadId: string;
  status: LeadStatus;
  merged: boolean;
  appointmentBooked: boolean;
  /** The appointment this delivery booked or found (by its external id), if any. */
  appointmentId: string | null;
}

/** How the lead record and its appointment are keyed for this delivery. */
export interface WriteKeys {
  /** Stored as the lead's idempotency_key (a booking event's invitee uri). */
  leadKey: string | null;
  /** The appointment's external id (the invitee uri): one already recorded is not booked again. */
  externalId: string | null;
}

/** A contact seen for the first time: the lead, its appointment, a `created` history entry. */
export async function createNewLead(
  tx: Queryable,
  source: AuthenticatedSource,
  lead: PreparedLead,
  leadId: string,
  keys: WriteKeys,
): Promise<Outcome> {
  await insertLead(
    tx,
    {
      agent_id: source.agent_id,
      source_id: source.source_id,
      status: lead.status,
      fields: lead.fields,
      custom_fields: lead.custom_fields,
      idempotency_key: keys.leadKey,
    },
    leadId,
  );
  const known = await knownAppointment(tx, source, lead, keys);
  const appointmentId =
    known ?? (lead.appointment ? await bookAppointment(tx, source, lead, leadId, keys) : null);
  await insertHistory(tx, {
    agent_id: source.agent_id,
    lead_id: leadId,
    source_id: source.source_id,
    event: 'created',
    details: { status: lead.status, appointment_id: appointmentId, warnings: lead.warnings.length },
  });
  return {
    leadId,
    status: lead.status,
    merged: false,
    appointmentBooked: appointmentId !== null,
    appointmentId,
  };
}

/**
 * A contact delivered again: merge into the stored lead (row-locked), move the keys claimed for
 * the would-be new lead to it, and — when the delivery carries a new time — replace the open
 * appointment, which becomes `rescheduled`. The history entry shows every change.
 */
export async function mergeIntoLead(
  tx: Queryable,
  source: AuthenticatedSource,
  lead: PreparedLead,
  target: { leadId: string; claimedFor: string; today: string },
  keys: WriteKeys,
): Promise<Outcome> {
  const stored = await lockLead(tx, source.agent_id, target.leadId);
  if (!stored) throw new Error(`contact key points to a missing lead ${target.leadId}`);
  await moveContactKeys(tx, source.agent_id, target.claimedFor, target.leadId);
  const merged = mergeLead(
    stored,
    { fields: lead.fields, custom_fields: lead.custom_fields, hasAppointment: lead.appointment !== null },
    target.today,
  );

  const rescheduled: string[] = [];
  let appointmentId = await knownAppointment(tx, source, lead, keys);
  if (lead.appointment && !appointmentId) {
    const at = Date.parse(lead.appointment.scheduled_at);
    const open = await lockBookedAppointments(tx, source.agent_id, stored.lead_id);
    const same = open.find((a) => new Date(a.scheduled_at).getTime() === at);
    if (same) appointmentId = same.appointment_id;
    else {
      for (const old of open) {
        await setAppointmentStatus(tx, source.agent_id, old.appointment_id, 'rescheduled');
        rescheduled.push(old.appointment_id);
      }
      appointmentId = await bookAppointment(tx, source, lead, stored.lead_id, keys);
    }
  }

  await updateLead(tx, source.agent_id, stored.lead_id, merged);
  await insertHistory(tx, {
    agent_id: source.agent_id,
    lead_id: stored.lead_id,
    source_id: source.source_id,
    event: 'merged',
    changes: merged.changes,
    details: {
      status_from: stored.status,
      status_to: merged.status,
      appointment_id: appointmentId,
      rescheduled_appointment_ids: rescheduled,
      warnings: lead.warnings.length,
    },
  });
  return {
    leadId: stored.lead_id,
    status: merged.status,
    merged: true,
    appointmentBooked: appointmentId !== null,
    appointmentId,
  };
}

/** An appointment already recorded under this delivery's external id (a retried or late event). */
async function knownAppointment(
  tx: Queryable,
  source: AuthenticatedSource,
  lead: PreparedLead,
  keys: WriteKeys,
): Promise<string | null> {
  if (!lead.appointment || !keys.externalId) return null;
  return (await lockAppointmentByExternalId(tx, source.agent_id, keys.externalId))?.appointment_id ?? null;
}

/** Puts the delivery's appointment on the agenda, with the links the sender gave in custom_fields. */
export async function bookAppointment(
  tx: Queryable,
  source: AuthenticatedSource,
  lead: PreparedLead,
  leadId: string,
  keys: WriteKeys,
): Promise<string | null> {
  if (!lead.appointment) return null;
  const custom = lead.custom_fields;
  const text = (key: string) => (typeof custom[key] === 'string' ? (custom[key] as string) : null);
  return insertAppointment(tx, {
    ...lead.appointment,
    agent_id: source.agent_id,
    lead_id: leadId,
    setter_dialer_name:
      typeof lead.fields.setter_dialer_name === 'string' ? lead.fields.setter_dialer_name : null,
    join_url: text('join_url'),
    cancel_url: text('cancel_url'),
    reschedule_url: text('reschedule_url'),
    external_id: keys.externalId,
  });
}
