import { LIMITS } from '../limits.ts';
import type { Queryable } from '../db/index.ts';
import { columnList, rowValues, run, sql, type RowShape } from '../db/statement.ts';
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
 * A key's row: who claimed it (a fingerprint of the contact), until when (`hours` from now), and,
 * once the delivery is written, the lead and the answer to replay. Every INSERT of a key is made of
 * it and ends with TAKE_OVER_EXPIRED_KEY.
 */
export const KEY_ROW: RowShape = {
  table: 'idempotency_keys',
  columns: [
    { name: 'agent_id', type: 'uuid' },
    { name: 'source_id', type: 'uuid' },
    { name: 'key', type: 'text' },
    { name: 'contact', type: 'jsonb' },
    { name: 'expires_at', type: 'integer', value: 'now() + make_interval(hours => $)' },
    { name: 'lead_id', type: 'uuid' },
    { name: 'response', type: 'jsonb' },
    { name: 'body_digest', type: 'text' },
  ],
};

/** A key's values as KEY_ROW has them; `lead_id` and `response` are null until the lead is written. */
export function keyRow(
  scope: KeyScope,
  contact: ContactFingerprint,
  answered: { lead_id: string; response: object } | null = null,
): Record<string, unknown> {
  return {
    agent_id: scope.agent_id,
    source_id: scope.source_id,
    key: scope.key,
    contact: JSON.stringify(contact),
    expires_at: LIMITS.idempotencyWindowHours,
    lead_id: answered?.lead_id ?? null,
    response: answered ? JSON.stringify(answered.response) : null,
    body_digest: scope.digest,
  };
}

/**
 * The end of an INSERT of KEY_ROW: an expired key is taken over (its answer with it), an unexpired
 * one is left as it is and the insert returns no row for it.
 */
export const TAKE_OVER_EXPIRED_KEY = `ON CONFLICT (agent_id, source_id, key) DO UPDATE
     SET contact = EXCLUDED.contact, expires_at = EXCLUDED.expires_at, created_at = now(),
         lead_id = EXCLUDED.lead_id, response = EXCLUDED.response, body_digest = EXCLUDED.body_digest
   WHERE idempotency_keys.expires_at <= now()`;

const CLAIM_KEY = sql(
  (p) => `INSERT INTO idempotency_keys (${columnList(KEY_ROW)}) VALUES (${rowValues(KEY_ROW, p).join(', ')})
  ${TAKE_OVER_EXPIRED_KEY}
  RETURNING key`,
);

type ScopeParam = 'agent_id' | 'source_id' | 'key' | 'digest';

const USED_KEY = sql<ScopeParam>(
  (p) => `SELECT contact, response, (body_digest = ${p('digest', 'text')}) IS TRUE AS same_body
            FROM idempotency_keys
           WHERE agent_id = ${p('agent_id', 'uuid')} AND source_id = ${p('source_id', 'uuid')} AND key = ${p('key', 'text')}`,
);

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
  const claimed = await run(tx, CLAIM_KEY, keyRow(scope, contact));
  if (claimed.rowCount > 0) return { kind: 'claimed' };
  const { rows } = await run<
    { contact: ContactFingerprint; response: JsonObject | null; same_body: boolean },
    ScopeParam
  >(tx, USED_KEY, scope);
  const row = rows[0];
  if (!row) return claimIdempotencyKey(tx, scope, contact); // purged between the two statements
  return { kind: 'existing', contact: row.contact, response: row.response, sameBody: row.same_body };
}

const COMPLETE_KEY = sql<ScopeParam | 'lead_id' | 'response'>(
  (p) => `UPDATE idempotency_keys SET lead_id = ${p('lead_id', 'uuid')}, response = ${p('response', 'jsonb')}
           WHERE agent_id = ${p('agent_id', 'uuid')} AND source_id = ${p('source_id', 'uuid')} AND key = ${p('key', 'text')}`,
);

/** Stores the success response to replay; same transaction as the lead it answers for. */
export async function completeIdempotencyKey(
  tx: Queryable,
  scope: KeyScope,
  leadId: string,
  response: object,
): Promise<void> {
  await run(tx, COMPLETE_KEY, { ...scope, lead_id: leadId, response: JSON.stringify(response) });
}

/** Forgets keys past their 24 h window. Returns how many were removed. */
export async function purgeExpiredKeys(db: Queryable): Promise<number> {
  const { rowCount } = await db.query('DELETE FROM idempotency_keys WHERE expires_at <= now()');
  return rowCount;
}
