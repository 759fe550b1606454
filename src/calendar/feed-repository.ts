import { createHash, randomBytes } from 'node:crypto';
import { iso, type Queryable } from '../db/index.ts';

/** The hash a feed secret is kept and looked up as: the secret itself is never stored. */
export function secretHash(secret: string): string {
  return createHash('sha256').update(secret).digest('hex');
}

/** Makes the agent's feed secret, retiring the one before it in the same statement. */
export async function replaceFeedSecret(db: Queryable, agentId: string): Promise<string> {
  const secret = randomBytes(32).toString('base64url');
  await db.query(
    `INSERT INTO calendar_feeds (agent_id, secret_hash) VALUES ($1, $2)
     ON CONFLICT (agent_id) DO UPDATE SET secret_hash = EXCLUDED.secret_hash, created_at = now()`,
    [agentId, secretHash(secret)],
  );
  return secret;
}

/** Retires the agent's feed URL without a new one; whether there was one. */
export async function removeFeedSecret(db: Queryable, agentId: string): Promise<boolean> {
  const { rowCount } = await db.query(`DELETE FROM calendar_feeds WHERE agent_id = $1`, [agentId]);
  return (rowCount ?? 0) > 0;
}

/** When the agent's current feed URL was made, or null when it has none. */
export async function feedMadeAt(db: Queryable, agentId: string): Promise<string | null> {
  const { rows } = await db.query<{ created_at: Date | string }>(
    `SELECT created_at FROM calendar_feeds WHERE agent_id = $1`,
    [agentId],
  );
  return rows[0] ? iso(rows[0].created_at) : null;
}

export interface FeedOwner {
  agent_id: string;
  name: string;
  appointment_minutes: number;
}

/**
 * The agent a feed secret belongs to, or null. Whatever was asked is hashed and the hash looked up
 * whole, so a made-up or malformed secret costs what a real one does and no prefix is compared.
 */
export async function feedOwner(db: Queryable, secret: string): Promise<FeedOwner | null> {
  const { rows } = await db.query<FeedOwner>(
    `SELECT a.agent_id, a.name, a.appointment_minutes
       FROM calendar_feeds f JOIN agents a ON a.agent_id = f.agent_id
      WHERE f.secret_hash = $1`,
    [secretHash(secret)],
  );
  return rows[0] ?? null;
}

/** An appointment as the feed shows it: the latest of its reschedules, with whom it is. Times in epoch ms. */
export interface FeedAppointment {
  uid: string;
  lead_id: string;
  start: number;
  end: number | null;
  schedule_type: string;
  status: string;
  sequence: number;
  join_url: string | null;
  /** When the appointment or its lead last changed. */
  modified: number;
  name: string;
  phone: string | null;
  notes: string | null;
}

const epochMs = (column: string) => `(extract(epoch FROM ${column}) * 1000)::float8`;

/**
 * The agent's appointments from `since` on, one per calendar event (a reschedule's latest
 * appointment); a canceled or moved one only while it changed after `closedSince`. As one JSON
 * text: the embedded database hands 5,000 rows over far slower than one value.
 */
export async function feedAppointments(
  db: Queryable,
  agentId: string,
  window: { since: Date; closedSince: Date },
): Promise<FeedAppointment[]> {
  const { rows } = await db.query<{ events: string | null }>(
    `SELECT json_agg(e ORDER BY e.start, e.uid)::text AS events FROM (
       SELECT s.uid, s.lead_id, ${epochMs('s.scheduled_at')} AS start, ${epochMs('s.ends_at')} AS "end",
              s.schedule_type, s.status, s.sequence, s.join_url,
              ${epochMs('greatest(s.updated_at, l.updated_at)')} AS modified,
              l.name, l.phone, l.fields->>'notes' AS notes
         FROM (SELECT DISTINCT ON (coalesce(a.series_id, a.appointment_id))
                      coalesce(a.series_id, a.appointment_id) AS uid, a.lead_id, a.scheduled_at, a.ends_at,
                      a.schedule_type, a.status, a.sequence, a.join_url, a.updated_at
                 FROM appointments a
                WHERE a.agent_id = $1 AND a.scheduled_at >= $2::timestamptz
                ORDER BY coalesce(a.series_id, a.appointment_id), a.sequence DESC, a.created_at DESC) s
         JOIN leads l ON l.agent_id = $1 AND l.lead_id = s.lead_id
        WHERE s.status IN ('booked', 'no_show') OR s.updated_at >= $3::timestamptz) e`,
    [agentId, window.since.toISOString(), window.closedSince.toISOString()],
  );
  const events = rows[0]?.events;
  return events ? (JSON.parse(events) as FeedAppointment[]) : [];
}
