import { DateTime } from 'luxon';
import { unknownPlaceholder } from './sms-template.ts';
import type { ContactRule } from './tables/calling-hours.ts';

/** The reminders a prospect gets before an appointment (docs/reminders.md). */
export const REMINDER_KINDS = ['day_before', 'hour_before'] as const;
export type ReminderKind = (typeof REMINDER_KINDS)[number];

/** How long before the appointment each reminder aims at: elapsed time, whatever the clocks do. */
export const REMINDER_LEAD_MS: Record<ReminderKind, number> = {
  day_before: 86_400_000,
  hour_before: 3_600_000,
};

/** The placeholders a reminder's template may use. */
export const REMINDER_PLACEHOLDERS = ['first_name', 'agent_name', 'appointment_time'] as const;

/** The reminder's words unless the agent set their own (`reminders.template`). */
export const DEFAULT_REMINDER_TEMPLATE =
  'Hi {first_name}, this is {agent_name}: a reminder of our appointment {appointment_time}. Reply here if you need another time.';

/** What is wrong with a reminder's template (an unknown placeholder), naming the field, or null. Pure. */
export function reminderTemplateProblem(template: string): string | null {
  const unknown = unknownPlaceholder(template, REMINDER_PLACEHOLDERS);
  return unknown === null
    ? null
    : `reminders.template has an unknown placeholder {${unknown}}; known: ${REMINDER_PLACEHOLDERS.map((p) => `{${p}}`).join(', ')}`;
}

/** Which reminders the agent has on. */
export type RemindersOn = Record<ReminderKind, boolean>;

export interface ReminderPlanInput {
  appointment_at: Date;
  /** The moment of planning: the booking's fan-out, or the agent turning a reminder on. */
  now: Date;
  /** The prospect's zone and the state's calling hours there. */
  zone: string;
  rule: ContactRule;
  on: RemindersOn;
}

export interface PlannedReminder {
  kind: ReminderKind;
  due_at: Date;
}

const minutesOf = (hhmm: string) => {
  const [h = 0, m = 0] = hhmm.split(':').map(Number);
  return h * 60 + m;
};

/**
 * The latest instant at or before `target` inside the rule's daily window in `zone`: `target`
 * itself inside it, else the window's last minute before it (20:59 for a 21:00 close), that
 * evening's, or the evening before when `target` is before the opening. Luxon places the local
 * minute, so a night when clocks change lands on the right instant. Pure.
 */
export function lastAllowedAtOrBefore(target: Date, zone: string, rule: ContactRule): Date {
  const local = DateTime.fromJSDate(target, { zone });
  const minute = local.hour * 60 + local.minute;
  const opens = minutesOf(rule.start);
  const closes = minutesOf(rule.end);
  if (minute >= opens && minute < closes) return target;
  const last = closes - 1;
  const day = minute >= closes ? local : local.minus({ days: 1 });
  return day.set({ hour: Math.floor(last / 60), minute: last % 60, second: 0, millisecond: 0 }).toJSDate();
}

/**
 * When each reminder that is on goes: its target (the appointment less a day or an hour) when the
 * prospect's calling hours allow it, else the window's last minute before it. One whose time has
 * already passed at planning (booked less than a day or an hour ahead, or whose last minute before
 * has gone) is not planned: a reminder late is no reminder. Never after the appointment. Pure.
 */
export function planReminders(input: ReminderPlanInput): PlannedReminder[] {
  const appointment = input.appointment_at.getTime();
  return REMINDER_KINDS.flatMap((kind) => {
    if (!input.on[kind]) return [];
    const target = new Date(appointment - REMINDER_LEAD_MS[kind]);
    const due_at = lastAllowedAtOrBefore(target, input.zone, input.rule);
    return due_at.getTime() > input.now.getTime() ? [{ kind, due_at }] : [];
  });
}
