import { md5Id } from '../db/ids.ts';
import type { Queryable } from '../db/index.ts';
import type { JsonObject } from '../json.ts';
import { contactRule } from './contact-window.ts';
import { textableNumber } from './follow-up.ts';
import { getFollowUpLeads, type FollowUpLead } from './follow-up-leads.ts';
import { leadZone } from './lead-zone.ts';
import { planReminders, type ReminderKind, type RemindersOn } from './reminder-plan.ts';

/**
 * The message id of the text a reminder makes: the same for every worker that does it, so the
 * text is made once (sms_messages is unique by agent and message id).
 */
export function reminderMessageId(appointmentId: string, kind: ReminderKind): string {
  return md5Id(`${appointmentId}:reminder:${kind}`);
}

/** reminderMessageId as an SQL expression of an appointment id and a kind. */
export const reminderMessageIdSql = (appointment: string, kind: string): string =>
  `md5(${appointment}::text || ':reminder:' || ${kind})::uuid`;

/** A reminder to write: its appointment, the time it was planned for, and when it goes. */
export interface NewReminder {
  agent_id: string;
  appointment_id: string;
  kind: ReminderKind;
  lead_id: string;
  appointment_at: Date;
  due_at: Date;
}

/** A booked appointment to plan reminders for, with its lead and the agent's settings. */
export interface Booking {
  agent_id: string;
  appointment_id: string;
  appointment_at: Date;
  lead: FollowUpLead;
  agent: { timezone: string; reminder_day_before: boolean; reminder_hour_before: boolean };
}

/** The bookings `appointment.booked` messages announce (their payload names the appointment and its time), with their leads and agents. */
export function bookingsOf(
  messages: ReadonlyArray<{ agent_id: string; lead_id: string | null; payload: JsonObject }>,
  leads: ReadonlyMap<string, FollowUpLead>,
  agents: ReadonlyMap<string, Booking['agent']>,
): Booking[] {
  return messages.flatMap((m) => {
    const lead = m.lead_id ? leads.get(m.lead_id) : undefined;
    const agent = agents.get(m.agent_id);
    const { appointment_id, scheduled_at } = m.payload;
    if (!lead || !agent || typeof appointment_id !== 'string' || typeof scheduled_at !== 'string') return [];
    return [{ agent_id: m.agent_id, appointment_id, appointment_at: new Date(scheduled_at), lead, agent }];
  });
}

/**
 * The reminders of these bookings: only for a prospect with a phone and texting consent, each that
 * the agent has on, at its time in the prospect's zone and state (`planReminders`). Pure.
 */
export function remindersOf(bookings: readonly Booking[], now: Date): NewReminder[] {
  return bookings.flatMap(({ agent_id, appointment_id, appointment_at, lead, agent }) => {
    if (textableNumber(lead) === null || Number.isNaN(appointment_at.getTime())) return [];
    const on: RemindersOn = {
      day_before: agent.reminder_day_before,
      hour_before: agent.reminder_hour_before,
    };
    if (!on.day_before && !on.hour_before) return [];
    const state = typeof lead.state === 'string' ? lead.state : null;
    const zone = leadZone(lead, agent.timezone);
    return planReminders({ appointment_at, now, zone, rule: contactRule(state), on }).map((r) => ({
      agent_id,
      appointment_id,
      kind: r.kind,
      lead_id: lead.lead_id,
      appointment_at,
      due_at: r.due_at,
    }));
  });
}

/** Writes reminders in the caller's transaction, one statement for all; one already there is kept. */
export async function insertReminders(tx: Queryable, reminders: readonly NewReminder[]): Promise<void> {
  if (reminders.length === 0) return;
  await tx.query(
    `INSERT INTO appointment_reminders (agent_id, appointment_id, kind, lead_id, appointment_at, due_at)
     SELECT * FROM unnest($1::uuid[], $2::uuid[], $3::text[], $4::uuid[], $5::timestamptz[], $6::timestamptz[])
     ON CONFLICT (agent_id, appointment_id, kind) DO NOTHING`,
    [
      reminders.map((r) => r.agent_id),
      reminders.map((r) => r.appointment_id),
      reminders.map((r) => r.kind),
      reminders.map((r) => r.lead_id),
      reminders.map((r) => r.appointment_at.toISOString()),
      reminders.map((r) => r.due_at.toISOString()),
    ],
  );
}

/**
 * Plans the reminders the agent has on for its booked appointments still to come (the agent just
 * turned one on): those planned already are kept, as are those already sent or skipped.
 */
export async function planAgentReminders(
  tx: Queryable,
  agent: Booking['agent'] & { agent_id: string },
  now: Date,
): Promise<number> {
  const { rows } = await tx.query<{ appointment_id: string; lead_id: string; scheduled_at: Date }>(
    `SELECT appointment_id, lead_id, scheduled_at FROM appointments
      WHERE agent_id = $1 AND status = 'booked' AND scheduled_at > $2`,
    [agent.agent_id, now.toISOString()],
  );
  if (rows.length === 0) return 0;
  const leads = await getFollowUpLeads(
    tx,
    rows.map((r) => r.lead_id),
  );
  const reminders = remindersOf(
    rows.flatMap((r) => {
      const lead = leads.get(r.lead_id);
      const appointment_at = new Date(r.scheduled_at);
      return lead
        ? [{ agent_id: agent.agent_id, appointment_id: r.appointment_id, appointment_at, lead, agent }]
        : [];
    }),
    now,
  );
  await insertReminders(tx, reminders);
  return reminders.length;
}
