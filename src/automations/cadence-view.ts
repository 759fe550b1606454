import { iso, type Queryable } from '../db/index.ts';
import { stepMessageId } from '../leads/cadence-stop.ts';
import { planDueTimes, type CadenceStep } from './cadence-plan.ts';
import type { StepDone } from './cadence-steps.ts';

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

/** What became of the call task or text a step made, if it made one. */
interface Made {
  text_status: string | null;
  text_error: string | null;
  task_status: string | null;
  task_outcome: string | null;
  blocked_reason: string | null;
}

/**
 * A done step's state: what became of the text or call task it made — a text still waiting in the
 * queue is pending, one the sender suppressed or gave up on is skipped with the reason (canceled when
 * its plan stopped first). Pure.
 */
export function stepState(action: 'call' | 'text', m: Made): Pick<PlanStep, 'status' | 'reason'> {
  if (action === 'text') {
    switch (m.text_status) {
      case 'scheduled':
      case 'sending':
        return { status: 'pending', reason: m.text_error ?? 'sending' };
      case 'suppressed':
        return m.text_error?.startsWith('cadence stopped')
          ? { status: 'canceled', reason: m.text_error }
          : { status: 'skipped', reason: m.text_error };
      case 'failed':
        return { status: 'skipped', reason: `not sent: ${m.text_error ?? 'failed'}` };
      default:
        return { status: 'done', reason: 'sent' };
    }
  }
  if (m.task_status === 'blocked') return { status: 'skipped', reason: m.blocked_reason };
  if (m.task_status === 'done') return { status: 'done', reason: `called: ${m.task_outcome ?? 'closed'}` };
  return { status: 'done', reason: 'in the dial queue' };
}

interface RunRow {
  cadence_id: string;
  name: string;
  status: 'active' | 'stepping' | 'stopped' | 'completed';
  stopped_reason: string | null;
  reason: string | null;
  started_at: Date;
  ended_at: Date | null;
  zone: string;
  state: string | null;
  next_step: number;
  due_at: Date;
  steps: StepDone[];
  plan: CadenceStep[];
}

/**
 * The lead's plan with each step's state, or null when it follows none. The steps done say what
 * came of them; the rest fall due at their times from the plan's start (the next one at its own
 * time, should it have moved), or were canceled with the plan.
 */
export async function readLeadCadence(
  db: Queryable,
  agentId: string,
  leadId: string,
): Promise<LeadCadence | null> {
  const { rows } = await db.query<RunRow>(
    `SELECT r.cadence_id, v.name, r.status, r.stopped_reason, r.reason, r.started_at, r.ended_at, r.zone,
            r.state, r.next_step, r.due_at, r.steps, v.steps AS plan
       FROM cadence_runs r
       JOIN cadence_versions v ON v.agent_id = r.cadence_agent_id AND v.cadence_id = r.cadence_id
                              AND v.version = r.version
      WHERE r.agent_id = $1 AND r.lead_id = $2`,
    [agentId, leadId],
  );
  const run = rows[0];
  if (!run) return null;
  const ids = run.plan.map((_, n) => stepMessageId(leadId, n));
  const { rows: made } = await db.query<Made & { message_id: string }>(
    `SELECT m.message_id, m.status AS text_status, m.error AS text_error, NULL AS task_status,
            NULL AS task_outcome, NULL AS blocked_reason
       FROM sms_messages m WHERE m.agent_id = $1 AND m.message_id = ANY($2::uuid[])
     UNION ALL
     SELECT t.message_id, NULL, NULL, t.status, t.outcome, t.blocked_reason
       FROM dial_tasks t WHERE t.agent_id = $1 AND t.message_id = ANY($2::uuid[])`,
    [agentId, ids],
  );
  const madeBy = new Map(made.map((m) => [m.message_id, m]));
  const planned = planDueTimes(run.plan, {
    delivered_at: new Date(run.started_at),
    zone: run.zone,
    state: run.state,
  });
  const stopped = run.status === 'stopped';
  const steps = run.plan.map((step, n): PlanStep => {
    const done = run.steps[n];
    if (done) {
      const m = madeBy.get(ids[n] ?? '');
      const state =
        done.status === 'done' && m
          ? stepState(step.action, m)
          : { status: done.status, reason: done.reason };
      return { action: step.action, due_at: done.due_at, ...state };
    }
    const due = n === run.next_step ? new Date(run.due_at) : (planned[n] ?? new Date(run.due_at));
    return {
      action: step.action,
      due_at: due.toISOString(),
      status: stopped ? 'canceled' : 'pending',
      reason: stopped ? run.stopped_reason : n === run.next_step ? run.reason : null,
    };
  });
  return {
    cadence_id: run.cadence_id,
    name: run.name,
    status: run.status === 'stepping' ? 'active' : run.status,
    stopped_reason: run.stopped_reason,
    started_at: iso(run.started_at),
    ended_at: run.ended_at === null ? null : iso(run.ended_at),
    steps,
  };
}

/** How many of the agent's plans have their next step due before `until`, overdue ones too. */
export async function countStepsDue(db: Queryable, agentId: string, until: Date): Promise<number> {
  const { rows } = await db.query<{ n: number }>(
    `SELECT count(*)::int AS n FROM cadence_runs
      WHERE agent_id = $1 AND status IN ('active', 'stepping') AND due_at < $2`,
    [agentId, until.toISOString()],
  );
  return rows[0]?.n ?? 0;
}
