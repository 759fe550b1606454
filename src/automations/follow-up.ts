import type { Queryable } from '../db/index.ts';
import { leadZone } from './lead-zone.ts';
import { isOptedOut, textsSince } from './sms-repository.ts';
import { planFollowUp, type FollowUp } from './speed-to-lead.ts';

/** What of the agent a follow-up needs: the name and template of the text, the fallback zone. */
export interface FollowUpAgent {
  name: string;
  timezone: string;
  sms_template: string | null;
}

export async function loadFollowUpAgent(db: Queryable, agentId: string): Promise<FollowUpAgent | undefined> {
  const { rows } = await db.query<FollowUpAgent>(
    'SELECT name, timezone, sms_template FROM agents WHERE agent_id = $1',
    [agentId],
  );
  return rows[0];
}

/**
 * The follow-up of a lead event (planFollowUp), with what it needs from the database: whether the
 * number opted out and how often the agent texted it in 24 hours — looked up only when a text is
 * possible at all (a phone and consent). Used by the dispatcher and by Listen's preview alike.
 */
export async function followUpFor(
  db: Queryable,
  input: {
    agent_id: string;
    agent: FollowUpAgent;
    topic: string;
    /** The lead by field name, with its status. */
    lead: Record<string, unknown>;
    scheduled_at: string | null;
    now: Date;
  },
): Promise<FollowUp & { phone: string | null }> {
  const { lead, agent } = input;
  const text = (key: string) =>
    typeof lead[key] === 'string' && lead[key] !== '' ? (lead[key] as string) : null;
  const phone = text('phone');
  const textable = phone !== null && lead.sms_consent === true;
  const plan = planFollowUp({
    topic: input.topic,
    status: String(lead.status),
    phone,
    first_name: text('first_name'),
    state: text('state'),
    zone: leadZone(lead, agent.timezone),
    sms_consent: lead.sms_consent === true,
    appointment: input.scheduled_at ? { scheduled_at: input.scheduled_at } : null,
    opted_out: textable ? await isOptedOut(db, input.agent_id, phone) : false,
    texts_last_24h: textable
      ? await textsSince(db, input.agent_id, phone, new Date(input.now.getTime() - 86_400_000))
      : 0,
    agent_name: agent.name,
    template: agent.sms_template,
    now: input.now,
  });
  return { ...plan, phone };
}
