import type { Queryable } from '../db/index.ts';
import { reassignLead } from '../leads/lead-changes.ts';
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
 * Moves the lead to another producer in the caller's transaction (`reassignLead`): the history says
 * so and `lead.reassigned` goes out. Texts already sent or scheduled stay where they were: they were
 * the other producer's.
 */
export async function moveLead(tx: Queryable, move: Move): Promise<void> {
  const { lead_id, from, to, routing } = move;
  await reassignLead(tx, {
    lead_id,
    from,
    to,
    routing,
    claim_due_at: move.claim_due_at,
    details: { from_agent_id: from, agent_id: to, by: move.by, routing },
    messages: [
      {
        topic: 'lead.reassigned',
        payload: {
          lead_id,
          source_id: move.source_id,
          from_agent_id: from,
          agent_id: to,
          rule: routing.rule,
        },
      },
    ],
  });
}
