import type { Queryable } from '../../src/db/index.ts';

/** A stored lead as one flat object: columns, `fields` spread, custom_fields, appointments. */
export async function loadLead(db: Queryable, leadId: string) {
  const { rows } = await db.query<Record<string, unknown> & { fields: Record<string, unknown> }>(
    'SELECT * FROM leads WHERE lead_id = $1',
    [leadId],
  );
  const row = rows[0];
  if (!row) return undefined;
  const { fields, ...columns } = row;
  const appointments = await db.query<Record<string, unknown>>(
    'SELECT * FROM appointments WHERE lead_id = $1 ORDER BY scheduled_at',
    [leadId],
  );
  return { ...columns, ...fields, appointments: appointments.rows } as Record<string, unknown> & {
    custom_fields: Record<string, unknown>;
    appointments: Array<Record<string, unknown>>;
  };
}

/**
 * An agent named `name` with one source of that name, straight into the tables, for tests that
 * write leads without the gateway. The source's token hash is made up: no request can present it.
 */
export async function insertAgentSource(db: Queryable, agentId: string, sourceId: string, name: string) {
  await db.query(`INSERT INTO agents (agent_id, name) VALUES ($1, $2)`, [agentId, name]);
  await db.query(`INSERT INTO sources (agent_id, source_id, name, token_hash) VALUES ($1, $2, $3, $4)`, [
    agentId,
    sourceId,
    name,
    `${name.toLowerCase()}-${sourceId}`,
  ]);
}
