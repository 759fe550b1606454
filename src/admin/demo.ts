import { randomBytes } from 'node:crypto';
import type { Database } from '../db/index.ts';
import { createSource } from '../sources/source-repository.ts';
import { createAgent, setAgentPassword } from './agent-repository.ts';
import { hashPassword } from './passwords.ts';

/** The demo agent's console login. */
export const DEMO_EMAIL = 'demo@leadgate.local';

export interface DemoSource {
  agent_id: string;
  source_id: string;
  /** Present only when the source was created just now: tokens are shown once. */
  token: string | null;
  /** The demo agent's console login; the password only when it was set just now (shown once). */
  login: { email: string; password: string | null } | null;
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
    if (found) return { ...found, token: null, login: await ensureDemoLogin(tx, found.agent_id) };
    const anyAgent = await tx.query('SELECT 1 FROM agents LIMIT 1');
    if (anyAgent.rowCount > 0) return null;
    const agent = await createAgent(tx, {
      name: 'Demo Agent',
      timezone: 'America/New_York',
      email: DEMO_EMAIL,
    });
    const { source, token } = await createSource(tx, agent.agent_id, 'Demo lead source');
    return {
      agent_id: agent.agent_id,
      source_id: source.source_id,
      token,
      login: await ensureDemoLogin(tx, agent.agent_id),
    };
  });
}

/**
 * The demo agent gets a console login the first time a server with the console starts (a database
 * made before the console has a demo agent without one): a random password, printed once.
 */
async function ensureDemoLogin(
  tx: Parameters<Parameters<Database['withTransaction']>[0]>[0],
  agentId: string,
): Promise<{ email: string; password: string | null } | null> {
  const { rows } = await tx.query<{ email: string | null; password_hash: string | null }>(
    'SELECT email, password_hash FROM agents WHERE agent_id = $1',
    [agentId],
  );
  const row = rows[0];
  if (!row) return null;
  if (row.password_hash) return row.email ? { email: row.email, password: null } : null;
  const email = row.email ?? DEMO_EMAIL;
  if (!row.email) {
    const taken = await tx.query('SELECT 1 FROM agents WHERE lower(email) = lower($1)', [email]);
    if (taken.rowCount > 0) return null;
    await tx.query('UPDATE agents SET email = $2 WHERE agent_id = $1', [agentId, email]);
  }
  const password = randomBytes(12).toString('base64url');
  await setAgentPassword(tx, agentId, await hashPassword(password));
  return { email, password };
}
