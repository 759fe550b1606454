import type { Queryable } from '../db/index.ts';
import { stopCadencesOfNumber } from '../leads/cadence-stop.ts';

/**
 * The opt-out an agent records for a number ("do not contact"), beside the prospect's own STOP
 * words in `sms_opt_outs`: both stop texts and calls (the dial queue leaves the number out, and
 * its open call tasks are blocked). Why it is kept by number, not by lead: docs/decisions/0063-the-agents-day.md.
 */
export const DO_NOT_CONTACT = 'DO NOT CONTACT';

/**
 * Marks the agent's number "do not contact", in the caller's transaction: the opt-out (a STOP
 * before it becomes this, so calls stop too), the texts still scheduled to it suppressed, and the
 * open call tasks of the agent's leads with it closed, their cadences stopped. Returns how many of each it stopped.
 */
export async function markDoNotContact(
  tx: Queryable,
  agentId: string,
  phone: string,
  now: Date,
): Promise<{ texts_suppressed: number; calls_closed: number }> {
  await tx.query(
    `INSERT INTO sms_opt_outs (agent_id, phone, keyword, opted_out_at) VALUES ($1, $2, $3, $4)
     ON CONFLICT (agent_id, phone) DO UPDATE SET keyword = EXCLUDED.keyword`,
    [agentId, phone, DO_NOT_CONTACT, now.toISOString()],
  );
  const texts = await tx.query(
    `UPDATE sms_messages SET status = 'suppressed', error = 'do not contact', lease_until = NULL
      WHERE agent_id = $1 AND to_phone = $2 AND status = 'scheduled'`,
    [agentId, phone],
  );
  const calls = await tx.query(
    `UPDATE dial_tasks t SET status = 'blocked', blocked_reason = 'do_not_contact', done_at = $3
       FROM leads l
      WHERE t.agent_id = $1 AND t.status = 'open' AND l.agent_id = t.agent_id AND l.lead_id = t.lead_id
        AND l.phone = $2`,
    [agentId, phone, now.toISOString()],
  );
  await stopCadencesOfNumber(tx, [agentId], phone, 'do_not_contact', now);
  return { texts_suppressed: texts.rowCount, calls_closed: calls.rowCount };
}
