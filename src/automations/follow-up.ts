import type { Queryable } from '../db/index.ts';
import { leadZone } from './lead-zone.ts';
import { agentPhoneKey, optedOut, textsSince } from './sms-repository.ts';
import { nextAllowedInstant } from './contact-window.ts';
import { planFollowUp, type FollowUp } from './speed-to-lead.ts';
import type { ContactRule } from './tables/calling-hours.ts';

/**
 * What of the agent a follow-up needs: the name and template of the text, the fallback zone, and
 * which reminders a booking gets (docs/reminders.md).
 */
export interface FollowUpAgent {
  name: string;
  timezone: string;
  sms_template: string | null;
  sms_from: string | null;
  reminder_day_before: boolean;
  reminder_hour_before: boolean;
}

/** The agents of these ids, in one query, by id. */
export async function loadFollowUpAgents(
  db: Queryable,
  agentIds: readonly string[],
): Promise<Map<string, FollowUpAgent>> {
  if (agentIds.length === 0) return new Map();
  const { rows } = await db.query<FollowUpAgent & { agent_id: string }>(
    `SELECT agent_id, name, timezone, sms_template, sms_from, reminder_day_before, reminder_hour_before
       FROM agents WHERE agent_id = ANY($1::uuid[])`,
    [[...new Set(agentIds)]],
  );
  return new Map(rows.map(({ agent_id, ...agent }) => [agent_id, agent]));
}

export interface FollowUpRequest {
  agent_id: string;
  agent: FollowUpAgent;
  topic: string;
  /** The lead by field name, with its status. */
  lead: Record<string, unknown>;
  scheduled_at: string | null;
}

export type PlannedFollowUp = FollowUp & { phone: string | null };

/** How far back the texts a number had count against the daily limit. */
export const TEXT_WINDOW_MS = 86_400_000;

const text = (lead: Record<string, unknown>, key: string) =>
  typeof lead[key] === 'string' && lead[key] !== '' ? (lead[key] as string) : null;

/** The number a lead's text could go to: its phone, when it consents to texts; else null. */
export function textableNumber(lead: Record<string, unknown>): string | null {
  const phone = text(lead, 'phone');
  return phone !== null && lead.sms_consent === true ? phone : null;
}

/**
 * Why no text may go to a lead at all, in the words the agent reads: no phone, no texting consent,
 * or what screening said; null when one may. What a cadence step and a reminder check alike. Pure.
 */
export function textRefusal(lead: Record<string, unknown>, screened: { text: string | null }): string | null {
  if (text(lead, 'phone') === null) return 'no phone';
  if (lead.sms_consent !== true) return 'no SMS consent';
  return screened.text;
}

/** Why a text waits or is skipped once the state's texts in 24 hours are used: "FL allows 3 texts in 24 hours". */
export const textLimitReason = (state: string | null, max: number): string =>
  `${state ?? ''} allows ${max} texts in 24 hours`.trim();

/** What the database says of the numbers texts could go to, by `agentPhoneKey`. */
export interface TextingHistory {
  /** The numbers that opted out. */
  stopped: ReadonlySet<string>;
  /** How many texts each number had within TEXT_WINDOW_MS; a number not texted is absent. */
  texted: ReadonlyMap<string, number>;
}

/**
 * The follow-ups of lead events, in their order (planFollowUps), with what they need from the
 * database: whether each number opted out and whether the agent texted it in the last 24 hours —
 * two queries for all of them, sent together, asked only for the numbers a text could go to (a
 * phone and consent). Used by the dispatcher for a round of messages.
 */
export async function followUpsFor(
  db: Queryable,
  requests: readonly FollowUpRequest[],
  now: Date,
): Promise<PlannedFollowUp[]> {
  const numbers = requests.flatMap((r) => {
    const phone = textableNumber(r.lead);
    return phone === null ? [] : [{ agent_id: r.agent_id, phone }];
  });
  const [stopped, texted] = await Promise.all([
    optedOut(db, numbers),
    textsSince(db, numbers, new Date(now.getTime() - TEXT_WINDOW_MS)),
  ]);
  return planFollowUps(requests, { stopped, texted }, now);
}

/**
 * The follow-ups of lead events, in their order (planFollowUp), on what the database said of their
 * numbers. A text planned for an event counts for the events after it, as if it were already
 * scheduled. Pure; the dispatcher and Listen's preview both plan with it.
 */
export function planFollowUps(
  requests: readonly FollowUpRequest[],
  history: TextingHistory,
  now: Date,
): PlannedFollowUp[] {
  const texted = new Map(history.texted);
  // The round's leads share a few zones, and placing `now` in a zone (through Intl) is most of
  // planning a follow-up: each zone's answer is worked out once a round.
  const windows = new Map<string, Date>();
  const allowedAt = (at: Date, zone: string, rule: ContactRule) => {
    const key = `${zone} ${rule.start} ${rule.end}`;
    let next = windows.get(key);
    if (!next) windows.set(key, (next = nextAllowedInstant(at, zone, rule)));
    return next;
  };
  return requests.map((r) => {
    const { lead, agent } = r;
    const phone = text(lead, 'phone');
    const key = phone === null ? '' : agentPhoneKey(r.agent_id, phone);
    const plan = planFollowUp(
      {
        topic: r.topic,
        status: String(lead.status),
        phone,
        first_name: text(lead, 'first_name'),
        state: text(lead, 'state'),
        zone: leadZone(lead, agent.timezone),
        sms_consent: lead.sms_consent === true,
        appointment: r.scheduled_at ? { scheduled_at: r.scheduled_at } : null,
        opted_out: history.stopped.has(key),
        texts_last_24h: texted.get(key) ?? 0,
        agent_name: agent.name,
        template: agent.sms_template,
        now,
      },
      allowedAt,
    );
    if ('send_at' in plan.text) texted.set(key, (texted.get(key) ?? 0) + 1);
    return { ...plan, phone };
  });
}
