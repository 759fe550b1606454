import { randomUUID } from 'node:crypto';
import type { Queryable } from '../db/index.ts';
import type { ResolvedAppointment } from './schedule.ts';

export interface NewAppointment extends ResolvedAppointment {
  agent_id: string;
  lead_id: string;
  setter_dialer_name: string | null;
  join_url: string | null;
  cancel_url: string | null;
  reschedule_url: string | null;
  external_id: string | null;
}

/** Puts an appointment on the agent's agenda (status `booked`). */
export async function insertAppointment(tx: Queryable, a: NewAppointment): Promise<string> {
  const appointmentId = randomUUID();
  await tx.query(
    `INSERT INTO appointments (agent_id, appointment_id, lead_id, scheduled_at, appointment_timezone, schedule_type,
                               setter_dialer_name, join_url, cancel_url, reschedule_url, external_id)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)`,
    [
      a.agent_id,
      appointmentId,
      a.lead_id,
      a.scheduled_at,
      a.appointment_timezone,
      a.schedule_type,
      a.setter_dialer_name,
      a.join_url,
      a.cancel_url,
      a.reschedule_url,
      a.external_id,
    ],
  );
  return appointmentId;
}

export interface OpenAppointment {
  appointment_id: string;
  scheduled_at: Date;
}

/** The lead's booked appointments (normally one), locked for the caller's transaction. */
export async function lockBookedAppointments(
  tx: Queryable,
  agentId: string,
  leadId: string,
): Promise<OpenAppointment[]> {
  const { rows } = await tx.query<OpenAppointment>(
    `SELECT appointment_id, scheduled_at FROM appointments
      WHERE agent_id = $1 AND lead_id = $2 AND status = 'booked' ORDER BY scheduled_at FOR UPDATE`,
    [agentId, leadId],
  );
  return rows;
}

export async function setAppointmentStatus(
  tx: Queryable,
  agentId: string,
  appointmentId: string,
  status: 'booked' | 'rescheduled' | 'canceled' | 'no_show',
): Promise<void> {
  await tx.query(
    'UPDATE appointments SET status = $3, updated_at = now() WHERE agent_id = $1 AND appointment_id = $2',
    [agentId, appointmentId, status],
  );
}

export interface KnownAppointment {
  appointment_id: string;
  lead_id: string;
  status: 'booked' | 'rescheduled' | 'canceled' | 'no_show';
}

/** The appointment a scheduler's invitee became (external id = invitee uri), locked. */
export async function lockAppointmentByExternalId(
  tx: Queryable,
  agentId: string,
  externalId: string,
): Promise<KnownAppointment | null> {
  const { rows } = await tx.query<KnownAppointment>(
    `SELECT appointment_id, lead_id, status FROM appointments
      WHERE agent_id = $1 AND external_id = $2 FOR UPDATE`,
    [agentId, externalId],
  );
  return rows[0] ?? null;
}

/** Whether the lead still has a booked appointment other than `exceptId`. */
export async function hasOtherBookedAppointment(
  tx: Queryable,
  agentId: string,
  leadId: string,
  exceptId: string | null,
): Promise<boolean> {
  const { rowCount } = await tx.query(
    `SELECT 1 FROM appointments WHERE agent_id = $1 AND lead_id = $2 AND status = 'booked'
        AND appointment_id IS DISTINCT FROM $3 LIMIT 1`,
    [agentId, leadId, exceptId],
  );
  return rowCount > 0;
}
