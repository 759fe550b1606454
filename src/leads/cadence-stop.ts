import { md5Id } from '../db/ids.ts';
import type { Queryable } from '../db/index.ts';

/**
 * The message id of the call task or text a lead's step `n` makes: the same for every worker that
 * does the step, so the task or text is made once (dial_tasks and sms_messages are unique by it).
 */
export function stepMessageId(leadId: string, n: number): string {
  return md5Id(`${leadId}:${n}`);
}

/** stepMessageId as an SQL expression of a lead id and a step number. */
export const stepMessageIdSql = (lead: string, n: string): string =>
  `md5(${lead}::text || ':' || ${n})::uuid`;

/** Why a lead's cadence stopped (docs/cadences.md, "Stopping"). */
export const CADENCE_STOP_REASONS = [
  'replied',
  'opted_out',
  'do_not_contact',
  'appointment',
  'reached',
  'status',
  'agent',
] as const;
export type CadenceStopReason = (typeof CADENCE_STOP_REASONS)[number];

/**
 * Stops the active cadences of the leads `targets` names (SQL yielding `agent_id, lead_id`, of
 * parameters from $3 on), in one statement: the plan `stopped` with the reason ($1) at $2 (its
 * steps not yet done are canceled with it), and the texts its steps made that still wait in the
 * queue suppressed — a plan's last ones too when it had completed. Returns the leads stopped.
 */
const stopSql = (targets: string) => `WITH t AS MATERIALIZED (${targets}),
stopped AS (
  UPDATE cadence_runs r SET status = 'stopped', stopped_reason = $1, ended_at = $2, lease_until = NULL
    FROM t
   WHERE r.agent_id = t.agent_id AND r.lead_id = t.lead_id AND r.status IN ('active', 'stepping')
  RETURNING r.agent_id, r.lead_id),
waiting AS (
  UPDATE sms_messages m SET status = 'suppressed', error = 'cadence stopped: ' || $1, lease_until = NULL
    FROM t JOIN cadence_runs r ON r.agent_id = t.agent_id AND r.lead_id = t.lead_id
   CROSS JOIN generate_series(0, r.next_step - 1) AS k
   WHERE m.agent_id = r.agent_id AND m.message_id = ${stepMessageIdSql('r.lead_id', 'k')}
     AND m.status = 'scheduled'
  RETURNING 1)
SELECT agent_id, lead_id FROM stopped`;

const BY_LEADS = stopSql('SELECT * FROM unnest($3::uuid[], $4::uuid[]) AS x (agent_id, lead_id)');
const BY_NUMBER = stopSql(
  'SELECT l.agent_id, l.lead_id FROM leads l WHERE l.agent_id = ANY($3::uuid[]) AND l.phone = $4',
);

type Stopped = Array<{ agent_id: string; lead_id: string }>;

/** Stops these leads' cadences, in the caller's transaction; the leads whose cadence was active. */
export async function stopCadences(
  tx: Queryable,
  leads: ReadonlyArray<{ agent_id: string; lead_id: string }>,
  reason: CadenceStopReason,
  now: Date,
): Promise<Stopped> {
  if (leads.length === 0) return [];
  const { rows } = await tx.query<Stopped[number]>(BY_LEADS, [
    reason,
    now.toISOString(),
    leads.map((l) => l.agent_id),
    leads.map((l) => l.lead_id),
  ]);
  return rows;
}

/** Stops the cadences of these agents' leads with this number (an opt-out, do not contact). */
export async function stopCadencesOfNumber(
  tx: Queryable,
  agentIds: readonly string[],
  phone: string,
  reason: CadenceStopReason,
  now: Date,
): Promise<Stopped> {
  if (agentIds.length === 0) return [];
  const { rows } = await tx.query<Stopped[number]>(BY_NUMBER, [reason, now.toISOString(), agentIds, phone]);
  return rows;
}

/** The reason a lead's new status stops its cadence, if it does: an appointment, or a closing status. */
export function stopReasonOfStatus(status: string): CadenceStopReason | null {
  if (status === 'Scheduled') return 'appointment';
  return status === 'Sold' || status === 'Not interested' || status === 'Bad number' ? 'status' : null;
}
