import type { Queryable } from '../db/index.ts';
import { iso } from '../db/index.ts';
import { insertRow, run, sql, type RowShape } from '../db/statement.ts';
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
  /** UTC ISO-8601 instant the booking says the meeting ends, or null: the agent's appointment length. */
  ends_at: string | null;
}

/** An appointment's row: a NewAppointment's values, by column. */
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
    { name: 'ends_at', type: 'timestamptz' },
  ],
};

const INSERT_APPOINTMENT = insertRow(APPOINTMENT_ROW);

/** Puts an appointment on the agent's agenda. */
export async function insertAppointment(tx: Queryable, a: NewAppointment): Promise<void> {
  await run(tx, INSERT_APPOINTMENT, { ...a });
}

export interface BookedAppointment {
  appointment_id: string;
  /** UTC ISO-8601 instant. */
  scheduled_at: string;
  external_id: string | null;
}

const LOCK_BOOKED = sql<'agent_id' | 'lead_id'>(
  (p) => `SELECT appointment_id, scheduled_at, external_id FROM appointments
           WHERE agent_id = ${p('agent_id', 'uuid')} AND lead_id = ${p('lead_id', 'uuid')} AND status = 'booked'
           ORDER BY scheduled_at FOR UPDATE`,
);

/** The lead's booked appointments (normally one), locked for the caller's transaction. */
export async function lockBookedAppointments(
  tx: Queryable,
  agentId: string,
  leadId: string,
): Promise<BookedAppointment[]> {
  const { rows } = await run<BookedAppointment & { scheduled_at: Date | string }, 'agent_id' | 'lead_id'>(
    tx,
    LOCK_BOOKED,
    { agent_id: agentId, lead_id: leadId },
  );
  return rows.map((r) => ({ ...r, scheduled_at: iso(r.scheduled_at) }));
}

export async function setAppointmentStatus(
  tx: Queryable,
  agentId: string,
  appointmentId: string,
  status: AppointmentStatus,
): Promise<void> {
  await run(tx, SET_STATUS, { agent_id: agentId, appointment_id: appointmentId, status });
}

// A new sequence tells subscribed calendars the event changed (docs/calendar.md).
const SET_STATUS = sql<'agent_id' | 'appointment_id' | 'status'>(
  (p) => `UPDATE appointments SET status = ${p('status', 'text')}, sequence = sequence + 1, updated_at = now()
           WHERE agent_id = ${p('agent_id', 'uuid')} AND appointment_id = ${p('appointment_id', 'uuid')}`,
);

const CONTINUE_SERIES = sql<'agent_id' | 'appointment_id' | 'replaced_id'>(
  (
    p,
  ) => `UPDATE appointments a SET series_id = coalesce(o.series_id, o.appointment_id), sequence = o.sequence + 1
            FROM appointments o
           WHERE a.agent_id = ${p('agent_id', 'uuid')} AND a.appointment_id = ${p('appointment_id', 'uuid')}
             AND o.agent_id = a.agent_id AND o.appointment_id = ${p('replaced_id', 'uuid')}`,
);

/**
 * Makes a rescheduled meeting's new appointment the same calendar event as the one it replaced:
 * its series, and a sequence above the old one's (sent after the old one's status change).
 */
export async function continueSeries(
  tx: Queryable,
  agentId: string,
  appointmentId: string,
  replacedId: string,
): Promise<void> {
  await run(tx, CONTINUE_SERIES, {
    agent_id: agentId,
    appointment_id: appointmentId,
    replaced_id: replacedId,
  });
}

export interface NamedAppointment extends AppointmentRef {
  lead_id: string;
  /** UTC ISO-8601 instant. */
  scheduled_at: string;
  external_id: string | null;
}

const LOCK_BY_EXTERNAL_ID = sql<'agent_id' | 'external_id'>(
  (p) => `SELECT appointment_id, lead_id, status, scheduled_at, external_id FROM appointments
           WHERE agent_id = ${p('agent_id', 'uuid')} AND external_id = ${p('external_id', 'text')} FOR UPDATE`,
);

/** The appointment a scheduler's invitee became (external id = invitee uri), locked. */
export async function lockAppointmentByExternalId(
  tx: Queryable,
  agentId: string,
  externalId: string,
): Promise<NamedAppointment | null> {
  const { rows } = await run<NamedAppointment & { scheduled_at: Date | string }, 'agent_id' | 'external_id'>(
    tx,
    LOCK_BY_EXTERNAL_ID,
    { agent_id: agentId, external_id: externalId },
  );
  const row = rows[0];
  return row ? { ...row, scheduled_at: iso(row.scheduled_at) } : null;
}
