import { randomUUID } from 'node:crypto';
import { iso, type Queryable } from '../db/index.ts';

export interface AgentRow {
  agent_id: string;
  name: string;
  timezone: string;
  created_at: string;
}

export async function createAgent(
  db: Queryable,
  input: { name: string; timezone?: string },
): Promise<AgentRow> {
  const { rows } = await db.query<AgentRow>(
    `INSERT INTO agents (agent_id, name, timezone) VALUES ($1, $2, COALESCE($3, 'America/New_York'))
     RETURNING agent_id, name, timezone, created_at`,
    [randomUUID(), input.name, input.timezone ?? null],
  );
  return toAgent(rows[0]);
}

export async function getAgent(db: Queryable, agentId: string): Promise<AgentRow | null> {
  const { rows } = await db.query<AgentRow>(
    'SELECT agent_id, name, timezone, created_at FROM agents WHERE agent_id = $1',
    [agentId],
  );
  return rows[0] ? toAgent(rows[0]) : null;
}

function toAgent(row: AgentRow | undefined): AgentRow {
  if (!row) throw new Error('expected an agent row');
  return { ...row, created_at: iso(row.created_at) };
}
