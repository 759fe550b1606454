import {
  insertAppointment,
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
}

/** A contact seen for the first time: the lead, its appointment, a `created` history entry. */
export async function createNewLead(
  tx: Queryable,
  source: AuthenticatedSource,
  lead: PreparedLead,
  leadId: string,
  idempotencyKey: string | null,
): Promise<Outcome> {
  await insertLead(
    tx,
    {
      agent_id: source.agent_id,
      source_id: source.source_id,
      status: lead.status,
      fields: lead.fields,
      custom_fields: lead.custom_fields,
      idempotency_key: idempotencyKey,
    },
    leadId,
  );
  const appointmentId = lead.appointment ? await bookAppointment(tx, source, lead, leadId) : null;
  await insertHistory(tx, {
    agent_id: source.agent_id,
    lead_id: leadId,
    source_id: source.source_id,
    event: 'created',
    details: { status: lead.status, appointment_id: appointmentId, warnings: lead.warnings.length },
  });
  return { leadId, status: lead.status, merged: false, appointmentBooked: appointmentId !== null };
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
  let appointmentId: string | null = null;
  if (lead.appointment) {
    const at = Date.parse(lead.appointment.scheduled_at);
    const open = await lockBookedAppointments(tx, source.agent_id, stored.lead_id);
    const same = open.find((a) => new Date(a.scheduled_at).getTime() === at);
    if (same) appointmentId = same.appointment_id;
    else {
      for (const old of open) {
        await setAppointmentStatus(tx, source.agent_id, old.appointment_id, 'rescheduled');
        rescheduled.push(old.appointment_id);
      }
      appointmentId = await bookAppointment(tx, source, lead, stored.lead_id);
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
  };
}

async function bookAppointment(
  tx: Queryable,
  source: AuthenticatedSource,
  lead: PreparedLead,
  leadId: string,
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
    external_id: null,
  });
}
