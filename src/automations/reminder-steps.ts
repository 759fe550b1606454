import type { Database } from '../db/index.ts';
import { jobQueue } from '../jobs/queue.ts';
import type { JobKind } from '../jobs/runner.ts';
import type { ContactDecision } from '../screening/decide.ts';
import { contactRule, nextAllowedInstant } from './contact-window.ts';
import { TEXT_WINDOW_MS, textLimitReason, textRefusal } from './follow-up.ts';
import { getFollowUpLeads, type FollowUpLead } from './follow-up-leads.ts';
import { leadZone } from './lead-zone.ts';
import { DEFAULT_REMINDER_TEMPLATE, type ReminderKind } from './reminder-plan.ts';
import { reminderMessageId } from './reminder-repository.ts';
import { screenContact } from './screen-contact.ts';
import { renderText } from './sms-template.ts';
import { agentPhoneKey, scheduleTexts, textsSince, type NewText } from './sms-repository.ts';

/** A reminder a worker claimed, with its agent's settings and its appointment as they are now. */
export interface ClaimedReminder {
  agent_id: string;
  appointment_id: string;
  kind: ReminderKind;
  lead_id: string;
  attempts: number;
  /** The appointment's time when the reminder was planned. */
  appointment_at: Date;
  due_at: Date;
  agent_name: string;
  agent_timezone: string;
  day_before: boolean;
  hour_before: boolean;
  template: string | null;
  appointment_status: string;
  scheduled_at: Date;
  appointment_timezone: string;
}

/**
 * The reminders' queue (src/jobs): a reminder is due at its `due_at`; `sending` while a worker
 * holds it. A claim reads its agent's settings and its appointment with it.
 */
export const reminderJobs = jobQueue<ClaimedReminder>({
  table: 'appointment_reminders',
  key: [
    ['agent_id', 'uuid'],
    ['appointment_id', 'uuid'],
    ['kind', 'text'],
  ],
  waiting: 'planned',
  running: 'sending',
  dueAt: 'due_at',
  error: 'reason',
  claimWith: {
    from: 'agents a, appointments p',
    on: 'a.agent_id = j.agent_id AND p.agent_id = j.agent_id AND p.appointment_id = j.appointment_id',
  },
  returning: `j.agent_id, j.appointment_id, j.kind, j.lead_id, j.attempts, j.appointment_at, j.due_at,
              a.name AS agent_name, a.timezone AS agent_timezone, a.reminder_day_before AS day_before,
              a.reminder_hour_before AS hour_before, a.reminder_template AS template,
              p.status AS appointment_status, p.scheduled_at, p.appointment_timezone`,
});

/** A reminder's outcome over its claim; sent or skipped, the moment it was done. */
const settleReminders = reminderJobs.settler({
  set: (clock) => `done_at = CASE WHEN x.status IN ('sent', 'skipped') THEN ${clock} ELSE j.done_at END`,
});

/** What a reminder comes to when it falls due. */
export type ReminderOutcome =
  | { kind: 'text'; text: NewText }
  | { kind: 'skipped'; reason: string }
  | { kind: 'moved'; due: Date; reason: string };

/**
 * A due reminder, decided without I/O on the appointment, the agent's settings and the lead as
 * they are now: skipped when the appointment is no longer booked at the time planned, or past,
 * when the agent turned it off, without a phone or texting consent, when screening forbids a text
 * or the state's texts in 24 hours are used up; a late one outside the calling hours waits for
 * the next allowed instant if that is still before the appointment. Else its text, due at once
 * (the sender screens it again just before sending).
 */
export function decideReminder(
  r: ClaimedReminder,
  lead: FollowUpLead | undefined,
  decision: ContactDecision,
  textsLast24h: number,
  now: Date,
): ReminderOutcome {
  const appointment = new Date(r.scheduled_at).getTime();
  if (r.appointment_status !== 'booked')
    return { kind: 'skipped', reason: `appointment ${r.appointment_status}` };
  if (appointment !== new Date(r.appointment_at).getTime())
    return { kind: 'skipped', reason: 'appointment moved' };
  if (appointment <= now.getTime()) return { kind: 'skipped', reason: 'appointment passed' };
  if (!(r.kind === 'day_before' ? r.day_before : r.hour_before))
    return { kind: 'skipped', reason: 'turned off' };
  if (!lead) return { kind: 'skipped', reason: 'no phone' };
  const refused = textRefusal(lead, decision);
  if (refused) return { kind: 'skipped', reason: refused };
  const phone = String(lead.phone);
  const state = typeof lead.state === 'string' ? lead.state : null;
  const rule = contactRule(state);
  if (rule.maxPer24h !== null && textsLast24h >= rule.maxPer24h)
    return { kind: 'skipped', reason: textLimitReason(state, rule.maxPer24h) };
  const allowed = nextAllowedInstant(now, leadZone(lead, r.agent_timezone), rule);
  if (allowed.getTime() > now.getTime())
    return allowed.getTime() < appointment
      ? { kind: 'moved', due: allowed, reason: 'outside calling hours' }
      : { kind: 'skipped', reason: 'outside calling hours until the appointment' };
  const body = renderText(r.template ?? DEFAULT_REMINDER_TEMPLATE, {
    agent_name: r.agent_name,
    first_name: typeof lead.first_name === 'string' ? lead.first_name : null,
    appointment: { scheduled_at: new Date(r.scheduled_at).toISOString(), zone: r.appointment_timezone },
  });
  const text = {
    agent_id: r.agent_id,
    lead_id: r.lead_id,
    message_id: reminderMessageId(r.appointment_id, r.kind),
    to_phone: phone,
    body,
    send_at: now,
  };
  return { kind: 'text', text };
}

/** What a round of reminders came to. */
export interface ReminderRound {
  texts: number;
  skipped: number;
  moved: number;
}

/**
 * Reminders as a kind of job: a round claims the reminders due, decides each (`decideReminder`) on
 * the lead as it is now, and writes their texts (each keyed by its appointment and kind, so made
 * once even if two workers did the same reminder) and their outcomes in one transaction.
 */
export function reminderKind(settings: { batch: number }): JobKind<ClaimedReminder, ReminderRound> {
  return {
    name: 'reminders',
    queue: reminderJobs,
    batch: settings.batch,
    handle: (db, reminders, at) => sendReminders(db, reminders, at ?? new Date()),
  };
}

async function sendReminders(db: Database, due: ClaimedReminder[], now: Date): Promise<ReminderRound> {
  const round: ReminderRound = { texts: 0, skipped: 0, moved: 0 };
  if (due.length === 0) return round;
  const leads = await getFollowUpLeads(
    db,
    due.map((r) => r.lead_id),
  );
  const asked = due.map((r) => leads.get(r.lead_id));
  const numbers = due.flatMap((r, i) => {
    const phone = asked[i]?.phone;
    return typeof phone === 'string' ? [{ agent_id: r.agent_id, phone }] : [];
  });
  const [decisions, texted] = await Promise.all([
    screenContact(
      db,
      asked.flatMap((l) => (l ? [l] : [])),
      now,
    ),
    textsSince(db, numbers, new Date(now.getTime() - TEXT_WINDOW_MS)),
  ]);
  let screened = 0;
  const texts: NewText[] = [];
  const outcomes = due.map((r, i) => {
    const lead = asked[i];
    const decision = (lead ? decisions[screened++] : undefined) ?? { text: null, call: null };
    const phone = typeof lead?.phone === 'string' ? lead.phone : '';
    const outcome = decideReminder(r, lead, decision, texted.get(agentPhoneKey(r.agent_id, phone)) ?? 0, now);
    switch (outcome.kind) {
      case 'text':
        texts.push(outcome.text);
        round.texts++;
        return { job: r, status: 'sent', error: null };
      case 'skipped':
        round.skipped++;
        return { job: r, status: 'skipped', error: outcome.reason };
      case 'moved':
        round.moved++;
        return { job: r, status: 'planned', error: outcome.reason, due: outcome.due };
    }
  });
  await db.withTransaction(async (tx) => {
    await scheduleTexts(tx, texts);
    await settleReminders(tx, outcomes, {}, now);
  });
  return round;
}
