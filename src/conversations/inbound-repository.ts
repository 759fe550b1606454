import { newId } from '../db/ids.ts';
import { iso, type Database, type Queryable } from '../db/index.ts';
import { stopCadences } from '../leads/cadence-stop.ts';
import { insertHistory } from '../leads/lead-repository.ts';
import { enqueue } from '../outbox/enqueue.ts';
import {
  recordOptOut,
  resumeTexts,
  type OptOutRecorded,
  type TextsResumed,
} from '../automations/opt-out-repository.ts';
import type { ReplyReading } from '../automations/revocation.ts';

/** An inbound text as the provider sent it, and its numbers as we read them (null: none we read). */
export interface InboundText {
  provider_sid: string | null;
  from_raw: string;
  to_raw: string | null;
  /** The sender's number, 10 digits; null when it is no North American number. */
  phone: string | null;
  /** The number it was sent to, 10 digits, when the provider names one. */
  to_phone: string | null;
  body: string;
  truncated: boolean;
}

export interface StoredInbound {
  inbound_id: string;
  received_at: string;
  /** How many leads it reached; null until that is decided (a first delivery, or one cut short). */
  leads: number | null;
}

type Row = Omit<StoredInbound, 'received_at'> & { received_at: Date | string };

/**
 * Writes the text word for word, before anything is decided about it. The provider's message id
 * keeps one text stored once however often it is delivered: a second delivery gets the first row.
 */
export async function storeInbound(db: Queryable, text: InboundText, now: Date): Promise<StoredInbound> {
  const { rows } = await db.query<Row>(
    `INSERT INTO sms_inbound (inbound_id, provider_sid, from_raw, to_raw, phone, to_phone, body, truncated, received_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)
     ON CONFLICT (provider_sid) WHERE provider_sid IS NOT NULL DO NOTHING
     RETURNING inbound_id, received_at, leads`,
    [
      newId(),
      text.provider_sid,
      text.from_raw,
      text.to_raw,
      text.phone,
      text.to_phone,
      text.body,
      text.truncated,
      now.toISOString(),
    ],
  );
  // Stored already: read in a statement of its own, which sees a first delivery committed meanwhile.
  const row =
    rows[0] ??
    (
      await db.query<Row>('SELECT inbound_id, received_at, leads FROM sms_inbound WHERE provider_sid = $1', [
        text.provider_sid,
      ])
    ).rows[0];
  if (!row) throw new Error('an inbound text neither written nor found');
  return { ...row, received_at: iso(row.received_at) };
}

/** A lead an inbound text goes to. */
export interface ReachedLead {
  agent_id: string;
  lead_id: string;
  source_id: string;
}

/** How the leads were found: the agent's own sending number, a recent text, or the number alone. */
export type MatchedBy = 'to' | 'texted' | 'number';

/** How far back a text from an agent makes a reply its own. */
const TEXTED_DAYS = 30;

/**
 * The leads an inbound text from `phone` goes to (docs/conversations.md): the leads of that number
 * of the agent who sends from the number it was sent to; else of the agents who texted the number
 * in the last 30 days, the most recent first; else every lead of the number. Each agent is asked
 * through its own (agent, phone) index, as an opt-out's reach is: no index by phone alone.
 */
export async function matchLeads(
  q: Queryable,
  phone: string,
  toPhone: string | null,
  now: Date,
): Promise<{ by: MatchedBy | null; leads: ReachedLead[] }> {
  const leadsOf = `JOIN leads l ON l.agent_id = a.agent_id AND l.phone = $1`;
  if (toPhone) {
    const { rows } = await q.query<ReachedLead>(
      `SELECT l.agent_id, l.lead_id, l.source_id FROM agents a ${leadsOf}
        WHERE a.sms_from = '+1' || $2 ORDER BY l.created_at DESC, l.lead_id`,
      [phone, toPhone],
    );
    if (rows.length > 0) return { by: 'to', leads: rows };
  }
  const since = new Date(now.getTime() - TEXTED_DAYS * 86_400_000).toISOString();
  const texted = await q.query<ReachedLead>(
    `SELECT l.agent_id, l.lead_id, l.source_id
       FROM (SELECT a.agent_id,
                    (SELECT max(m.created_at) FROM sms_messages m
                      WHERE m.agent_id = a.agent_id AND m.to_phone = $1 AND m.created_at >= $2
                        AND m.status = 'sent') AS last
               FROM agents a) a ${leadsOf}
      WHERE a.last IS NOT NULL ORDER BY a.last DESC, l.created_at DESC, l.lead_id`,
    [phone, since],
  );
  if (texted.rows.length > 0) return { by: 'texted', leads: texted.rows };
  const any = await q.query<ReachedLead>(
    `SELECT l.agent_id, l.lead_id, l.source_id FROM agents a ${leadsOf} ORDER BY l.created_at DESC, l.lead_id`,
    [phone],
  );
  return any.rows.length > 0 ? { by: 'number', leads: any.rows } : { by: null, leads: [] };
}

/** What an inbound text reached once it was read. */
export interface InboundOutcome {
  leads: ReachedLead[];
  matched_by: MatchedBy | null;
  opt_out: OptOutRecorded | null;
  /** An opt-in keyword after an opt-out by keyword: whose texts it resumed. */
  resumed: TextsResumed | null;
}

/**
 * Puts a stored text into the thread of every lead it reaches, in one transaction: a reply row per
 * lead (unread), its history line, `lead.replied` to the lead's source's destinations, the opt-out
 * when the text revokes consent (`opt_out`) or texts resumed when it opts in again after a keyword
 * (`resumed`), and the text marked with how many leads it reached.
 * A text cut short by a failure is matched again when the provider delivers it again.
 */
export async function deliverInbound(
  db: Database,
  inbound: StoredInbound,
  text: InboundText,
  reading: ReplyReading,
  opts: { now: Date; confirmation: 'ours' | 'provider' },
): Promise<InboundOutcome> {
  return db.withTransaction(async (tx) => {
    const phone = text.phone;
    const matched = phone ? await matchLeads(tx, phone, text.to_phone, opts.now) : { by: null, leads: [] };
    const message = { message_id: inbound.inbound_id, body: text.body, at: inbound.received_at };
    for (const lead of matched.leads) {
      const { rowCount } = await tx.query(
        `INSERT INTO sms_replies (agent_id, reply_id, lead_id, inbound_id, phone, body, intent, received_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8) ON CONFLICT (agent_id, lead_id, inbound_id) DO NOTHING`,
        [
          lead.agent_id,
          newId(),
          lead.lead_id,
          inbound.inbound_id,
          phone,
          text.body,
          reading.intent,
          inbound.received_at,
        ],
      );
      if (rowCount === 0) continue;
      // Any answer but an opt-out (which stops it below, for every lead of the number) ends the plan.
      if (reading.intent !== 'opt_out') await stopCadences(tx, [lead], 'replied', opts.now);
      await insertHistory(tx, {
        agent_id: lead.agent_id,
        lead_id: lead.lead_id,
        source_id: null,
        event: 'sms_reply',
        details: {
          phone,
          body: text.body,
          intent: reading.intent,
          ...(reading.intent === 'contact_limits' ? { limit: reading.limit } : {}),
        },
      });
      await enqueue(tx, lead.agent_id, [
        {
          topic: 'lead.replied',
          payload: { lead_id: lead.lead_id, source_id: lead.source_id, intent: reading.intent, message },
        },
      ]);
    }
    const optOut =
      phone && reading.intent === 'opt_out'
        ? await recordOptOut(tx, phone, reading.revocation, opts.now, {
            words: text.body.slice(0, 500),
            confirmation: opts.confirmation,
          })
        : null;
    const resumed =
      phone && reading.intent === 'reply' && reading.opt_in
        ? await resumeTexts(tx, phone, {
            keyword: reading.opt_in,
            words: text.body.slice(0, 500),
            now: opts.now,
          })
        : null;
    await tx.query('UPDATE sms_inbound SET leads = $2, matched_by = $3 WHERE inbound_id = $1', [
      inbound.inbound_id,
      matched.leads.length,
      matched.by,
    ]);
    return { leads: matched.leads, matched_by: matched.by, opt_out: optOut, resumed };
  });
}

/** An inbound text no lead has the number of, as the operator lists them. */
export interface UnmatchedText {
  inbound_id: string;
  from: string;
  to: string | null;
  body: string;
  truncated: boolean;
  received_at: string;
}

/** The texts that reached no lead, newest first. */
export async function listUnmatched(db: Queryable, limit: number): Promise<UnmatchedText[]> {
  const { rows } = await db.query<Omit<UnmatchedText, 'received_at'> & { received_at: Date | string }>(
    `SELECT inbound_id, from_raw AS "from", to_raw AS "to", body, truncated, received_at FROM sms_inbound
      WHERE leads = 0 OR leads IS NULL ORDER BY received_at DESC, inbound_id DESC LIMIT $1`,
    [limit],
  );
  return rows.map((r) => ({ ...r, received_at: iso(r.received_at) }));
}
