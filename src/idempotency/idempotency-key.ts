import type { Queryable } from '../db/index.ts';
import type { JsonValue } from '../ingest/types.ts';

export const IDEMPOTENCY_WINDOW_HOURS = 24;

export type KeyParse = { ok: true; key: string | undefined } | { ok: false; details: string };

/**
 * The delivery's idempotency key: the `Idempotency-Key` header wins over the body field.
 * 1–255 printable characters; a quoted structured-field string (`"abc"`) equals the bare `abc`.
 * A number in the body is taken as its decimal text (forgiving: some form tools send numbers).
 */
export function parseIdempotencyKey(
  header: string | string[] | undefined,
  body: JsonValue | undefined,
): KeyParse {
  const headerValue = Array.isArray(header) ? header.join(',') : header;
  let raw: string | undefined;
  if (headerValue !== undefined) raw = headerValue;
  else if (typeof body === 'string') raw = body;
  else if (typeof body === 'number' && Number.isFinite(body)) raw = String(body);
  else if (body !== undefined && body !== null) {
    return { ok: false, details: 'idempotency_key must be a string' };
  }
  if (raw === undefined) return { ok: true, key: undefined };
  let key = raw.trim();
  const quoted = /^"((?:[^"\\]|\\.)*)"$/.exec(key);
  if (quoted?.[1] !== undefined) key = quoted[1].replace(/\\(.)/g, '$1');
  if (key.length === 0 || key.length > 255) {
    return { ok: false, details: 'The idempotency key must be 1 to 255 characters' };
  }
  if (/\p{Cc}/u.test(key)) return { ok: false, details: 'The idempotency key must be printable characters' };
  return { ok: true, key };
}

/** Who a delivery is about, normalized: a reused key for another person is refused (422). */
export interface ContactIdentity {
  name: string | null;
  phone: string | null;
  email: string | null;
}

export function contactIdentity(lead: { name?: unknown; phone?: unknown; email?: unknown }): ContactIdentity {
  const norm = (v: unknown) =>
    typeof v === 'string' && v.trim() !== '' ? v.trim().replace(/\s+/g, ' ').toLowerCase() : null;
  return { name: norm(lead.name), phone: norm(lead.phone), email: norm(lead.email) };
}

/** Same contact unless name, phone and email all differ (an absent value never matches). */
export function isSameContact(a: ContactIdentity, b: ContactIdentity): boolean {
  return (
    (a.name !== null && a.name === b.name) ||
    (a.phone !== null && a.phone === b.phone) ||
    (a.email !== null && a.email === b.email)
  );
}

export interface KeyScope {
  agent_id: string;
  source_id: string;
  key: string;
}

export type Claim =
  | { kind: 'claimed' }
  | { kind: 'existing'; contact: ContactIdentity; response: Record<string, unknown> | null };

/**
 * Claims the key inside the caller's transaction. The unique primary key makes a simultaneous
 * second claim wait for the first transaction: after its commit the second sees the stored
 * response (replay); after its rollback the second claims the key itself. An expired key is
 * taken over in the same statement.
 */
export async function claimIdempotencyKey(
  tx: Queryable,
  scope: KeyScope,
  contact: ContactIdentity,
): Promise<Claim> {
  const claimed = await tx.query(
    `INSERT INTO idempotency_keys (agent_id, source_id, key, contact, expires_at)
     VALUES ($1, $2, $3, $4, now() + make_interval(hours => $5))
     ON CONFLICT (agent_id, source_id, key) DO UPDATE
        SET contact = EXCLUDED.contact, expires_at = EXCLUDED.expires_at, created_at = now(),
            lead_id = NULL, response = NULL
      WHERE idempotency_keys.expires_at <= now()
     RETURNING key`,
    [scope.agent_id, scope.source_id, scope.key, JSON.stringify(contact), IDEMPOTENCY_WINDOW_HOURS],
  );
  if (claimed.rowCount > 0) return { kind: 'claimed' };
  const { rows } = await tx.query<{ contact: ContactIdentity; response: Record<string, unknown> | null }>(
    `SELECT contact, response FROM idempotency_keys WHERE agent_id = $1 AND source_id = $2 AND key = $3`,
    [scope.agent_id, scope.source_id, scope.key],
  );
  const row = rows[0];
  if (!row) return claimIdempotencyKey(tx, scope, contact); // purged between the two statements
  return { kind: 'existing', contact: row.contact, response: row.response };
}

/** Stores the success response to replay; same transaction as the lead it answers for. */
export async function completeIdempotencyKey(
  tx: Queryable,
  scope: KeyScope,
  leadId: string,
  response: Record<string, unknown>,
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
