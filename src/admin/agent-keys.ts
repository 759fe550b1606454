import { createHash, randomBytes } from 'node:crypto';
import { newId } from '../db/ids.ts';
import { iso, type Queryable } from '../db/index.ts';

export interface AgentKeyView {
  key_id: string;
  created_at: string;
  revoked_at: string | null;
}

/** A new agent API key: `lgk_` + 43 base64url characters (32 random bytes), shown once. */
export async function createAgentKey(
  db: Queryable,
  agentId: string,
): Promise<{ key_id: string; key: string; created_at: string }> {
  const key = `lgk_${randomBytes(32).toString('base64url')}`;
  const { rows } = await db.query<{ key_id: string; created_at: Date | string }>(
    `INSERT INTO agent_keys (agent_id, key_id, key_hash) VALUES ($1, $2, $3) RETURNING key_id, created_at`,
    [agentId, newId(), keyDigest(key).toString('hex')],
  );
  const row = rows[0];
  if (!row) throw new Error('expected an agent key row');
  return { key_id: row.key_id, key, created_at: iso(row.created_at) };
}

export async function listAgentKeys(db: Queryable, agentId: string): Promise<AgentKeyView[]> {
  const { rows } = await db.query<{
    key_id: string;
    created_at: Date | string;
    revoked_at: Date | string | null;
  }>(
    `SELECT key_id, created_at, revoked_at FROM agent_keys WHERE agent_id = $1 ORDER BY created_at, key_id`,
    [agentId],
  );
  return rows.map((r) => ({
    key_id: r.key_id,
    created_at: iso(r.created_at),
    revoked_at: r.revoked_at === null ? null : iso(r.revoked_at),
  }));
}

/** Revokes a key of this agent at once; false when the agent has no such key. */
export async function revokeAgentKey(db: Queryable, agentId: string, keyId: string): Promise<boolean> {
  const { rowCount } = await db.query(
    `UPDATE agent_keys SET revoked_at = COALESCE(revoked_at, now()) WHERE agent_id = $1 AND key_id = $2`,
    [agentId, keyId],
  );
  return rowCount > 0;
}

/** The agent a key (given by its SHA-256, hex) belongs to, while it is not revoked. */
export async function findAgentByKey(db: Queryable, keyHash: string): Promise<string | null> {
  const { rows } = await db.query<{ agent_id: string }>(
    `SELECT agent_id FROM agent_keys WHERE key_hash = $1 AND revoked_at IS NULL`,
    [keyHash],
  );
  return rows[0]?.agent_id ?? null;
}

/** SHA-256 of a key as presented: what is stored and compared, never the key itself. */
export function keyDigest(value: string): Buffer {
  return createHash('sha256').update(value, 'utf8').digest();
}
