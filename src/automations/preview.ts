import type { Database } from '../db/index.ts';
import { sqlForOneOrMany } from '../db/statement.ts';
import { together } from '../db/together.ts';
import type { JsonObject } from '../json.ts';
import { contactOwnerSql, keyValue, type ContactKey } from '../leads/contact-keys.ts';
import { planFollowUps, textableNumber, TEXT_WINDOW_MS, type FollowUpAgent } from './follow-up.ts';
import { agentPhoneKey, optedOutSql, textsCountSql } from './sms-repository.ts';
import { chosenCadenceSql, type ChosenCadence } from './cadence-repository.ts';

export interface PreviewInput {
  agent_id: string;
  source_id: string;
  /** The lead as it would be stored (fields by name). */
  lead: Record<string, unknown>;
  /** The contact's keys (leads/contact-keys.ts): the lead they name now is the one merged into. */
  keys: readonly ContactKey[];
  hasAppointment: boolean;
  now: Date;
}

/** What a live delivery of a sample would trigger (`createPreviews`). */
export type Previews = (input: PreviewInput) => Promise<JsonObject>;

/**
 * What a live delivery of a Listen sample would have triggered, for the agent to see before going
 * live: create or merge (and which lead), the call task and the first text, and the destinations
 * that would get each event. Reads only, in one statement (PREVIEW_READS), which the previews of
 * one moment share (db/together.ts); nothing is written or sent.
 */
export function createPreviews(db: Database): Previews {
  const read = together<Reads, PreviewParam>(db, PREVIEW_READS);
  return async (input) => {
    const number = textableNumber(input.lead);
    const reads = await read({
      params: PREVIEW_READS.one.values({
        agent_id: input.agent_id,
        source_id: input.source_id,
        phone: keyValue(input.keys, 'phone'),
        email: keyValue(input.keys, 'email'),
        text_to: number,
        texts_since: new Date(input.now.getTime() - TEXT_WINDOW_MS).toISOString(),
      }),
      claims: [],
    });
    if (!reads) throw new Error('the preview read no row');
    return preview(input, number, reads);
  };
}

function preview(input: PreviewInput, number: string | null, reads: Reads): JsonObject {
  const existingLeadId = reads.lead_id;
  const topic = existingLeadId ? 'lead.updated' : 'lead.created';
  const topics = input.hasAppointment ? [topic, 'appointment.booked'] : [topic];
  const key = number === null ? '' : agentPhoneKey(input.agent_id, number);
  const [plan] = reads.agent
    ? planFollowUps(
        [
          {
            agent_id: input.agent_id,
            agent: reads.agent,
            topic,
            lead: input.lead,
            scheduled_at: typeof input.lead.scheduled_at === 'string' ? input.lead.scheduled_at : null,
          },
        ],
        {
          stopped: new Set(reads.opted_out ? [key] : []),
          texted: new Map(reads.texts > 0 ? [[key, reads.texts]] : []),
        },
        input.now,
      )
    : [{ callTask: false, text: { skipped: 'no such agent' } }];
  if (!plan) throw new Error('one follow-up asked, none planned');
  // A new lead without an appointment follows its cadence instead of the first text and call task.
  const cadence = !existingLeadId && !input.hasAppointment ? reads.cadence : null;
  const destinations = reads.destinations
    .map((d) => ({
      destination_id: d.destination_id,
      kind: d.kind,
      url: d.url,
      events: topics.filter((t) => d.events === null || d.events.includes(t)),
    }))
    .filter((d) => d.events.length > 0);
  return {
    outcome: existingLeadId ? 'merge' : 'create',
    lead_id: existingLeadId,
    events: topics,
    call_task: cadence ? false : plan.callTask,
    text: cadence
      ? { skipped: `the cadence ${cadence.name} plans the texts` }
      : 'send_at' in plan.text
        ? { send_at: plan.text.send_at.toISOString(), body: plan.text.body }
        : { skipped: plan.text.skipped },
    would_enroll: cadence ? { cadence_id: cadence.cadence_id, name: cadence.name } : null,
    destinations,
  };
}

interface Reads {
  lead_id: string | null;
  agent: FollowUpAgent | null;
  opted_out: boolean;
  texts: number;
  cadence: ChosenCadence | null;
  destinations: Array<{ destination_id: string; kind: string; url: string; events: string[] | null }>;
}

type PreviewParam = 'agent_id' | 'source_id' | 'phone' | 'email' | 'text_to' | 'texts_since';

/**
 * Everything a preview depends on, read at one moment (one round trip rather than one a question):
 * the lead the contact's keys name, the agent's name, zone and text template, whether the number a
 * text would go to (`text_to`, null: none) opted out and how many texts it had since
 * `texts_since` (the dispatcher's own questions), the cadence a new lead would follow, and the source's active destinations in the
 * order they were added.
 */
const PREVIEW_READS = sqlForOneOrMany<PreviewParam>(
  (p, rows) => `
WITH r AS (${rows})
SELECT r.n,
       ${contactOwnerSql(p('agent_id', 'uuid'), p('phone', 'text'), p('email', 'text'))} AS lead_id,
       (SELECT json_build_object('name', a.name, 'timezone', a.timezone, 'sms_template', a.sms_template)
          FROM agents a WHERE a.agent_id = ${p('agent_id', 'uuid')}) AS agent,
       ${optedOutSql(p('agent_id', 'uuid'), p('text_to', 'text'))} AS opted_out,
       ${textsCountSql(p('agent_id', 'uuid'), p('text_to', 'text'), p('texts_since', 'timestamptz'))} AS texts,
       ${chosenCadenceSql(p('agent_id', 'uuid'), p('source_id', 'uuid'))} AS cadence,
       (SELECT COALESCE(json_agg(json_build_object('destination_id', d.destination_id, 'kind', d.kind,
                                                   'url', d.url, 'events', d.events)
                                 ORDER BY d.created_at, d.destination_id), '[]'::json)
          FROM sync_destinations d WHERE d.source_id = ${p('source_id', 'uuid')} AND d.active) AS destinations
  FROM r`,
);
