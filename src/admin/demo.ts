import type { Database } from '../db/index.ts';
import { createSource } from '../sources/source-repository.ts';
import { createAgent } from './agent-repository.ts';

export interface DemoSource {
  agent_id: string;
  source_id: string;
  /** Present only when the source was created just now: tokens are shown once. */
  token: string | null;
}

const DEMO_LOCK = 7_420_002;

/** On a database with no agent yet, creates a demo agent with one lead source. */
export async function ensureDemoSource(db: Database): Promise<DemoSource | null> {
  return db.withTransaction(async (tx) => {
    await tx.query('SELECT pg_advisory_xact_lock($1)', [DEMO_LOCK]);
    const existing = await tx.query<{ agent_id: string; source_id: string }>(
      `SELECT s.agent_id, s.source_id FROM sources s JOIN agents a USING (agent_id)
        WHERE a.name = 'Demo Agent' ORDER BY s.created_at LIMIT 1`,
    );
    const found = existing.rows[0];
    if (found) return { ...found, token: null };
    const anyAgent = await tx.query('SELECT 1 FROM agents LIMIT 1');
    if (anyAgent.rowCount > 0) return null;
    const agent = await createAgent(tx, { name: 'Demo Agent', timezone: 'America/New_York' });
    const { source, token } = await createSource(tx, agent.agent_id, 'Demo lead source');
    return { agent_id: agent.agent_id, source_id: source.source_id, token };
  });
}
