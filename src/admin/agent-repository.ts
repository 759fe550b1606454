import { randomUUID } from 'node:crypto';
import { iso, type Queryable } from '../db/index.ts';

export interface AgentRow {
  agent_id: string;
  name: string;
  timezone: string;
  /** The first text to new leads; null: the default (docs/outbox.md, "Texts and calls"). */
  sms_template: string | null;
  created_at: string;
}

const COLUMNS = 'agent_id, name, timezone, sms_template, created_at';

export async function createAgent(
  db: Queryable,
  input: { name: string; timezone?: string },
): Promise<AgentRow> {
  const { rows } = await db.query<AgentRow>(
    `INSERT INTO agents (agent_id, name, timezone) VALUES ($1, $2, COALESCE($3, 'America/New_York'))
     RETURNING ${COLUMNS}`,
    [randomUUID(), input.name, input.timezone ?? null],
  );
  return toAgent(rows[0]);
}

export async function getAgent(db: Queryable, agentId: string): Promise<AgentRow | null> {
  const { rows } = await db.query<AgentRow>(`SELECT ${COLUMNS} FROM agents WHERE agent_id = $1`, [agentId]);
  return rows[0] ? toAgent(rows[0]) : null;
}

/** Changes what is given; `sms_template: null` returns to the default text. */
export async function updateAgent(
  db: Queryable,
  agentId: string,
  patch: { name?: string; timezone?: string; sms_template?: string | null },
): Promise<AgentRow | null> {
  const { rows } = await db.query<AgentRow>(
    `UPDATE agents SET name = COALESCE($2, name), timezone = COALESCE($3, timezone),
            sms_template = CASE WHEN $4::boolean THEN $5 ELSE sms_template END
      WHERE agent_id = $1 RETURNING ${COLUMNS}`,
    [
      agentId,
      patch.name ?? null,
      patch.timezone ?? null,
      patch.sms_template !== undefined,
      patch.sms_template ?? null,
    ],
  );
  return rows[0] ? toAgent(rows[0]) : null;
}

function toAgent(row: AgentRow | undefined): AgentRow {
  if (!row) throw new Error('expected an agent row');
  return { ...row, created_at: iso(row.created_at) };
}
