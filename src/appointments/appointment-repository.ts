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
