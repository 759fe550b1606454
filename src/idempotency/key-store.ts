import { LIMITS } from '../config.ts';
import type { Queryable } from '../db/index.ts';
import type { JsonObject } from '../json.ts';
import type { ContactFingerprint } from './fingerprint.ts';

export interface KeyScope {
  agent_id: string;
  source_id: string;
  key: string;
  /** The delivery's body digest (body-digest.ts); null when its key is not the sender's header. */
  digest: string | null;
}

export type Claim =
  | { kind: 'claimed' }
  | { kind: 'existing'; contact: ContactFingerprint; response: JsonObject | null; sameBody: boolean };

/**
 * The end of an INSERT of a key with its answer (`lead_id`, `response`, `body_digest`): an expired
 * key is taken over, an unexpired one is left as it is and the insert returns no row for it.
 */
export const TAKE_OVER_EXPIRED_KEY = `ON CONFLICT (agent_id, source_id, key) DO UPDATE
     SET contact = EXCLUDED.contact, expires_at = EXCLUDED.expires_at, created_at = now(),
         lead_id = EXCLUDED.lead_id, response = EXCLUDED.response, body_digest = EXCLUDED.body_digest
   WHERE idempotency_keys.expires_at <= now()`;

/**
 * Claims the key inside the caller's transaction. The unique primary key makes a simultaneous
 * second claim wait for the first transaction: after its commit the second sees the stored
 * response (replay); after its rollback the second claims the key itself. An expired key is
 * taken over in the same statement.
 */
export async function claimIdempotencyKey(
  tx: Queryable,
  scope: KeyScope,
  contact: ContactFingerprint,
): Promise<Claim> {
  const claimed = await tx.query(
    `INSERT INTO idempotency_keys (agent_id, source_id, key, contact, expires_at, body_digest)
     VALUES ($1, $2, $3, $4, now() + make_interval(hours => $5), $6)
     ON CONFLICT (agent_id, source_id, key) DO UPDATE
        SET contact = EXCLUDED.contact, expires_at = EXCLUDED.expires_at, created_at = now(),
            lead_id = NULL, response = NULL, body_digest = EXCLUDED.body_digest
      WHERE idempotency_keys.expires_at <= now()
     RETURNING key`,
    [
      scope.agent_id,
      scope.source_id,
      scope.key,
      JSON.stringify(contact),
      LIMITS.idempotencyWindowHours,
      scope.digest,
    ],
  );
  if (claimed.rowCount > 0) return { kind: 'claimed' };
  const { rows } = await tx.query<{
    contact: ContactFingerprint;
    response: JsonObject | null;
    same_body: boolean;
  }>(
    `SELECT contact, response, (body_digest = $4) IS TRUE AS same_body FROM idempotency_keys
      WHERE agent_id = $1 AND source_id = $2 AND key = $3`,
    [scope.agent_id, scope.source_id, scope.key, scope.digest],
  );
  const row = rows[0];
  if (!row) return claimIdempotencyKey(tx, scope, contact); // purged between the two statements
  return { kind: 'existing', contact: row.contact, response: row.response, sameBody: row.same_body };
}

/** Stores the success response to replay; same transaction as the lead it answers for. */
export async function completeIdempotencyKey(
  tx: Queryable,
  scope: KeyScope,
  leadId: string,
  response: object,
): Promise<void> {
  await tx.query(
    `UPDATE idempotency_keys SET lead_id = $4, response = $5 WHERE agent_id = $1 AND source_id = $2 AND key = $3`,
    [scope.agent_id, scope.source_id, scope.key, leadId, JSON.stringify(response)],
  );
}

/** Forgets keys past their 24 h window. Returns how many were removed. */
export async function purgeExpiredKeys(db: Queryable): Promise<number> {
  const { rowCount } = await db.query('DELETE FROM idempotency_keys WHERE expires_at <= now()');
  return rowCount;
}
