import { randomUUID } from 'node:crypto';
import { DateTime } from 'luxon';
import { iso, type Queryable } from '../db/index.ts';
import { contactRule, nextAllowedInstant } from './contact-window.ts';
import { leadZone } from './lead-zone.ts';
import type { LeadFields } from '../ingest/types.ts';

/** Call tasks, one per lead event, in one statement; one already made for its message is kept. */
export async function addCallTasks(
  tx: Queryable,
  tasks: ReadonlyArray<{ agent_id: string; lead_id: string; message_id: string }>,
): Promise<void> {
  if (tasks.length === 0) return;
  await tx.query(
    `INSERT INTO dial_tasks (agent_id, task_id, lead_id, message_id)
     SELECT * FROM unnest($1::uuid[], $2::uuid[], $3::uuid[], $4::uuid[])
     ON CONFLICT (agent_id, message_id) DO NOTHING`,
    [
      tasks.map((t) => t.agent_id),
      tasks.map(() => randomUUID()),
      tasks.map((t) => t.lead_id),
      tasks.map((t) => t.message_id),
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
}

/** The agent's open call tasks, oldest first, each with the prospect's local time. */
export async function listCallTasks(
  db: Queryable,
  agent: { agent_id: string; timezone: string },
  now: Date,
  limit: number,
): Promise<CallTask[]> {
  const { rows } = await db.query<{
    task_id: string;
    lead_id: string;
    status: string;
    created_at: Date;
    name: string;
    phone: string | null;
    fields: LeadFields;
  }>(
    `SELECT t.task_id, t.lead_id, t.status, t.created_at, l.name, l.phone, l.fields
       FROM dial_tasks t JOIN leads l ON l.agent_id = t.agent_id AND l.lead_id = t.lead_id
      WHERE t.agent_id = $1 AND t.status = 'open'
      ORDER BY t.created_at, t.task_id LIMIT $2`,
    [agent.agent_id, limit],
  );
  return rows.map((r) => {
    const zone = leadZone({ ...r.fields, ...(r.phone ? { phone: r.phone } : {}) }, agent.timezone);
    const state = typeof r.fields.state === 'string' ? r.fields.state : null;
    return {
      task_id: r.task_id,
      lead_id: r.lead_id,
      name: r.name,
      phone: r.phone,
      status: r.status,
      created_at: iso(r.created_at),
      timezone: zone,
      local_time: DateTime.fromJSDate(now, { zone }).toFormat("yyyy-MM-dd'T'HH:mm"),
      calling_hours_open: nextAllowedInstant(now, zone, contactRule(state)).getTime() === now.getTime(),
    };
  });
}
