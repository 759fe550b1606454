import { newId } from '../db/ids.ts';
import type { Queryable } from '../db/index.ts';
import { columnList, recordColumns, recordField, recordsJson, valueExpressions } from '../db/row-shape.ts';
import type { KeyScope } from '../idempotency/key-store.ts';
import { HISTORY_ROW, historyRow, UPDATE_LEAD, updateLeadParams } from '../leads/lead-repository.ts';
import type { WritePlan } from './plan-write.ts';
import { successAnswer } from './result.ts';

/** A repeat contact's plan that only merges: no appointment to book or change, no scheduler event. */
export type MergePlan = WritePlan & { lead: { op: 'update' } };

export function isPlainMerge(plan: WritePlan): plan is MergePlan {
  return plan.lead?.op === 'update' && plan.agenda.length === 0 && plan.eventLog === null;
}

/**
 * A merge's history lines and outbox messages, as two sub-statements of a WITH (`history`,
 * `messages`), written in order. `agent` is the agent's SQL; the history lines come as
 * `recordsJson` records in `history`, the messages as a JSON array in `messages`; `from` is what
 * each row is read beside (`w, ` writes them only for the rows of the sub-statement `w`), and
 * `order` what the rows are ordered by first (`w.n, `).
 */
export function mergeRowsSql(p: {
  agent: string;
  history: string;
  messages: string;
  from?: string;
  order?: string;
}): string {
  const { from = '', order = '' } = p;
  return `history AS (
  INSERT INTO lead_history (${columnList(HISTORY_ROW)})
  SELECT ${valueExpressions(HISTORY_ROW, 1, recordField('h')).join(', ')}
    FROM ${from}json_to_recordset(${p.history}) AS h (${recordColumns(HISTORY_ROW.columns.length)})
   ORDER BY ${order}h.n
), messages AS (
  INSERT INTO outbox (agent_id, message_id, topic, lead_id, payload)
  SELECT ${p.agent}, (m.message ->> 'message_id')::uuid, m.message ->> 'topic', (m.message ->> 'lead_id')::uuid,
         m.message -> 'payload'
    FROM ${from}jsonb_array_elements(${p.messages}) WITH ORDINALITY AS m (message, i)
   ORDER BY ${order}m.i
)`;
}

/** A merge plan's history lines and outbox messages, as `mergeRowsSql` reads them. */
export function mergeRowsParams(plan: MergePlan): [string, string] {
  const messages = plan.messages.map((m) => ({
    message_id: newId(),
    topic: m.topic,
    lead_id: m.payload.lead_id,
    payload: m.payload,
  }));
  return [recordsJson(plan.history.map(historyRow)), JSON.stringify(messages)];
}

// UPDATE_LEAD's thirteen parameters first ($1 the agent, $2 the lead), then these.
const FROM_LEAD = '$14::uuid';
const RESPONSE = '$17::jsonb';
const SOURCE_ID = '$18::uuid';
const KEY = '$19::text';

/**
 * The end of a repeat contact's transaction in one round trip instead of five or six: the keys the
 * delivery claimed move to the stored lead, the lead takes the merged values (UPDATE_LEAD, the
 * statement `updateLead` runs), the history lines and outbox messages are written in order, and
 * the idempotency key, if any, remembers the answer. The caller has locked the lead.
 */
const MERGE_SQL = `
WITH moved AS (
  UPDATE lead_contacts SET lead_id = $2::uuid WHERE agent_id = $1::uuid AND lead_id = ${FROM_LEAD}
), lead AS (
  ${UPDATE_LEAD.trim()}
), ${mergeRowsSql({ agent: '$1::uuid', history: '$15::json', messages: '$16::jsonb' })}, answered AS (
  UPDATE idempotency_keys SET lead_id = $2::uuid, response = ${RESPONSE}
   WHERE agent_id = $1::uuid AND source_id = ${SOURCE_ID} AND key = ${KEY}
)
SELECT 1`;

/**
 * Writes a plain merge's plan (`isPlainMerge`) in the caller's transaction, in one statement:
 * what moving the keys claimed for `claimedFor`, `applyWrite` and completing the idempotency key
 * do one by one.
 */
export async function writeMerge(
  tx: Queryable,
  agentId: string,
  plan: MergePlan,
  claimedFor: string,
  scope: KeyScope | null,
): Promise<void> {
  await tx.query(MERGE_SQL, [
    ...updateLeadParams(agentId, plan.leadId, plan.lead.row),
    claimedFor,
    ...mergeRowsParams(plan),
    JSON.stringify(successAnswer(plan.result)),
    scope?.source_id ?? null,
    scope?.key ?? null,
  ]);
}
