import type { Queryable } from '../db/index.ts';
import { iso } from '../db/index.ts';
import { insertSql, type RowShape } from '../db/row-shape.ts';
import type { ResolvedAppointment } from './schedule.ts';
import type { AppointmentRef, AppointmentStatus } from './transitions.ts';

export interface NewAppointment extends ResolvedAppointment {
  agent_id: string;
  appointment_id: string;
  lead_id: string;
  status: AppointmentStatus;
  setter_dialer_name: string | null;
  join_url: string | null;
  cancel_url: string | null;
  reschedule_url: string | null;
  external_id: string | null;
}

/** An appointment's row; `appointmentRow` gives its values in this order. */
export const APPOINTMENT_ROW: RowShape = {
  table: 'appointments',
  columns: [
    { name: 'agent_id', type: 'uuid' },
    { name: 'appointment_id', type: 'uuid' },
    { name: 'lead_id', type: 'uuid' },
    { name: 'scheduled_at', type: 'timestamptz' },
    { name: 'appointment_timezone', type: 'text' },
    { name: 'schedule_type', type: 'text' },
    { name: 'status', type: 'text' },
    { name: 'setter_dialer_name', type: 'text' },
    { name: 'join_url', type: 'text' },
    { name: 'cancel_url', type: 'text' },
    { name: 'reschedule_url', type: 'text' },
    { name: 'external_id', type: 'text' },
  ],
};

export function appointmentRow(a: NewAppointment): unknown[] {
  return [
    a.agent_id,
    a.appointment_id,
    a.lead_id,
    a.scheduled_at,
    a.appointment_timezone,
    a.schedule_type,
    a.status,
    a.setter_dialer_name,
    a.join_url,
    a.cancel_url,
    a.reschedule_url,
    a.external_id,
  ];
}

const INSERT_APPOINTMENT = insertSql(APPOINTMENT_ROW);

/** Puts an appointment on the agent's agenda. */
export async function insertAppointment(tx: Queryable, a: NewAppointment): Promise<void> {
  await tx.query(INSERT_APPOINTMENT, appointmentRow(a));
}

export interface BookedAppointment {
  appointment_id: string;
  /** UTC ISO-8601 instant. */
  scheduled_at: string;
  external_id: string | null;
}

/** The lead's booked appointments (normally one), locked for the caller's transaction. */
export async function lockBookedAppointments(
  tx: Queryable,
  agentId: string,
  leadId: string,
): Promise<BookedAppointment[]> {
  const { rows } = await tx.query<BookedAppointment & { scheduled_at: Date | string }>(
    `SELECT appointment_id, scheduled_at, external_id FROM appointments
      WHERE agent_id = $1 AND lead_id = $2 AND status = 'booked' ORDER BY scheduled_at FOR UPDATE`,
    [agentId, leadId],
  );
  return rows.map((r) => ({ ...r, scheduled_at: iso(r.scheduled_at) }));
}

export async function setAppointmentStatus(
  tx: Queryable,
  agentId: string,
  appointmentId: string,
  status: AppointmentStatus,
): Promise<void> {
  await tx.query(
    'UPDATE appointments SET status = $3, updated_at = now() WHERE agent_id = $1 AND appointment_id = $2',
    [agentId, appointmentId, status],
  );
}

export interface NamedAppointment extends AppointmentRef {
  lead_id: string;
  /** UTC ISO-8601 instant. */
  scheduled_at: string;
  external_id: string | null;
}

/** The appointment a scheduler's invitee became (external id = invitee uri), locked. */
export async function lockAppointmentByExternalId(
  tx: Queryable,
  agentId: string,
  externalId: string,
): Promise<NamedAppointment | null> {
  const { rows } = await tx.query<NamedAppointment & { scheduled_at: Date | string }>(
    `SELECT appointment_id, lead_id, status, scheduled_at, external_id FROM appointments
      WHERE agent_id = $1 AND external_id = $2 FOR UPDATE`,
    [agentId, externalId],
  );
  const row = rows[0];
  return row ? { ...row, scheduled_at: iso(row.scheduled_at) } : null;
}
