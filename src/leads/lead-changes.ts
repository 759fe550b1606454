import type { Queryable } from '../db/index.ts';
import { enqueue } from '../outbox/enqueue.ts';
import type { OutboxMessage } from '../outbox/topics.ts';
import { stopCadences, stopReasonOfStatus } from './cadence-stop.ts';
import { insertHistory } from './lead-repository.ts';
import type { LeadStatus } from './lead-status.ts';

// The one writer of a lead after its delivery: the agent's actions, call outcomes, sales, returns,
// moves between producers and the claim timer change it here, each with its history line, and
// consent checks show their result on it here. Deliveries write through lead-repository.ts.

/** Which lead: by id (limited to `owner` unless null, the operator), or by an open call task of the agent. */
export type LeadTarget = { lead_id: string; owner: string | null } | { task_id: string; agent_id: string };

/** A lead as its changes read it, locked until the transaction ends. */
export interface LockedLead {
  agent_id: string;
  lead_id: string;
  source_id: string;
  status: LeadStatus;
  state: string | null;
  phone: string | null;
  email: string | null;
  age: string | null;
  created_at: Date;
}

const LOCKED_COLUMNS = `l.agent_id, l.lead_id, l.source_id, l.status, l.fields ->> 'state' AS state, l.phone,
  l.email, l.fields ->> 'age' AS age, l.created_at`;

/**
 * Locks the lead (by task: the open task and its lead) until the transaction ends, so changes of
 * one lead queue up; another agent's lead is null, as a missing one.
 */
export async function lockLeadFor(tx: Queryable, target: LeadTarget): Promise<LockedLead | null> {
  const { rows } =
    'task_id' in target
      ? await tx.query<LockedLead>(
          `SELECT ${LOCKED_COLUMNS} FROM dial_tasks t JOIN leads l ON l.agent_id = t.agent_id AND l.lead_id = t.lead_id
            WHERE t.agent_id = $1 AND t.task_id = $2 AND t.status = 'open' FOR UPDATE OF t, l`,
          [target.agent_id, target.task_id],
        )
      : await tx.query<LockedLead>(
          `SELECT ${LOCKED_COLUMNS} FROM leads l WHERE l.lead_id = $1 AND ($2::uuid IS NULL OR l.agent_id = $2::uuid)
            FOR UPDATE`,
          [target.lead_id, target.owner],
        );
  return rows[0] ?? null;
}

/** A change of a locked lead: its new status (none: unchanged), and the history line that tells it. */
export interface LeadChange {
  status?: LeadStatus;
  event: string;
  details?: object;
  /** Messages for the agent's destinations, written in the same transaction. */
  messages?: OutboxMessage[];
}

/**
 * Writes a change of a locked lead with its history line (the status change in it) and its
 * messages; a status that books or closes the lead stops its cadence. Returns the lead's status after it and the fields that changed.
 */
export async function changeLead(
  tx: Queryable,
  lead: Pick<LockedLead, 'agent_id' | 'lead_id' | 'status'>,
  change: LeadChange,
  now: Date,
): Promise<{ status: LeadStatus; changed: string[] }> {
  const to = change.status ?? lead.status;
  const moved = to !== lead.status;
  if (moved) {
    await tx.query(`UPDATE leads SET status = $3, updated_at = $4 WHERE agent_id = $1 AND lead_id = $2`, [
      lead.agent_id,
      lead.lead_id,
      to,
      now.toISOString(),
    ]);
    // A booked or closed lead needs no more following up.
    const stop = stopReasonOfStatus(to);
    if (stop) await stopCadences(tx, [lead], stop, now);
  }
  await tellLead(tx, lead, change, moved ? { status: { from: lead.status, to } } : {});
  return { status: to, changed: moved ? ['status'] : [] };
}

/** What happened to a lead without changing its row: its history line and its messages. */
export async function tellLead(
  tx: Queryable,
  lead: { agent_id: string; lead_id: string },
  told: Omit<LeadChange, 'status'>,
  changes: object = {},
): Promise<void> {
  await insertHistory(tx, {
    agent_id: lead.agent_id,
    lead_id: lead.lead_id,
    source_id: null,
    event: told.event,
    changes,
    details: told.details,
  });
  if (told.messages?.length) await enqueue(tx, lead.agent_id, told.messages);
}

/** A lead given to another producer, as the routing decided it. */
export interface Reassignment {
  lead_id: string;
  from: string;
  to: string;
  routing: object;
  /** When the claim timer looks at the lead again; null: never. */
  claim_due_at: Date | null;
  details: object;
  messages: OutboxMessage[];
}

/**
 * Gives the lead to another producer: the lead's key changes and its appointments, history and
 * contact keys follow it (ON UPDATE CASCADE); its call task not done moves to the new producer's
 * queue (a blocked one too: it stays blocked). The history line and messages are the new producer's.
 */
export async function reassignLead(tx: Queryable, move: Reassignment): Promise<void> {
  const { lead_id, from, to } = move;
  await tx.query(
    `UPDATE leads SET agent_id = $3, routing = $4::jsonb, claim_due_at = $5, updated_at = now()
      WHERE agent_id = $1 AND lead_id = $2`,
    [from, lead_id, to, JSON.stringify(move.routing), move.claim_due_at],
  );
  await tx.query(
    `UPDATE dial_tasks SET agent_id = $3 WHERE agent_id = $1 AND lead_id = $2 AND status <> 'done'`,
    [from, lead_id, to],
  );
  await insertHistory(tx, {
    agent_id: to,
    lead_id,
    source_id: null,
    event: 'reassigned',
    details: move.details,
  });
  await enqueue(tx, to, move.messages);
}

/** When the claim timer looks at the lead again (null: never). */
export async function setClaimDue(
  tx: Queryable,
  lead: { agent_id: string; lead_id: string },
  until: Date | null,
): Promise<void> {
  await tx.query('UPDATE leads SET claim_due_at = $3 WHERE agent_id = $1 AND lead_id = $2', [
    lead.agent_id,
    lead.lead_id,
    until,
  ]);
}

/** A consent check as the lead's view shows it, from a row `c` of consent_checks. */
const CHECK_JSON = `jsonb_build_object('provider', c.provider, 'status', c.status, 'reason', c.reason,
  'checked_at', to_char(c.checked_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
  'expires_at', to_char(c.expires_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'))`;

/**
 * Shows consent checks on their leads, as a statement of a CTE: the checks are the rows of `checks`
 * (consent_checks' columns) that meet `where`, written in the same statement that decides them.
 */
export const showConsentChecksSql = (checks: string, where = 'true'): string =>
  `UPDATE leads l SET consent_check = ${CHECK_JSON}
     FROM ${checks} c WHERE ${where} AND l.agent_id = c.agent_id AND l.lead_id = c.lead_id RETURNING 1`;
