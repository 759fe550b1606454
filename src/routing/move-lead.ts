import type { Queryable } from '../db/index.ts';
import { insertHistory } from '../leads/lead-repository.ts';
import { enqueue } from '../outbox/enqueue.ts';
import type { Routing } from './route.ts';

/** A lead of an agency given to another producer: by the claim timer, or by hand from the fallback queue. */
export interface Move {
  lead_id: string;
  source_id: string;
  from: string;
  to: string;
  routing: Routing;
  /** When the claim timer looks at the lead again; null: never. */
  claim_due_at: Date | null;
  /** Who moved it: the claim timer, the operator, or the agent who did. */
  by: 'claim_timer' | 'operator' | { agent_id: string };
}

/**
 * Moves the lead to another producer in the caller's transaction: the lead's key changes and its
 * appointments, history and contact keys follow it (ON UPDATE CASCADE); its call task not done moves
 * to the new producer's queue (a blocked one too: it stays blocked); the history says so and `lead.reassigned` goes out. Texts already
 * sent or scheduled stay where they were: they were the other producer's.
 */
export async function moveLead(tx: Queryable, move: Move): Promise<void> {
  const { lead_id, from, to, routing } = move;
  await tx.query(
    `UPDATE leads SET agent_id = $3, routing = $4::jsonb, claim_due_at = $5, updated_at = now()
      WHERE agent_id = $1 AND lead_id = $2`,
    [from, lead_id, to, JSON.stringify(routing), move.claim_due_at],
  );
  await tx.query(
    `UPDATE dial_tasks SET agent_id = $3 WHERE agent_id = $1 AND lead_id = $2 AND status <> 'done'`,
    [from, lead_id, to],
  );
  await insertHistory(tx, {
    agent_id: to,
    lead_id,
    source_id: null,
    event: 'reassigned',
    details: { from_agent_id: from, agent_id: to, by: move.by, routing },
  });
  await enqueue(tx, to, [
    {
      topic: 'lead.reassigned',
      payload: { lead_id, source_id: move.source_id, from_agent_id: from, agent_id: to, rule: routing.rule },
    },
  ]);
}
