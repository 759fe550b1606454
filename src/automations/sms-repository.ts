import { randomUUID } from 'node:crypto';
import type { Database, Queryable } from '../db/index.ts';

export interface NewText {
  agent_id: string;
  lead_id: string;
  message_id: string;
  to_phone: string;
  body: string;
  send_at: Date;
}

export async function scheduleText(tx: Queryable, t: NewText): Promise<void> {
  await tx.query(
    `INSERT INTO sms_messages (agent_id, sms_id, lead_id, message_id, to_phone, body, send_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7) ON CONFLICT (agent_id, message_id) DO NOTHING`,
    [t.agent_id, randomUUID(), t.lead_id, t.message_id, t.to_phone, t.body, t.send_at.toISOString()],
  );
}

/** Texts to this number from this agent (scheduled, being sent or sent) since `since`. */
export async function textsSince(
  tx: Queryable,
  agentId: string,
  phone: string,
  since: Date,
): Promise<number> {
  const { rows } = await tx.query<{ n: number }>(
    `SELECT count(*)::int AS n FROM sms_messages
      WHERE agent_id = $1 AND to_phone = $2 AND created_at >= $3 AND status IN ('scheduled', 'sending', 'sent')`,
    [agentId, phone, since.toISOString()],
  );
  return rows[0]?.n ?? 0;
}

export async function isOptedOut(tx: Queryable, agentId: string, phone: string): Promise<boolean> {
  const { rowCount } = await tx.query('SELECT 1 FROM sms_opt_outs WHERE agent_id = $1 AND phone = $2', [
    agentId,
    phone,
  ]);
  return rowCount > 0;
}

/**
 * Records an opt-out for every agent that has texted this number (they share the sending number),
 * and suppresses the texts still scheduled to it. Returns the agents and leads it applies to.
 */
export async function optOut(
  db: Database,
  phone: string,
  keyword: string,
): Promise<Array<{ agent_id: string; lead_id: string }>> {
  return db.withTransaction(async (tx) => {
    const { rows } = await tx.query<{ agent_id: string; lead_id: string }>(
      `SELECT DISTINCT ON (agent_id) agent_id, lead_id FROM sms_messages WHERE to_phone = $1
        ORDER BY agent_id, created_at DESC`,
      [phone],
    );
    for (const { agent_id } of rows) {
      await tx.query(
        `INSERT INTO sms_opt_outs (agent_id, phone, keyword) VALUES ($1, $2, $3) ON CONFLICT (agent_id, phone) DO NOTHING`,
        [agent_id, phone, keyword],
      );
      await tx.query(
        `UPDATE sms_messages SET status = 'suppressed', error = 'opted out', lease_until = NULL
          WHERE agent_id = $1 AND to_phone = $2 AND status = 'scheduled'`,
        [agent_id, phone],
      );
    }
    return rows;
  });
}

export interface ClaimedText {
  agent_id: string;
  sms_id: string;
  lead_id: string;
  to_phone: string;
  body: string;
  /** Attempts so far, the one this claim is for included. */
  attempts: number;
  /** The agent's zone: the prospect's calling hours fall back to it. */
  agent_timezone: string;
}

/** Takes due texts for this worker; the lease keeps another worker off them, as for webhooks. */
export async function claimDueTexts(
  db: Queryable,
  limit: number,
  leaseMs: number,
  now: Date,
): Promise<ClaimedText[]> {
  // One statement: lock the due rows nobody else holds, lease them, and return them with the
  // attempts made so far, this one included.
  const { rows } = await db.query<ClaimedText>(
    `WITH due AS (
       SELECT agent_id, sms_id FROM sms_messages
        WHERE (status = 'scheduled' OR (status = 'sending' AND lease_until < $2)) AND send_at <= $2
        ORDER BY send_at LIMIT $1 FOR UPDATE SKIP LOCKED)
     UPDATE sms_messages m SET status = 'sending', attempts = m.attempts + 1,
            lease_until = $2::timestamptz + make_interval(secs => $3)
       FROM due, agents a
      WHERE m.agent_id = due.agent_id AND m.sms_id = due.sms_id AND a.agent_id = m.agent_id
     RETURNING m.agent_id, m.sms_id, m.lead_id, m.to_phone, m.body, m.attempts,
               a.timezone AS agent_timezone`,
    [limit, now.toISOString(), leaseMs / 1000],
  );
  return rows;
}

export async function finishText(
  db: Queryable,
  t: ClaimedText,
  outcome:
    | { status: 'sent'; provider: string; provider_id: string | null }
    | { status: 'suppressed' | 'failed'; error: string }
    | { status: 'scheduled'; error: string; send_at: Date },
): Promise<void> {
  await db.query(
    `UPDATE sms_messages SET status = $3, lease_until = NULL, provider = $4, provider_id = $5, error = $6,
            sent_at = CASE WHEN $3 = 'sent' THEN now() ELSE sent_at END, send_at = COALESCE($7, send_at)
      WHERE agent_id = $1 AND sms_id = $2`,
    [
      t.agent_id,
      t.sms_id,
      outcome.status,
      outcome.status === 'sent' ? outcome.provider : null,
      outcome.status === 'sent' ? outcome.provider_id : null,
      outcome.status === 'sent' ? null : outcome.error.slice(0, 500),
      outcome.status === 'scheduled' ? outcome.send_at.toISOString() : null,
    ],
  );
}
