import type { Database } from '../db/index.ts';
import type { JsonObject } from '../json.ts';
import { listDestinations } from './destination-repository.ts';
import { leadZone } from './lead-zone.ts';
import { isOptedOut, textsSince } from './sms-repository.ts';
import { planFollowUp } from './speed-to-lead.ts';

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
  const { rows } = await db.query<{ name: string; timezone: string; sms_template: string | null }>(
    'SELECT name, timezone, sms_template FROM agents WHERE agent_id = $1',
    [input.agent_id],
  );
  const agent = rows[0] ?? { name: '', timezone: 'America/New_York', sms_template: null };
  const text = (key: string) => (typeof input.lead[key] === 'string' ? (input.lead[key] as string) : null);
  const phone = text('phone');
  const plan = planFollowUp({
    topic,
    status: String(input.lead.status ?? 'New'),
    phone,
    first_name: text('first_name'),
    state: text('state'),
    zone: leadZone(input.lead, agent.timezone),
    sms_consent: input.lead.sms_consent === true,
    appointment:
      typeof input.lead.scheduled_at === 'string' ? { scheduled_at: input.lead.scheduled_at } : null,
    opted_out: phone ? await isOptedOut(db, input.agent_id, phone) : false,
    texts_last_24h: phone
      ? await textsSince(db, input.agent_id, phone, new Date(input.now.getTime() - 86_400_000))
      : 0,
    agent_name: agent.name,
    template: agent.sms_template,
    now: input.now,
  });
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
