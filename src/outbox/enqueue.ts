import { newId } from '../db/ids.ts';
import type { Queryable } from '../db/index.ts';
import { run, sql } from '../db/statement.ts';
import type { OutboxMessage } from './topics.ts';

/**
 * The one INSERT of outbox messages: `messages` is the SQL of a JSON array of `messagesJson`'s
 * items, written in its order for the agent `agent`. `from` is what each array is read beside
 * (`w, `: one array per row of `w`) and `order` what the rows are ordered by first (`w.n, `).
 */
export function insertMessagesSql(p: {
  agent: string;
  messages: string;
  from?: string;
  order?: string;
}): string {
  const { from = '', order = '' } = p;
  return `INSERT INTO outbox (agent_id, message_id, topic, lead_id, payload)
  SELECT ${p.agent}, (m.message ->> 'message_id')::uuid, m.message ->> 'topic', (m.message ->> 'lead_id')::uuid,
         m.message -> 'payload'
    FROM ${from}jsonb_array_elements(${p.messages}) WITH ORDINALITY AS m (message, i)
   ORDER BY ${order}m.i`;
}

/** A delivery's messages as the JSON array `insertMessagesSql` reads, each with a new id. */
export function messagesJson(messages: readonly OutboxMessage[]): string {
  return JSON.stringify(
    messages.map((m) => ({
      message_id: newId(),
      topic: m.topic,
      lead_id: m.payload.lead_id,
      payload: m.payload,
    })),
  );
}

const ENQUEUE = sql<'agent_id' | 'messages'>((p) =>
  insertMessagesSql({ agent: p('agent_id', 'uuid'), messages: p('messages', 'jsonb') }),
);

/**
 * Writes a delivery's messages in the delivery's own transaction: a rolled-back delivery sends
 * nothing, a committed one is sent at least once by the dispatcher. One statement for all of them.
 */
export async function enqueue(
  tx: Queryable,
  agentId: string,
  messages: readonly OutboxMessage[],
): Promise<void> {
  if (messages.length === 0) return;
  await run(tx, ENQUEUE, { agent_id: agentId, messages: messagesJson(messages) });
}
