import { iso, type Queryable } from '../db/index.ts';

/** A step of a lead's plan as the agent reads it. */
export interface PlanStep {
  action: 'call' | 'text';
  due_at: string;
  status: 'pending' | 'done' | 'skipped' | 'canceled';
  /** Why it was skipped, canceled or moved, or what became of it (`in the dial queue`, `sent`). */
  reason: string | null;
}

/** A lead's plan (`GET /v1/admin/leads/:lead_id`'s `cadence`). */
export interface LeadCadence {
  cadence_id: string;
  name: string;
  status: 'active' | 'stopped' | 'completed';
  stopped_reason: string | null;
  started_at: string;
  ended_at: string | null;
  steps: PlanStep[];
}

interface StepRow {
  cadence_id: string;
  name: string;
  run_status: LeadCadence['status'];
  stopped_reason: string | null;
  started_at: Date;
  ended_at: Date | null;
  action: 'call' | 'text';
  due_at: Date;
  status: string;
  reason: string | null;
  text_status: string | null;
  text_error: string | null;
  task_status: string | null;
  task_outcome: string | null;
  blocked_reason: string | null;
}

/**
 * A step's state: its own while it waits or when it was skipped or canceled; once done, what became
 * of the text or call task it made — a text still waiting in the queue is pending, one the sender
 * suppressed or gave up on is skipped with the reason. Pure.
 */
export function stepState(r: StepRow): Pick<PlanStep, 'status' | 'reason'> {
  if (r.status === 'pending' || r.status === 'doing') return { status: 'pending', reason: r.reason };
  if (r.status !== 'done') return { status: r.status as PlanStep['status'], reason: r.reason };
  if (r.action === 'text') {
    switch (r.text_status) {
      case 'scheduled':
      case 'sending':
        return { status: 'pending', reason: r.text_error ?? 'sending' };
      case 'suppressed':
        return r.text_error?.startsWith('cadence stopped')
          ? { status: 'canceled', reason: r.text_error }
          : { status: 'skipped', reason: r.text_error };
      case 'failed':
        return { status: 'skipped', reason: `not sent: ${r.text_error ?? 'failed'}` };
      default:
        return { status: 'done', reason: 'sent' };
    }
  }
  if (r.task_status === 'blocked') return { status: 'skipped', reason: r.blocked_reason };
  if (r.task_status === 'done') return { status: 'done', reason: `called: ${r.task_outcome ?? 'closed'}` };
  return { status: 'done', reason: 'in the dial queue' };
}

/** The lead's plan with each step's state, or null when it follows no cadence. */
export async function readLeadCadence(
  db: Queryable,
  agentId: string,
  leadId: string,
): Promise<LeadCadence | null> {
  const { rows } = await db.query<StepRow>(
    `SELECT r.cadence_id, r.name, r.status AS run_status, r.stopped_reason, r.started_at, r.ended_at,
            s.action, s.due_at, s.status, s.reason, m.status AS text_status, m.error AS text_error,
            t.status AS task_status, t.outcome AS task_outcome, t.blocked_reason
       FROM cadence_runs r
       JOIN cadence_steps s ON s.agent_id = r.agent_id AND s.lead_id = r.lead_id
       LEFT JOIN sms_messages m ON s.action = 'text' AND m.agent_id = s.agent_id AND m.message_id = s.step_id
       LEFT JOIN dial_tasks t ON s.action = 'call' AND t.agent_id = s.agent_id AND t.message_id = s.step_id
      WHERE r.agent_id = $1 AND r.lead_id = $2
      ORDER BY s.step_no`,
    [agentId, leadId],
  );
  const first = rows[0];
  if (!first) return null;
  return {
    cadence_id: first.cadence_id,
    name: first.name,
    status: first.run_status,
    stopped_reason: first.stopped_reason,
    started_at: iso(first.started_at),
    ended_at: first.ended_at === null ? null : iso(first.ended_at),
    steps: rows.map((r) => ({ action: r.action, due_at: iso(r.due_at), ...stepState(r) })),
  };
}

/** How many steps of the agent's plans fall due from `from` until `until` and are still to do. */
export async function countStepsDue(
  db: Queryable,
  agentId: string,
  from: Date,
  until: Date,
): Promise<number> {
  const { rows } = await db.query<{ n: number }>(
    `SELECT count(*)::int AS n FROM cadence_steps
      WHERE agent_id = $1 AND status IN ('pending', 'doing') AND due_at >= $2 AND due_at < $3`,
    [agentId, from.toISOString(), until.toISOString()],
  );
  return rows[0]?.n ?? 0;
}
