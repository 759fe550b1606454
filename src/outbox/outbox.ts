import { randomUUID } from 'node:crypto';
import type { Queryable } from '../db/index.ts';

/**
 * Side effects of a delivery (SMS/call automations, partner sync, analytics) are enqueued here in
 * the delivery's own transaction: a rolled-back delivery sends nothing, a committed one is sent
 * at least once by the dispatcher. Listen mode never enqueues.
 */
export type OutboxTopic = 'lead.created' | 'lead.updated' | 'appointment.booked';

export async function enqueue(
  tx: Queryable,
  agentId: string,
  topic: OutboxTopic,
  payload: object,
): Promise<void> {
  await tx.query(`INSERT INTO outbox (agent_id, message_id, topic, payload) VALUES ($1, $2, $3, $4)`, [
    agentId,
    randomUUID(),
    topic,
    JSON.stringify(payload),
  ]);
}
