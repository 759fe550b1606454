import { createHash } from 'node:crypto';
import { newId } from '../db/ids.ts';
import type { Queryable } from '../db/index.ts';
import { stopCadencesOfNumber } from '../leads/cadence-stop.ts';
import { insertHistory } from '../leads/lead-repository.ts';
import { enqueue } from '../outbox/enqueue.ts';
import type { Revocation } from './revocation.ts';
import { OPT_OUT_KEYWORDS } from './tables/revocation-phrases.ts';
import { confirmationText } from './sms-template.ts';

/** What an opt-out reached: the agents it was recorded for, their leads of the number, and whether a confirmation was written. */
export interface OptOutRecorded {
  agents: number;
  leads: number;
  confirmation: boolean;
}

/**
 * The agents an opt-out of `$1` covers: every agent with a lead of the number or a text to it, and
 * every producer of an agency one of them is a producer of, its members and its fallback producer
 * alike (an agency's texts and calls are one voice to the prospect). Asked agent by agent through
 * the (agent, phone) indexes, which leads and texts already have: an index by phone alone would
 * cost every delivery a write for a rare reply.
 */
const AGENTS_OF_NUMBER = `WITH direct AS (
  SELECT a.agent_id FROM agents a
   WHERE EXISTS (SELECT FROM leads l WHERE l.agent_id = a.agent_id AND l.phone = $1)
      OR EXISTS (SELECT FROM sms_messages m WHERE m.agent_id = a.agent_id AND m.to_phone = $1)),
their_agencies AS (
  SELECT agency_id FROM agency_members WHERE agent_id IN (SELECT agent_id FROM direct)
  UNION
  SELECT agency_id FROM agencies WHERE fallback_agent_id IN (SELECT agent_id FROM direct))
SELECT agent_id FROM direct
UNION
SELECT agent_id FROM agency_members WHERE agency_id IN (SELECT agency_id FROM their_agencies)
UNION
SELECT fallback_agent_id FROM agencies WHERE agency_id IN (SELECT agency_id FROM their_agencies)`;

/**
 * Records a prospect's opt-out of texts and calls, in the caller's transaction: an opt-out for
 * every agent the number is covered by (AGENTS_OF_NUMBER), keeping the prospect's own `words`,
 * their texts still scheduled to it suppressed, their open call tasks of it blocked and their cadences stopped, an
 * `sms_opt_out` line in the history of every lead of the number and a `lead.opted_out` event for
 * each (partner destinations hear of it), and the one confirmation text unless the provider sent
 * its own (`confirmation: 'provider'`, which the history says). A number whose texts a START had
 * resumed is opted out again. Why so wide: docs/decisions/0067-consent-verified-and-revocation-in-words.md.
 */
export async function recordOptOut(
  tx: Queryable,
  phone: string,
  how: Revocation,
  now: Date,
  opts: { words: string | null; confirmation: 'ours' | 'provider' },
): Promise<OptOutRecorded> {
  const words = how.by === 'keyword' ? how.keyword : how.phrase;
  const agents = (await tx.query<{ agent_id: string }>(AGENTS_OF_NUMBER, [phone])).rows.map(
    (r) => r.agent_id,
  );
  if (agents.length === 0) return { agents: 0, leads: 0, confirmation: false };
  const at = now.toISOString();
  await tx.query(
    `INSERT INTO sms_opt_outs (agent_id, phone, keyword, opted_out_at, words)
     SELECT a, $2, $3, $4, $5 FROM unnest($1::uuid[]) AS a
     ON CONFLICT (agent_id, phone) DO UPDATE
        SET keyword = EXCLUDED.keyword, opted_out_at = EXCLUDED.opted_out_at, words = EXCLUDED.words,
            texts_resumed_at = NULL, resumed_words = NULL
      WHERE sms_opt_outs.texts_resumed_at IS NOT NULL`,
    [agents, phone, words.toUpperCase(), at, opts.words],
  );
  await tx.query(
    `UPDATE sms_messages SET status = 'suppressed', error = 'opted out', lease_until = NULL
      WHERE agent_id = ANY($1::uuid[]) AND to_phone = $2 AND status = 'scheduled' AND kind <> 'opt_out_confirmation'`,
    [agents, phone],
  );
  await tx.query(
    `UPDATE dial_tasks t SET status = 'blocked', blocked_reason = 'opted_out'
       FROM leads l
      WHERE t.agent_id = ANY($1::uuid[]) AND t.status = 'open' AND l.agent_id = t.agent_id
        AND l.lead_id = t.lead_id AND l.phone = $2`,
    [agents, phone],
  );
  await stopCadencesOfNumber(tx, agents, phone, 'opted_out', now);
  const { rows: leads } = await tx.query<{ agent_id: string; lead_id: string; source_id: string }>(
    `SELECT agent_id, lead_id, source_id FROM leads
      WHERE agent_id = ANY($1::uuid[]) AND phone = $2 ORDER BY created_at, lead_id`,
    [agents, phone],
  );
  const said =
    how.by === 'keyword'
      ? { phone, keyword: how.keyword }
      : { phone, words: how.phrase, language: how.language };
  const details = { ...said, confirmed_by: opts.confirmation === 'provider' ? 'provider' : 'us' };
  for (const lead of leads) {
    await insertHistory(tx, {
      agent_id: lead.agent_id,
      lead_id: lead.lead_id,
      source_id: null,
      event: 'sms_opt_out',
      details,
    });
    await enqueue(tx, lead.agent_id, [
      {
        topic: 'lead.opted_out',
        payload: {
          lead_id: lead.lead_id,
          source_id: lead.source_id,
          phone,
          by: how.by,
          words,
          opted_out_at: at,
        },
      },
    ]);
  }
  return {
    agents: agents.length,
    leads: leads.length,
    confirmation: opts.confirmation === 'ours' ? await confirm(tx, agents, phone, how) : false,
  };
}

/**
 * Writes the opt-out's confirmation text, due now, from the agent that texted the number last (the
 * one the prospect answered), else the agent of its latest lead. Its message id is made from the
 * agent and the number, so however many opt-outs arrive, the (agent, message) key of sms_messages
 * lets one be written: true when this call wrote it.
 */
async function confirm(
  tx: Queryable,
  agents: readonly string[],
  phone: string,
  how: Revocation,
): Promise<boolean> {
  const { rows } = await tx.query<{ agent_id: string; lead_id: string; name: string }>(
    `SELECT x.agent_id, x.lead_id, a.name FROM (
       (SELECT agent_id, lead_id, created_at, 0 AS rank FROM sms_messages
         WHERE agent_id = ANY($1::uuid[]) AND to_phone = $2 AND kind = 'lead' AND status = 'sent'
         ORDER BY created_at DESC LIMIT 1)
       UNION ALL
       (SELECT agent_id, lead_id, created_at, 1 AS rank FROM leads
         WHERE agent_id = ANY($1::uuid[]) AND phone = $2 ORDER BY created_at DESC LIMIT 1)) x
     JOIN agents a ON a.agent_id = x.agent_id
     ORDER BY x.rank, x.created_at DESC LIMIT 1`,
    [agents, phone],
  );
  const from = rows[0];
  if (!from) return false;
  const written = await tx.query(
    `INSERT INTO sms_messages (agent_id, sms_id, lead_id, message_id, to_phone, body, send_at, kind)
     VALUES ($1, $2, $3, $4, $5, $6, now(), 'opt_out_confirmation')
     ON CONFLICT (agent_id, message_id) DO NOTHING`,
    [
      from.agent_id,
      newId(),
      from.lead_id,
      confirmationId(from.agent_id, phone),
      phone,
      confirmationText(from.name, how.language),
    ],
  );
  return written.rowCount > 0;
}

/** The message id of an agent's confirmation to a number: a UUID made from the two, the same every time. */
export function confirmationId(agentId: string, phone: string): string {
  const hex = createHash('sha256').update(`opt-out-confirmation ${agentId} ${phone}`).digest('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-8${hex.slice(13, 16)}-8${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

/** The opt-outs a prospect's keyword made, as stored: the ones an opt-in keyword resumes. */
const RESUMABLE = OPT_OUT_KEYWORDS.map((k) => k.keyword.toUpperCase());

/** What a START reached: the agents whose opt-out of the number it resumed texts for, and their leads. */
export interface TextsResumed {
  agents: number;
  leads: number;
}

/**
 * A prospect's opt-in keyword (START, UNSTOP, YES) after an opt-out by keyword, in the caller's
 * transaction: texts from every agent whose opt-out of the number came by a prospect's keyword
 * resume, with the words kept and an `sms_opt_in` line in the history of each of their leads of the
 * number. Calls stay stopped; an opt-out in plain words, the agent's "do not contact" and the
 * suppression lists are left as they are. Texts suppressed by the opt-out stay suppressed.
 */
export async function resumeTexts(
  tx: Queryable,
  phone: string,
  opts: { keyword: string; words: string; now: Date },
): Promise<TextsResumed> {
  const { rows: agents } = await tx.query<{ agent_id: string }>(
    `UPDATE sms_opt_outs SET texts_resumed_at = $3, resumed_words = $4
      WHERE phone = $1 AND keyword = ANY($2::text[]) AND texts_resumed_at IS NULL
      RETURNING agent_id`,
    [phone, RESUMABLE, opts.now.toISOString(), opts.words],
  );
  if (agents.length === 0) return { agents: 0, leads: 0 };
  const { rows: leads } = await tx.query<{ agent_id: string; lead_id: string }>(
    `SELECT agent_id, lead_id FROM leads WHERE agent_id = ANY($1::uuid[]) AND phone = $2
      ORDER BY created_at, lead_id`,
    [agents.map((a) => a.agent_id), phone],
  );
  for (const lead of leads)
    await insertHistory(tx, {
      ...lead,
      source_id: null,
      event: 'sms_opt_in',
      details: { phone, keyword: opts.keyword, words: opts.words, resumed: 'texts' },
    });
  return { agents: agents.length, leads: leads.length };
}
