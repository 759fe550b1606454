import { newId } from '../db/ids.ts';
import type { Queryable } from '../db/index.ts';
import { columnList } from '../db/statement.ts';
import { jobQueue, type Outcome } from '../jobs/queue.ts';
import type { FollowUpLead } from './follow-up-leads.ts';
import { HISTORY_ROW, historyRow, type NewHistoryEntry } from '../leads/lead-repository.ts';

export interface NewText {
  agent_id: string;
  lead_id: string;
  message_id: string;
  to_phone: string;
  body: string;
  send_at: Date;
  /**
   * Written already claimed by this worker until then (`sending`, its first attempt), for its own
   * sender to take from memory (`HandedText`): a text due at once then skips the claim, a second
   * write of its row and a second read of its lead.
   */
  lease_until?: Date;
}

/**
 * Texts to schedule, in one statement; one already scheduled for its message is kept. Returns the
 * ones it wrote, with their ids.
 */
export async function scheduleTexts(
  tx: Queryable,
  texts: readonly NewText[],
): Promise<Array<NewText & { sms_id: string }>> {
  if (texts.length === 0) return [];
  const written = texts.map((t) => ({ ...t, sms_id: newId() }));
  const { rows } = await tx.query<{ sms_id: string }>(
    `INSERT INTO sms_messages (agent_id, sms_id, lead_id, message_id, to_phone, body, send_at, status, attempts, lease_until)
     SELECT a, s, l, m, p, b, t, CASE WHEN u IS NULL THEN 'scheduled' ELSE 'sending' END,
            CASE WHEN u IS NULL THEN 0 ELSE 1 END, u
       FROM unnest($1::uuid[], $2::uuid[], $3::uuid[], $4::uuid[], $5::text[], $6::text[], $7::timestamptz[], $8::timestamptz[])
            AS x (a, s, l, m, p, b, t, u)
     ON CONFLICT (agent_id, message_id) DO NOTHING
     RETURNING sms_id`,
    [
      written.map((t) => t.agent_id),
      written.map((t) => t.sms_id),
      written.map((t) => t.lead_id),
      written.map((t) => t.message_id),
      written.map((t) => t.to_phone),
      written.map((t) => t.body),
      written.map((t) => t.send_at.toISOString()),
      written.map((t) => t.lease_until?.toISOString() ?? null),
    ],
  );
  const ids = new Set(rows.map((r) => r.sms_id));
  return written.filter((t) => ids.has(t.sms_id));
}

/** An agent's number, as `agentPhoneKey` names it in the sets below. */
export function agentPhoneKey(agentId: string, phone: string): string {
  return `${agentId} ${phone}`;
}

/**
 * The texts the agent sent a number since a moment (scheduled, being sent or sent), as an SQL
 * expression of three others: an index range (agent, number, time) per number.
 */
export const textsCountSql = (agent: string, phone: string, since: string): string =>
  `(SELECT count(*)::int ${textsToNumberSql(agent, phone, since)})`;

/** The texts the agent sent a number since a moment, as the FROM and WHERE of a query (`m`). */
export const textsToNumberSql = (agent: string, phone: string, since: string): string =>
  `FROM sms_messages m
     WHERE m.agent_id = ${agent} AND m.to_phone = ${phone} AND m.created_at >= ${since}
       AND m.status IN ('scheduled', 'sending', 'sent')`;

/**
 * Whether a number opted out of the agent's texts, as an SQL expression of two others: an opt-out
 * whose texts a START resumed no longer stops them (calls it still does: src/screening).
 */
export const optedOutSql = (agent: string, phone: string): string =>
  `EXISTS (SELECT FROM sms_opt_outs o WHERE o.agent_id = ${agent} AND o.phone = ${phone} AND o.texts_resumed_at IS NULL)`;

/**
 * textsSince's statement. Each number is counted through its own index range (agent, number, time):
 * joined to the texts, the planner read every text of the last day whenever its statistics lagged
 * behind the table, a cost that grows with the day.
 */
export const TEXTS_SINCE = `SELECT q.agent_id, q.phone AS to_phone, t.n
   FROM (SELECT DISTINCT * FROM unnest($1::uuid[], $2::text[])) AS q (agent_id, phone)
   CROSS JOIN LATERAL (SELECT ${textsCountSql('q.agent_id', 'q.phone', '$3')} AS n) AS t
  WHERE t.n > 0`;

/**
 * How many texts the agent sent each of these numbers since `since` (scheduled, being sent or
 * sent), in one query, by `agentPhoneKey`; a number not texted is absent.
 */
export async function textsSince(
  tx: Queryable,
  numbers: ReadonlyArray<{ agent_id: string; phone: string }>,
  since: Date,
): Promise<Map<string, number>> {
  if (numbers.length === 0) return new Map();
  const { rows } = await tx.query<{ agent_id: string; to_phone: string; n: number }>(TEXTS_SINCE, [
    numbers.map((n) => n.agent_id),
    numbers.map((n) => n.phone),
    since.toISOString(),
  ]);
  return new Map(rows.map((r) => [agentPhoneKey(r.agent_id, r.to_phone), r.n]));
}

/** Of these numbers (per agent), the ones that opted out, in one query. */
export async function optedOut(
  tx: Queryable,
  numbers: ReadonlyArray<{ agent_id: string; phone: string }>,
): Promise<Set<string>> {
  if (numbers.length === 0) return new Set();
  const { rows } = await tx.query<{ agent_id: string; phone: string }>(
    `SELECT n.agent_id, n.phone FROM (SELECT DISTINCT * FROM unnest($1::uuid[], $2::text[])) AS n (agent_id, phone)
      WHERE ${optedOutSql('n.agent_id', 'n.phone')}`,
    [numbers.map((n) => n.agent_id), numbers.map((n) => n.phone)],
  );
  return new Set(rows.map((r) => agentPhoneKey(r.agent_id, r.phone)));
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
  /**
   * `opt_out_confirmation`: the one reply to an opt-out, sent whatever the opt-out and the hours
   * say; `agent`: the agent's own answer, whose hours were decided when it was written.
   */
  kind?: 'lead' | 'opt_out_confirmation' | 'agent';
  /** The number the agent texts from (`agents.sms_from`); null: the provider's own. */
  sms_from?: string | null;
}

/** The error a held automatic text carries while it waits for the agent to read a reply about when to contact. */
export const HELD_FOR_AGENT = 'held: the prospect asked about when to contact';

/**
 * Of these numbers (per agent), the ones whose prospect asked about when to contact in a reply the
 * agent has not read: automatic texts to them wait (docs/conversations.md). By `agentPhoneKey`.
 */
export async function heldForAgent(
  tx: Queryable,
  numbers: ReadonlyArray<{ agent_id: string; phone: string }>,
): Promise<Set<string>> {
  if (numbers.length === 0) return new Set();
  const { rows } = await tx.query<{ agent_id: string; phone: string }>(
    `SELECT DISTINCT r.agent_id, r.phone FROM unnest($1::uuid[], $2::text[]) AS n (agent_id, phone)
       JOIN sms_replies r ON r.agent_id = n.agent_id AND r.read_at IS NULL AND r.phone = n.phone
      WHERE r.intent = 'contact_limits'`,
    [numbers.map((n) => n.agent_id), numbers.map((n) => n.phone)],
  );
  return new Set(rows.map((r) => agentPhoneKey(r.agent_id, r.phone)));
}

/**
 * A text the fan-out wrote already claimed by this worker (`NewText.lease_until`), with the lead
 * it read, handed to the same worker's sender in memory. Should the worker stop before sending it,
 * another claims it once the lease runs out, as after a worker that died holding a claim.
 */
export interface HandedText extends ClaimedText {
  lease_until: Date;
  lead: FollowUpLead;
}

/**
 * The texts' queue (src/jobs): a text is due at its `send_at`; a claim returns the agent's zone
 * and number with it. Texts handed to a worker from the fan-out are written already claimed, and
 * go back to the queue (`release`) should it stop before sending them.
 */
export const textJobs = jobQueue<ClaimedText>({
  table: 'sms_messages',
  key: [
    ['agent_id', 'uuid'],
    ['sms_id', 'uuid'],
  ],
  waiting: 'scheduled',
  running: 'sending',
  dueAt: 'send_at',
  error: 'error',
  claimWith: { from: 'agents a', on: 'a.agent_id = j.agent_id' },
  returning: `j.agent_id, j.sms_id, j.lead_id, j.to_phone, j.body, j.attempts, j.kind,
              a.timezone AS agent_timezone, a.sms_from`,
});

/** What came of a text: sent (by whom), suppressed, failed for good, or due again at `due`. */
type TextOutcome = Outcome<ClaimedText> & { provider?: string | null; provider_id?: string | null };

const TEXT_COLUMNS = {
  also: { provider: 'text', provider_id: 'text' },
  set: () => `sent_at = CASE WHEN x.status = 'sent' THEN now() ELSE j.sent_at END`,
} as const;

/** Outcomes of texts, over their claims. */
const finishTexts = textJobs.settler<{ provider?: string | null; provider_id?: string | null }>(TEXT_COLUMNS);

export async function finishText(db: Queryable, outcome: TextOutcome): Promise<void> {
  await finishTexts(db, [outcome]);
}

// Texts the provider took: each text's row and its lead's history line, all in one statement (a
// text's two rows both or neither). Each history parameter is an array, an element per text.
export const SENT_TEXTS = textJobs.settler<{ provider: string; provider_id: string | null }>({
  ...TEXT_COLUMNS,
  then: (p) => `INSERT INTO ${HISTORY_ROW.table} (${columnList(HISTORY_ROW)})
SELECT ${HISTORY_ROW.columns.map((c) => `h.${c.name}`).join(', ')}
  FROM unnest(${HISTORY_ROW.columns.map((c) => p(`history.${c.name}`, `${c.type}[]`)).join(', ')}) WITH ORDINALITY
       AS h (${columnList(HISTORY_ROW)}, n)
  JOIN settled s ON s.n = h.n
 ORDER BY h.n`,
});

export interface SentText {
  t: ClaimedText;
  sent: { provider: string; provider_id: string | null };
  history: NewHistoryEntry;
}

/** Texts the provider took: recorded `sent`, each written to its lead's history, in one statement. */
export async function recordSentTexts(db: Queryable, texts: readonly SentText[]): Promise<void> {
  if (texts.length === 0) return;
  const history = texts.map((x) => historyRow(x.history));
  const columns = Object.fromEntries(
    HISTORY_ROW.columns.map((c) => [`history.${c.name}`, history.map((row) => row[c.name])]),
  );
  await SENT_TEXTS(
    db,
    texts.map((x) => ({ job: x.t, status: 'sent', error: null, ...x.sent })),
    columns,
  );
}

/**
 * A failed text (its tries used up, never sent) goes back to the queue now, with fresh tries. The
 * sender asks again about opt-outs and calling hours before sending it. False when the agent has
 * no such failed text.
 */
export async function retryText(db: Queryable, agentId: string, smsId: string): Promise<boolean> {
  const { rowCount } = await db.query(
    `UPDATE sms_messages SET status = 'scheduled', attempts = 0, send_at = now(), lease_until = NULL
      WHERE agent_id = $1 AND sms_id = $2 AND status = 'failed'`,
    [agentId, smsId],
  );
  return rowCount > 0;
}
