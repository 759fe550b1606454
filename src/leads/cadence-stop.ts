import type { Queryable } from '../db/index.ts';

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
 * parameters from $3 on), in one statement: the plan `stopped` with the reason ($1) at $2 and its
 * steps not yet done `canceled`; the texts its steps made that still wait in the queue are
 * suppressed, a plan's last ones too when all its steps were done. Returns the leads stopped.
 */
const stopSql = (targets: string) => `WITH t AS MATERIALIZED (${targets}),
stopped AS (
  UPDATE cadence_runs r SET status = 'stopped', stopped_reason = $1, ended_at = $2
    FROM t
   WHERE r.agent_id = t.agent_id AND r.lead_id = t.lead_id AND r.status = 'active'
  RETURNING r.agent_id, r.lead_id),
canceled AS (
  UPDATE cadence_steps s SET status = 'canceled', reason = $1, lease_until = NULL
    FROM stopped
   WHERE s.agent_id = stopped.agent_id AND s.lead_id = stopped.lead_id AND s.status IN ('pending', 'doing')
  RETURNING 1),
waiting AS (
  UPDATE sms_messages m SET status = 'suppressed', error = 'cadence stopped: ' || $1, lease_until = NULL
    FROM t JOIN cadence_steps s ON s.agent_id = t.agent_id AND s.lead_id = t.lead_id
   WHERE s.action = 'text' AND s.status = 'done' AND m.agent_id = s.agent_id AND m.message_id = s.step_id
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
