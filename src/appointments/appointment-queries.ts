import { iso, type Queryable } from '../db/index.ts';
import type { NewAppointment } from './appointment-repository.ts';

/** Read side of appointments for the admin API: a lead's appointments and an agent's agenda. */

/** An appointment as the admin API shows it: everything stored but the agent it belongs to. */
export type AppointmentView = Omit<NewAppointment, 'agent_id' | 'ends_at'>;

/** A lead's appointments in time order, whatever their status. */
export async function listLeadAppointments(
  db: Queryable,
  agentId: string,
  leadId: string,
): Promise<AppointmentView[]> {
  const { rows } = await db.query<AppointmentView & { scheduled_at: Date | string }>(
    `SELECT appointment_id, lead_id, scheduled_at, appointment_timezone, schedule_type, status, setter_dialer_name,
            join_url, cancel_url, reschedule_url, external_id
       FROM appointments WHERE agent_id = $1 AND lead_id = $2
      ORDER BY scheduled_at, appointment_id`,
    [agentId, leadId],
  );
  return rows.map((r) => ({ ...r, scheduled_at: iso(r.scheduled_at) }));
}

/** One line of an agent's agenda: the appointment and whom it is with. */
export type AgendaEntry = Pick<
  AppointmentView,
  | 'appointment_id'
  | 'lead_id'
  | 'scheduled_at'
  | 'appointment_timezone'
  | 'schedule_type'
  | 'status'
  | 'setter_dialer_name'
  | 'join_url'
  | 'cancel_url'
  | 'reschedule_url'
> & { name: string };

/** Appointments of an agent with `from <= scheduled_at < to`, in time order, whatever their status. */
export async function listAgenda(
  db: Queryable,
  agentId: string,
  range: { from: string; to: string },
): Promise<AgendaEntry[]> {
  const { rows } = await db.query<AgendaEntry & { scheduled_at: Date | string }>(
    `SELECT a.appointment_id, a.lead_id, l.name, a.scheduled_at, a.appointment_timezone, a.schedule_type, a.status,
            a.setter_dialer_name, a.join_url, a.cancel_url, a.reschedule_url
       FROM appointments a
       JOIN leads l ON l.agent_id = a.agent_id AND l.lead_id = a.lead_id
      WHERE a.agent_id = $1 AND a.scheduled_at >= $2::timestamptz AND a.scheduled_at < $3::timestamptz
      ORDER BY a.scheduled_at, a.appointment_id`,
    [agentId, range.from, range.to],
  );
  return rows.map((r) => ({ ...r, scheduled_at: iso(r.scheduled_at) }));
}
