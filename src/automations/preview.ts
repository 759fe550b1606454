import type { Database } from '../db/index.ts';
import type { JsonObject } from '../json.ts';
import { listDestinations } from './destination-repository.ts';
import { followUpsFor, loadFollowUpAgents } from './follow-up.ts';

/**
 * What a live delivery of a Listen sample would have triggered, for the agent to see before going
 * live: create or merge (and which lead), the call task and the first text, and the destinations
 * that would get each event. Reads only; nothing is written or sent.
 */
export async function previewAutomations(
  db: Database,
  input: {
    agent_id: string;
    source_id: string;
    /** The lead as it would be stored (fields by name). */
    lead: Record<string, unknown>;
    existingLeadId: string | null;
    hasAppointment: boolean;
    now: Date;
  },
): Promise<JsonObject> {
  const topic = input.existingLeadId ? 'lead.updated' : 'lead.created';
  const topics = input.hasAppointment ? [topic, 'appointment.booked'] : [topic];
  const agent = (await loadFollowUpAgents(db, [input.agent_id])).get(input.agent_id);
  const [plan] = agent
    ? await followUpsFor(
        db,
        [
          {
            agent_id: input.agent_id,
            agent,
            topic,
            lead: input.lead,
            scheduled_at: typeof input.lead.scheduled_at === 'string' ? input.lead.scheduled_at : null,
          },
        ],
        input.now,
      )
    : [{ callTask: false, text: { skipped: 'no such agent' } }];
  if (!plan) throw new Error('one follow-up asked, none planned');
  const destinations = (await listDestinations(db, input.source_id))
    .filter((d) => d.active)
    .map((d) => ({
      destination_id: d.destination_id,
      kind: d.kind,
      url: d.url,
      events: topics.filter((t) => d.events === null || d.events.includes(t)),
    }))
    .filter((d) => d.events.length > 0);
  return {
    outcome: input.existingLeadId ? 'merge' : 'create',
    lead_id: input.existingLeadId,
    events: topics,
    call_task: plan.callTask,
    text:
      'send_at' in plan.text
        ? { send_at: plan.text.send_at.toISOString(), body: plan.text.body }
        : { skipped: plan.text.skipped },
    destinations,
  };
}
