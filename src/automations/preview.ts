import type { Database } from '../db/index.ts';
import { placeholder, recordColumns, recordField, type ParamRef } from '../db/row-shape.ts';
import { together } from '../db/together.ts';
import type { JsonObject } from '../json.ts';
import { contactOwnerSql, keyValue, type ContactKey } from '../leads/contact-keys.ts';
import { planFollowUps, textableNumber, TEXT_WINDOW_MS, type FollowUpAgent } from './follow-up.ts';
import { agentPhoneKey, optedOutSql, textsCountSql } from './sms-repository.ts';

/**
 * What a live delivery of a Listen sample would have triggered, for the agent to see before going
 * live: create or merge (and which lead), the call task and the first text, and the destinations
 * that would get each event. Reads only, in one statement (PREVIEW_READS), which the previews of
 * one moment share (db/together.ts); nothing is written or sent.
 */
export async function previewAutomations(
  db: Database,
  input: {
    agent_id: string;
    source_id: string;
    /** The lead as it would be stored (fields by name). */
    lead: Record<string, unknown>;
    /** The contact's keys (leads/contact-keys.ts): the lead they name now is the one merged into. */
    keys: readonly ContactKey[];
    hasAppointment: boolean;
    now: Date;
  },
): Promise<JsonObject> {
  const number = textableNumber(input.lead);
  const reads = await readPreview(db, {
    params: [
      input.agent_id,
      input.source_id,
      keyValue(input.keys, 'phone'),
      keyValue(input.keys, 'email'),
      number,
      new Date(input.now.getTime() - TEXT_WINDOW_MS).toISOString(),
    ],
    claims: [],
  });
  if (!reads) throw new Error('the preview read no row');
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
    call_task: plan.callTask,
    text:
      'send_at' in plan.text
        ? { send_at: plan.text.send_at.toISOString(), body: plan.text.body }
        : { skipped: plan.text.skipped },
    destinations,
  };
}

interface Reads {
  lead_id: string | null;
  agent: FollowUpAgent | null;
  opted_out: boolean;
  texts: number;
  destinations: Array<{ destination_id: string; kind: string; url: string; events: string[] | null }>;
}

/**
 * Everything a preview depends on, read at one moment (a Listen delivery made seven round trips one
 * after another, and was the slowest part of the gateway's mix): the lead the contact's keys name,
 * the agent's name, zone and text template, whether the number a text would go to opted out and how
 * many texts it had in the last day (the dispatcher's own questions), and the source's active
 * destinations in the order they were added. Parameters: agent, source, phone key, email key, the
 * number a text could go to (null: none), the start of the texts' window; `ref` writes them.
 */
const previewReads = (ref: ParamRef) => `
       ${contactOwnerSql(ref(1, 'uuid'), ref(3, 'text'), ref(4, 'text'))} AS lead_id,
       (SELECT json_build_object('name', a.name, 'timezone', a.timezone, 'sms_template', a.sms_template)
          FROM agents a WHERE a.agent_id = ${ref(1, 'uuid')}) AS agent,
       ${optedOutSql(ref(1, 'uuid'), ref(5, 'text'))} AS opted_out,
       ${textsCountSql(ref(1, 'uuid'), ref(5, 'text'), ref(6, 'timestamptz'))} AS texts,
       (SELECT COALESCE(json_agg(json_build_object('destination_id', d.destination_id, 'kind', d.kind,
                                                   'url', d.url, 'events', d.events)
                                 ORDER BY d.created_at, d.destination_id), '[]'::json)
          FROM sync_destinations d WHERE d.source_id = ${ref(2, 'uuid')} AND d.active) AS destinations`;

/** One preview's reads in one round trip, or the reads of the previews of one moment in one. */
const PREVIEW_READS = {
  one: `SELECT ${previewReads(placeholder)}`,
  many: `SELECT r.n, ${previewReads(recordField('r'))}
           FROM json_to_recordset($1::json) AS r (${recordColumns(6)})`,
};

const readPreview = together<Reads>(PREVIEW_READS);
