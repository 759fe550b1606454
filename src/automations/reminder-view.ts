import { iso, type Queryable } from '../db/index.ts';
import type { ReminderKind } from './reminder-plan.ts';
import { reminderMessageIdSql } from './reminder-repository.ts';

/** A reminder as the agent reads it (`GET /v1/admin/leads/:lead_id`'s `reminders`). */
export interface LeadReminder {
  appointment_id: string;
  kind: ReminderKind;
  /** The appointment's time it was planned for. */
  appointment_at: string;
  due_at: string;
  status: 'planned' | 'sent' | 'skipped';
  /** Why it was skipped or waits past its time, or what became of its text. */
  reason: string | null;
}

/** A reminder's row with what it reads now: its appointment's status, the setting, its text. */
interface ReminderRow {
  appointment_id: string;
  kind: ReminderKind;
  appointment_at: Date;
  due_at: Date;
  status: 'planned' | 'sending' | 'sent' | 'skipped';
  reason: string | null;
  appointment_status: string;
  turned_on: boolean;
  text_status: string | null;
  text_error: string | null;
}

/**
 * A reminder's state as the agent reads it. One still to go says now what will come of it: its
 * appointment no longer booked, it will be skipped; turned off, it waits only to be skipped unless
 * turned on again. A sent one says what became of its text: suppressed by the sender or given up
 * on, it was skipped after all. Pure.
 */
export function reminderState(
  r: Omit<ReminderRow, 'appointment_id' | 'kind' | 'appointment_at' | 'due_at'>,
): {
  status: LeadReminder['status'];
  reason: string | null;
} {
  if (r.status === 'planned' || r.status === 'sending') {
    if (r.appointment_status !== 'booked')
      return { status: 'skipped', reason: `appointment ${r.appointment_status}` };
    return { status: 'planned', reason: r.turned_on ? r.reason : 'turned off' };
  }
  if (r.status === 'skipped') return { status: 'skipped', reason: r.reason };
  switch (r.text_status) {
    case 'suppressed':
      return { status: 'skipped', reason: r.text_error };
    case 'failed':
      return { status: 'skipped', reason: `not sent: ${r.text_error ?? 'failed'}` };
    case 'scheduled':
    case 'sending':
      return { status: 'sent', reason: r.text_error ?? 'sending' };
    default:
      return { status: 'sent', reason: null };
  }
}

/**
 * The reminders of the lead's appointments, in the order they go: found through the lead's
 * appointments, so the reminders need no index by lead (one less to write per reminder).
 */
export async function readLeadReminders(
  db: Queryable,
  agentId: string,
  leadId: string,
): Promise<LeadReminder[]> {
  const { rows } = await db.query<ReminderRow>(
    `SELECT r.appointment_id, r.kind, r.appointment_at, r.due_at, r.status, r.reason,
            p.status AS appointment_status,
            CASE r.kind WHEN 'day_before' THEN a.reminder_day_before ELSE a.reminder_hour_before END AS turned_on,
            m.status AS text_status, m.error AS text_error
       FROM appointment_reminders r
       JOIN appointments p ON p.agent_id = r.agent_id AND p.appointment_id = r.appointment_id
       JOIN agents a ON a.agent_id = r.agent_id
       LEFT JOIN sms_messages m ON m.agent_id = r.agent_id
                               AND m.message_id = ${reminderMessageIdSql('r.appointment_id', 'r.kind')}
      WHERE p.agent_id = $1 AND p.lead_id = $2
      ORDER BY r.due_at, r.kind`,
    [agentId, leadId],
  );
  return rows.map((r) => ({
    appointment_id: r.appointment_id,
    kind: r.kind,
    appointment_at: iso(r.appointment_at),
    due_at: iso(r.due_at),
    ...reminderState(r),
  }));
}
