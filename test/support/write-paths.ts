import type { Database } from '../../src/db/index.ts';
import { parseIdempotencyKey } from '../../src/idempotency/idempotency-key.ts';
import type { SourceClaim } from '../../src/gateway/source-directory.ts';
import { prepareSourceLead } from '../../src/gateway/source-rules.ts';
import { writeInTransaction, type LiveDelivery } from '../../src/gateway/write-delivery.ts';
import type { JsonObject } from '../../src/json.ts';
import { findSourcesByTokenHash } from '../../src/sources/source-repository.ts';
import { hashToken } from '../../src/sources/tokens.ts';

// The write paths compared: a delivery written by the writer (its one-statement paths where they
// apply) and by the one transaction alone, row by row.

export async function claimOf(db: Database, token: string): Promise<SourceClaim> {
  const tokenHash = hashToken(token);
  const owner = (await findSourcesByTokenHash(db, [tokenHash])).get(tokenHash);
  if (!owner?.active) throw new Error('no source');
  return { source: owner.source, tokenHash, confirmed: false };
}

/** A delivery written by the one transaction alone, even a new contact. */
export const inTransaction = (db: Database, claim: SourceClaim, d: LiveDelivery) =>
  db.withTransaction((tx) => writeInTransaction(tx, claim, d));

export function liveDelivery(claim: SourceClaim, body: JsonObject, key: string | undefined): LiveDelivery {
  const lead = prepareSourceLead(body, claim.source, Date.now());
  const parsed = parseIdempotencyKey(key, lead.control.idempotency_key);
  const replayKey = parsed.ok ? (parsed.key ?? null) : null;
  return {
    lead,
    replayKey,
    bodyDigest: null,
    leadKey: replayKey,
    externalId: null,
    agenda: lead.appointment ? { kind: 'book' } : null,
    meeting: null,
    scheduler: null,
  };
}

/**
 * Every row an agent has, ids, times and sequence numbers replaced by what they stand for; rows in
 * the order of their lead's name (rows written by one statement share their time), then in order.
 */
export async function rowsOf(db: Database, agentId: string): Promise<unknown> {
  const leadName = (table: string) => `(SELECT l.name FROM leads l WHERE l.lead_id = ${table}.lead_id)`;
  const tables: Array<[string, string]> = [
    ['leads', 'name'],
    ['appointments', `${leadName('appointments')}, scheduled_at`],
    ['lead_history', `${leadName('lead_history')}, seq`],
    ['outbox', `${leadName('outbox')}, seq`],
    ['lead_contacts', 'kind, value'],
    ['idempotency_keys', 'key'],
    ['lead_purchases', leadName('lead_purchases')],
  ];
  const ids = new Map<string, string>();
  const name = (id: string) => {
    if (!ids.has(id)) ids.set(id, `<id ${ids.size}>`);
    return ids.get(id);
  };
  const out: Record<string, unknown> = {};
  for (const [table, order] of tables) {
    const { rows } = await db.query<Record<string, unknown>>(
      `SELECT * FROM ${table} WHERE agent_id = $1 ORDER BY ${order}`,
      [agentId],
    );
    out[table] = JSON.parse(
      JSON.stringify(rows, (key, value: unknown) => {
        if (
          ['created_at', 'updated_at', 'expires_at', 'seq', 'received_at', 'since', 'assigned_at'].includes(
            key,
          )
        )
          return '<time>';
        if (
          typeof value === 'string' &&
          /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/.test(value)
        )
          return name(value);
        return value;
      }),
    );
  }
  return out;
}
