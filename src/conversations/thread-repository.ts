import { HELD_FOR_AGENT } from '../automations/sms-repository.ts';
import { iso, type Queryable } from '../db/index.ts';

/** One message of a lead's thread, either way. */
export interface ThreadMessage {
  message_id: string;
  direction: 'inbound' | 'outbound';
  body: string;
  at: string;
  /**
   * Inbound: `received`. Outbound: the text's own (`scheduled`, `sending`, `sent`, `failed`,
   * `suppressed`), or the provider's later word on a sent one (`delivered`, `undelivered`, `failed`).
   */
  status: string;
  by: 'prospect' | 'automation' | 'agent';
  /** Inbound: `reply`, `contact_limits` or `opt_out`; outbound: null. */
  intent: string | null;
  /** Inbound: whether the agent has read it; outbound: null. */
  read: boolean | null;
  /** Outbound: why it was not sent, or the provider's error code. */
  error: string | null;
}

type Row = Omit<ThreadMessage, 'at'> & { at: Date | string };

/**
 * A lead's messages, oldest first: the texts it was sent (the first text, the opt-out's
 * confirmation, the agent's answers) and the prospect's replies. Each side read through its own
 * (agent, lead) index.
 */
export async function readThread(db: Queryable, agentId: string, leadId: string): Promise<ThreadMessage[]> {
  const { rows } = await db.query<Row>(
    `SELECT sms_id AS message_id, 'outbound' AS direction, body, COALESCE(sent_at, created_at) AS at,
            CASE WHEN status = 'sent' THEN COALESCE(provider_status, status) ELSE status END AS status,
            CASE WHEN kind = 'agent' THEN 'agent' ELSE 'automation' END AS by, NULL AS intent, NULL::boolean AS read,
            COALESCE(provider_error, error) AS error
       FROM sms_messages WHERE agent_id = $1 AND lead_id = $2
     UNION ALL
     SELECT reply_id, 'inbound', body, received_at, 'received', 'prospect', intent, read_at IS NOT NULL, NULL
       FROM sms_replies WHERE agent_id = $1 AND lead_id = $2
     ORDER BY at, message_id`,
    [agentId, leadId],
  );
  return rows.map((r) => ({ ...r, at: iso(r.at) }));
}

/**
 * Marks the lead's replies read, and lets the automatic texts a reply about when to contact held
 * go again (they wait for the agent's reading: automations/send-texts.ts). Returns how many it marked.
 */
export async function markThreadRead(
  db: Queryable,
  agentId: string,
  leadId: string,
  now: Date,
): Promise<number> {
  const { rows } = await db.query<{ phone: string }>(
    `UPDATE sms_replies SET read_at = $3
      WHERE agent_id = $1 AND lead_id = $2 AND read_at IS NULL RETURNING phone`,
    [agentId, leadId, now.toISOString()],
  );
  const phones = [...new Set(rows.map((r) => r.phone))];
  if (phones.length > 0)
    await db.query(
      `UPDATE sms_messages SET send_at = $3 WHERE agent_id = $1 AND to_phone = ANY($2::text[])
          AND status = 'scheduled' AND error = $4`,
      [agentId, phones, now.toISOString(), HELD_FOR_AGENT],
    );
  return rows.length;
}

/** One thread of the agent's inbox. */
export interface Conversation {
  lead_id: string;
  name: string;
  phone: string | null;
  unread: number;
  last_message: { body: string; at: string; direction: 'inbound' | 'outbound' };
}

/**
 * The agent's conversations: every lead the prospect wrote to, unread first, then the one whose
 * prospect wrote last; with its last message either way. The page is chosen from the replies
 * alone (one pass of the agent's replies), and only its threads' last messages are read.
 */
export async function listConversations(
  db: Queryable,
  agentId: string,
  limit: number,
): Promise<Conversation[]> {
  const { rows } = await db.query<ConversationRow>(
    `SELECT l.lead_id, l.name, l.phone, r.unread, m.body, m.at, m.direction
       FROM (SELECT lead_id, count(*) FILTER (WHERE read_at IS NULL)::int AS unread, max(received_at) AS wrote
               FROM sms_replies WHERE agent_id = $1 GROUP BY lead_id
              ORDER BY count(*) FILTER (WHERE read_at IS NULL) > 0 DESC, max(received_at) DESC, lead_id
              LIMIT $2) r
       JOIN leads l ON l.agent_id = $1 AND l.lead_id = r.lead_id
       CROSS JOIN LATERAL (${LAST_MESSAGE}) m
      ORDER BY r.unread > 0 DESC, r.wrote DESC, l.lead_id`,
    [agentId, limit],
  );
  return rows.map(toConversation);
}

/**
 * The threads with replies the agent has not read, the latest reply first, each with it: what
 * Today shows, read through the unread replies' own index (a handful, however long the history).
 */
export async function listUnreadConversations(
  db: Queryable,
  agentId: string,
  limit: number,
): Promise<Conversation[]> {
  const { rows } = await db.query<ConversationRow>(
    `SELECT l.lead_id, l.name, l.phone, r.unread, r.body, r.at, 'inbound' AS direction
       FROM (SELECT DISTINCT ON (lead_id) lead_id, body, received_at AS at,
                    count(*) OVER (PARTITION BY lead_id)::int AS unread
               FROM sms_replies WHERE agent_id = $1 AND read_at IS NULL
              ORDER BY lead_id, received_at DESC) r
       JOIN leads l ON l.agent_id = $1 AND l.lead_id = r.lead_id
      ORDER BY r.at DESC, l.lead_id LIMIT $2`,
    [agentId, limit],
  );
  return rows.map(toConversation);
}

/** A thread's last message, either way, for the lead `r.lead_id` of agent $1. */
const LAST_MESSAGE = `(SELECT body, received_at AS at, 'inbound' AS direction FROM sms_replies x
     WHERE x.agent_id = $1 AND x.lead_id = r.lead_id ORDER BY received_at DESC LIMIT 1)
   UNION ALL
   (SELECT body, COALESCE(sent_at, created_at), 'outbound' FROM sms_messages s
     WHERE s.agent_id = $1 AND s.lead_id = r.lead_id ORDER BY COALESCE(sent_at, created_at) DESC LIMIT 1)
   ORDER BY at DESC LIMIT 1`;

type ConversationRow = Omit<Conversation, 'last_message'> & {
  body: string;
  at: Date | string;
  direction: 'inbound' | 'outbound';
};

const toConversation = ({ body, at, direction, ...c }: ConversationRow): Conversation => ({
  ...c,
  last_message: { body, at: iso(at), direction },
});

/** How many replies the agent has not read, and in how many threads. */
export async function unreadCount(
  db: Queryable,
  agentId: string,
): Promise<{ messages: number; threads: number }> {
  const { rows } = await db.query<{ messages: number; threads: number }>(
    `SELECT count(*)::int AS messages, count(DISTINCT lead_id)::int AS threads
       FROM sms_replies WHERE agent_id = $1 AND read_at IS NULL`,
    [agentId],
  );
  return rows[0] ?? { messages: 0, threads: 0 };
}
