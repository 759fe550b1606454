import { iso, type Queryable } from '../db/index.ts';

/** A lead the agent may still return, and why it looks like one. */
export interface ReturnCandidate {
  lead_id: string;
  name: string;
  phone: string | null;
  /** `bad_number`: its latest call said so; `duplicate`: the contact was delivered before. */
  why: 'bad_number' | 'duplicate';
  price_cents: number;
  /** When the source's return window closes for it. */
  deadline: string;
}

/**
 * The agent's leads whose latest billable purchase is still returnable and not returned, and that
 * look like a return: the latest call a bad number, or an earlier delivery of the same contact.
 * The closest deadline first.
 */
const CANDIDATES_SQL = `
SELECT l.lead_id, l.name, l.phone, p.price_cents,
       p.created_at + make_interval(hours => s.return_window_hours) AS deadline,
       CASE WHEN c.outcome = 'bad_number' THEN 'bad_number' ELSE 'duplicate' END AS why
  FROM lead_purchases p
  JOIN sources s ON s.source_id = p.source_id
  JOIN leads l ON l.agent_id = p.agent_id AND l.lead_id = p.lead_id
  LEFT JOIN LATERAL (
       SELECT h.details ->> 'outcome' AS outcome FROM lead_history h
        WHERE h.agent_id = p.agent_id AND h.lead_id = p.lead_id AND h.event = 'call_outcome'
        ORDER BY h.created_at DESC, h.history_id DESC LIMIT 1) c ON true
 WHERE p.agent_id = $1 AND p.billable AND s.return_window_hours > 0
   AND p.created_at + make_interval(hours => s.return_window_hours) > $2
   AND NOT EXISTS (SELECT FROM lead_purchases later
                    WHERE later.agent_id = p.agent_id AND later.lead_id = p.lead_id AND later.billable
                      AND (later.created_at, later.purchase_id) > (p.created_at, p.purchase_id))
   AND NOT EXISTS (SELECT FROM lead_returns r WHERE r.agent_id = p.agent_id AND r.purchase_id = p.purchase_id)
   AND (c.outcome = 'bad_number'
        OR EXISTS (SELECT FROM lead_purchases e
                    WHERE e.agent_id = p.agent_id AND e.lead_id = p.lead_id AND e.created_at < p.created_at))
 ORDER BY deadline, l.lead_id
 LIMIT $3`;

export async function returnCandidates(
  q: Queryable,
  agentId: string,
  now: Date,
  limit: number,
): Promise<ReturnCandidate[]> {
  const { rows } = await q.query<Omit<ReturnCandidate, 'deadline'> & { deadline: Date }>(CANDIDATES_SQL, [
    agentId,
    now.toISOString(),
    limit,
  ]);
  return rows.map((r) => ({ ...r, deadline: iso(r.deadline) }));
}
