import { DateTime } from 'luxon';
import { LIMITS } from '../limits.ts';
import { newId } from '../db/ids.ts';
import { iso, type Queryable } from '../db/index.ts';
import { stopCadences } from '../leads/cadence-stop.ts';
import { changeLead, type LockedLead } from '../leads/lead-changes.ts';
import { statusAfterCall, type CallOutcome, type LeadStatus } from '../leads/lead-status.ts';
import { contactRule, describeCallingHours, nextAllowedInstant } from './contact-window.ts';
import { leadZone } from './lead-zone.ts';
import { consentHeldSql } from './consent-repository.ts';
import { callBlockOf, callableRows } from './screen-contact.ts';
import { screenedColumns, type ScreenedRow } from '../screening/screening-sql.ts';
import type { LeadFields } from '../ingest/types.ts';

/**
 * A call task to make; with a `blocked_reason` it is made `blocked` (docs/compliance.md): kept in
 * the queue for the agent to see why, never to be called.
 */
export interface NewCallTask {
  agent_id: string;
  lead_id: string;
  message_id: string;
  blocked_reason?: string | null;
}

/** Call tasks, one per lead event, in one statement; one already made for its message is kept. */
export async function addCallTasks(tx: Queryable, tasks: readonly NewCallTask[]): Promise<void> {
  if (tasks.length === 0) return;
  await tx.query(
    `INSERT INTO dial_tasks (agent_id, task_id, lead_id, message_id, status, blocked_reason)
     SELECT a, t, l, m, CASE WHEN r IS NULL THEN 'open' ELSE 'blocked' END, r
       FROM unnest($1::uuid[], $2::uuid[], $3::uuid[], $4::uuid[], $5::text[]) AS u (a, t, l, m, r)
     ON CONFLICT (agent_id, message_id) DO NOTHING`,
    [
      tasks.map((t) => t.agent_id),
      tasks.map(() => newId()),
      tasks.map((t) => t.lead_id),
      tasks.map((t) => t.message_id),
      tasks.map((t) => t.blocked_reason ?? null),
    ],
  );
}

export interface CallTask {
  task_id: string;
  lead_id: string;
  name: string;
  phone: string | null;
  status: string;
  created_at: string;
  /** The prospect's zone and the time there now, so the agent calls at a decent hour. */
  timezone: string;
  local_time: string;
  /** Whether now is inside the calling hours there (the state's rule, else the federal window). */
  calling_hours_open: boolean;
  /** Those hours in words: "Florida: calls 8 a.m.–8 p.m.". */
  calling_hours: string;
}

/** A call task screening blocked: in the queue for the agent to see why, never to be called. */
export interface BlockedCallTask {
  task_id: string;
  lead_id: string;
  name: string;
  phone: string | null;
  blocked_reason: string;
  created_at: string;
}

/** The dial queue: the tasks to call, and those screening blocked (docs/compliance.md). */
export interface DialQueue {
  tasks: Array<CallTask & { due_at: string }>;
  blocked: BlockedCallTask[];
}

type OpenTaskRow = ScreenedRow & {
  task_id: string;
  lead_id: string;
  status: string;
  created_at: Date;
  not_before: Date | null;
  name: string;
  phone: string | null;
  fields: LeadFields;
};

/**
 * The agent's dial queue. `tasks`: the open call tasks, the lead that has waited longest first: by
 * the lead's delivery time, not the task's, since one dispatcher round makes the tasks of many
 * deliveries at one moment. `until` (default `now`) takes in the tasks waiting until then (a
 * no-answer's retry); each task's `due_at` is the first instant it may be called: its retry time,
 * or the next opening of the calling hours there. Each open task is screened again as it is read,
 * on the lists as they are now: one a list blocks since it was made is among `blocked`, with the
 * reason, as one blocked when it was made is (docs/decisions/0068-call-tasks-screened-when-read.md).
 * `blocked`: newest first.
 */
export async function readDialQueue(
  db: Queryable,
  agent: { agent_id: string; timezone: string },
  now: Date,
  limit: number,
  until: Date = now,
): Promise<DialQueue> {
  const [open, stored] = await Promise.all([
    callableRows(
      async (offset, size) =>
        (
          await db.query<OpenTaskRow>(
            `SELECT t.task_id, t.lead_id, t.status, t.created_at, t.not_before, l.name, l.phone, l.fields,
                    ${screenedColumns('t.agent_id', 'l.phone', 'l.email')}
               FROM dial_tasks t JOIN leads l ON l.agent_id = t.agent_id AND l.lead_id = t.lead_id
              WHERE t.agent_id = $1 AND t.status = 'open' AND (t.not_before IS NULL OR t.not_before <= $3)
                AND NOT ${consentHeldSql('t.agent_id', 't.lead_id')}
              ORDER BY l.created_at, l.lead_id, t.task_id LIMIT $2 OFFSET $4`,
            [agent.agent_id, size, until.toISOString(), offset],
          )
        ).rows,
      (r) => callBlockOf(r, r.fields, now),
      limit,
    ),
    listBlockedCallTasks(db, agent.agent_id, limit),
  ]);
  const blocked = [
    ...stored,
    ...open.blocked.map(({ row: r, reason }) => ({
      task_id: r.task_id,
      lead_id: r.lead_id,
      name: r.name,
      phone: r.phone,
      blocked_reason: reason,
      created_at: iso(r.created_at),
    })),
  ].sort((a, b) => (b.created_at + b.task_id).localeCompare(a.created_at + a.task_id));
  return {
    tasks: open.callable.map((r) => callTask(r, agent.timezone, now)),
    blocked: blocked.slice(0, limit),
  };
}

/** An open task as the agent sees it: the prospect's local time and calling hours, when it is due. */
function callTask(r: OpenTaskRow, agentZone: string, now: Date): CallTask & { due_at: string } {
  const zone = leadZone({ ...r.fields, ...(r.phone ? { phone: r.phone } : {}) }, agentZone);
  const state = typeof r.fields.state === 'string' ? r.fields.state : null;
  const rule = contactRule(state);
  const notBefore = r.not_before === null ? null : new Date(r.not_before);
  const ready = notBefore && notBefore > now ? notBefore : now;
  return {
    task_id: r.task_id,
    lead_id: r.lead_id,
    name: r.name,
    phone: r.phone,
    status: r.status,
    created_at: iso(r.created_at),
    timezone: zone,
    local_time: DateTime.fromJSDate(now, { zone }).toFormat("yyyy-MM-dd'T'HH:mm"),
    calling_hours_open: nextAllowedInstant(now, zone, rule).getTime() === now.getTime(),
    calling_hours: describeCallingHours(state),
    due_at: nextAllowedInstant(ready, zone, rule).toISOString(),
  };
}

/** The agent's call tasks stored blocked (when made, by an opt-out, a failed consent check), newest first. */
async function listBlockedCallTasks(
  db: Queryable,
  agentId: string,
  limit: number,
): Promise<BlockedCallTask[]> {
  const { rows } = await db.query<Omit<BlockedCallTask, 'created_at'> & { created_at: Date }>(
    `SELECT t.task_id, t.lead_id, l.name, l.phone, t.blocked_reason, t.created_at
       FROM dial_tasks t JOIN leads l ON l.agent_id = t.agent_id AND l.lead_id = t.lead_id
      WHERE t.agent_id = $1 AND t.status = 'blocked'
      ORDER BY t.created_at DESC, t.task_id DESC LIMIT $2`,
    [agentId, limit],
  );
  return rows.map((r) => ({ ...r, created_at: iso(r.created_at) }));
}

export interface CallResult {
  /** The call task it closed or put back; null when the lead had no open task (a call from elsewhere). */
  task_id: string | null;
  lead_id: string;
  outcome: CallOutcome;
  /** open: "no answer" puts the task back in the queue after LIMITS.noAnswerRetryMs. */
  task_status: 'open' | 'done' | null;
  calls: number;
  lead_status: LeadStatus;
  /** The lead's status before the call. */
  status_from: LeadStatus;
}

/** Which call: a task of the dial queue, or the lead's own (its oldest open task, if it has one). */
export type CallTarget = { task_id: string } | { lead_id: string };

type Found = ScreenedRow & {
  task_id: string | null;
  lead_id: string;
  calls: number;
  fields: LeadFields;
};
const SCREENED = `l.fields, ${screenedColumns('l.agent_id', 'l.phone', 'l.email')}`;

/**
 * The agent's outcome of a call on a lead the caller locked (`lockLeadFor`; by task, its task too),
 * in the caller's transaction: the task is closed (or, on no answer, back in the queue an hour
 * later, closed on the third), the lead's status follows `statusAfterCall`, and the lead's history
 * says what changed. Null when the agent has no such open task, or screening blocks its call now.
 */
export async function recordCallOutcomeIn(
  tx: Queryable,
  lead: Pick<LockedLead, 'agent_id' | 'lead_id' | 'status'>,
  target: CallTarget,
  outcome: CallOutcome,
  now: Date,
): Promise<CallResult | null> {
  const agentId = lead.agent_id;
  const found =
    'task_id' in target
      ? await tx.query<Found>(
          `SELECT t.task_id, t.lead_id, t.calls, ${SCREENED}
             FROM dial_tasks t JOIN leads l ON l.agent_id = t.agent_id AND l.lead_id = t.lead_id
            WHERE t.agent_id = $1 AND t.task_id = $2 AND t.status = 'open'`,
          [agentId, target.task_id],
        )
      : await tx.query<Found>(
          `SELECT t.task_id, l.lead_id, COALESCE(t.calls, 0) AS calls, ${SCREENED}
             FROM leads l LEFT JOIN LATERAL (
                  SELECT task_id, calls FROM dial_tasks
                   WHERE agent_id = l.agent_id AND lead_id = l.lead_id AND status = 'open'
                   ORDER BY created_at LIMIT 1) t ON true
            WHERE l.agent_id = $1 AND l.lead_id = $2`,
          [agentId, target.lead_id],
        );
  const row = found.rows[0];
  if (!row) return null;
  // A task a list blocks since it was made is not open to an outcome, as one blocked when made is
  // not; by lead, the call is the lead's own, as when it has no open task.
  const blocked = row.task_id !== null && callBlockOf(row, row.fields, now) !== null;
  if (blocked && 'task_id' in target) return null;
  const task = blocked ? { ...row, task_id: null, calls: 0 } : row;
  const calls = task.calls + 1;
  const again = task.task_id !== null && outcome === 'no_answer' && calls < LIMITS.noAnswerCallsMax;
  if (task.task_id !== null) {
    await tx.query(
      `UPDATE dial_tasks SET status = $3, outcome = $4, calls = $5, not_before = $6, done_at = $7
        WHERE agent_id = $1 AND task_id = $2`,
      [
        agentId,
        task.task_id,
        again ? 'open' : 'done',
        outcome,
        calls,
        again ? new Date(now.getTime() + LIMITS.noAnswerRetryMs).toISOString() : null,
        again ? null : now.toISOString(),
      ],
    );
  }
  // The prospect was reached: the conversation, not the plan, decides what comes next.
  if (outcome === 'reached') await stopCadences(tx, [lead], 'reached', now);
  const { status } = await changeLead(
    tx,
    lead,
    {
      status: statusAfterCall(lead.status, outcome),
      event: 'call_outcome',
      details: { outcome, calls, task_id: task.task_id },
    },
    now,
  );
  return {
    task_id: task.task_id,
    lead_id: task.lead_id,
    outcome,
    task_status: task.task_id === null ? null : again ? 'open' : 'done',
    calls,
    lead_status: status,
    status_from: lead.status,
  };
}
