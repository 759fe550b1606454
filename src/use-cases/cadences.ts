import { readLeadCadence, type LeadCadence } from '../automations/cadence-view.ts';
import type { Database } from '../db/index.ts';
import { stopCadences } from '../leads/cadence-stop.ts';
import { lockLeadFor, tellLead } from '../leads/lead-changes.ts';

/**
 * The agent stops a lead's cadence by hand: its steps still to do canceled and a line in the
 * lead's history, under the lead's lock. A plan already ended is answered as it is.
 */
export async function stopLeadCadence(
  db: Database,
  leadId: string,
  owner: string | null,
  now: Date,
): Promise<LeadCadence | 'no lead' | 'no cadence'> {
  return db.withTransaction(async (tx) => {
    const lead = await lockLeadFor(tx, { lead_id: leadId, owner });
    if (!lead) return 'no lead';
    const stopped = await stopCadences(tx, [lead], 'agent', now);
    if (stopped.length > 0)
      await tellLead(tx, lead, { event: 'cadence_stopped', details: { reason: 'agent' } });
    return (await readLeadCadence(tx, lead.agent_id, lead.lead_id)) ?? 'no cadence';
  });
}
