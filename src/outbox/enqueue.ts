import { newId } from '../db/ids.ts';
import type { Queryable } from '../db/index.ts';
import type { OutboxMessage } from './topics.ts';

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
  const params: unknown[] = [];
  const rows = messages.map((m) => {
    const at = params.push(agentId, newId(), m.topic, m.payload.lead_id, JSON.stringify(m.payload));
    return `($${at - 4}, $${at - 3}, $${at - 2}, $${at - 1}, $${at})`;
  });
  await tx.query(
    `INSERT INTO outbox (agent_id, message_id, topic, lead_id, payload) VALUES ${rows.join(', ')}`,
    params,
  );
}
