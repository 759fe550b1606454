import { randomUUID } from 'node:crypto';
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

// UPDATE_LEAD's thirteen parameters first ($1 the agent, $2 the lead), then these.
const FROM_LEAD = '$14::uuid';
const HISTORY = '$15::json';
const MESSAGES = '$16::jsonb';
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
), history AS (
  INSERT INTO lead_history (${columnList(HISTORY_ROW)})
  SELECT ${valueExpressions(HISTORY_ROW, 1, recordField('h')).join(', ')}
    FROM json_to_recordset(${HISTORY}) AS h (${recordColumns(HISTORY_ROW.columns.length)})
   ORDER BY h.n
), messages AS (
  INSERT INTO outbox (agent_id, message_id, topic, lead_id, payload)
  SELECT $1::uuid, (m.message ->> 'message_id')::uuid, m.message ->> 'topic', (m.message ->> 'lead_id')::uuid,
         m.message -> 'payload'
    FROM jsonb_array_elements(${MESSAGES}) WITH ORDINALITY AS m (message, i)
   ORDER BY m.i
), answered AS (
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
  const messages = plan.messages.map((m) => ({
    message_id: randomUUID(),
    topic: m.topic,
    lead_id: m.payload.lead_id,
    payload: m.payload,
  }));
  await tx.query(MERGE_SQL, [
    ...updateLeadParams(agentId, plan.leadId, plan.lead.row),
    claimedFor,
    recordsJson(plan.history.map(historyRow)),
    JSON.stringify(messages),
    JSON.stringify(successAnswer(plan.result)),
    scope?.source_id ?? null,
    scope?.key ?? null,
  ]);
}
