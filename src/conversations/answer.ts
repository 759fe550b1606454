import { DateTime } from 'luxon';
import { contactRule, describeCallingHours, nextAllowedInstant } from '../automations/contact-window.ts';
import { getFollowUpLeads } from '../automations/follow-up-leads.ts';
import { leadZone } from '../automations/lead-zone.ts';
import { screenContact } from '../automations/screen-contact.ts';
import { newId } from '../db/ids.ts';
import type { Database } from '../db/index.ts';
import type { ErrorCode } from '../errors.ts';
import { LIMITS } from '../limits.ts';
import { markThreadRead } from './thread-repository.ts';

export type Answered =
  | { ok: true; message_id: string; direction: 'outbound'; status: 'scheduled'; lead_id: string }
  | {
      ok: false;
      code: Extract<
        ErrorCode,
        | 'LEAD_NOT_FOUND'
        | 'LEAD_HAS_NO_PHONE'
        | 'CONTACT_OPTED_OUT'
        | 'CONTACT_SCREENED'
        | 'OUTSIDE_CALLING_HOURS'
      >;
      details?: string;
    };

/**
 * The agent answers a lead by text (docs/conversations.md): written to the texts the dispatcher
 * sends through the configured provider (recorder, http, twilio), so it goes once and is retried as
 * any text; the thread is marked read. Refused, with nothing written, when the number opted out or
 * is marked do not contact, is on a list that stops texts, or the lead has no phone; and outside the
 * prospect's calling hours unless the prospect wrote in the last 24 hours (then it answers them).
 * `owner`: the agent the request is limited to, or null for the operator; another's lead is missing.
 */
export async function answerLead(
  db: Database,
  target: { lead_id: string; owner: string | null },
  body: string,
  now: Date,
): Promise<Answered> {
  const lead = (await getFollowUpLeads(db, [target.lead_id])).get(target.lead_id);
  const agentId = typeof lead?.agent_id === 'string' ? lead.agent_id : null;
  if (!lead || !agentId || (target.owner !== null && agentId !== target.owner))
    return { ok: false, code: 'LEAD_NOT_FOUND' };
  const phone = typeof lead.phone === 'string' && lead.phone !== '' ? lead.phone : null;
  if (!phone) return { ok: false, code: 'LEAD_HAS_NO_PHONE' };
  const [decision] = await screenContact(db, [{ ...lead, agent_id: agentId, phone }], now);
  if (decision?.text === 'opted_out') return { ok: false, code: 'CONTACT_OPTED_OUT' };
  if (decision?.text)
    return { ok: false, code: 'CONTACT_SCREENED', details: `screening blocks texts: ${decision.text}` };
  const { rows } = await db.query<{ timezone: string; wrote: boolean }>(
    `SELECT a.timezone, EXISTS (SELECT FROM sms_replies r WHERE r.agent_id = a.agent_id AND r.lead_id = $2
                                   AND r.received_at > $3) AS wrote
       FROM agents a WHERE a.agent_id = $1`,
    [agentId, target.lead_id, new Date(now.getTime() - LIMITS.answerWindowMs).toISOString()],
  );
  const agent = rows[0];
  if (!agent) return { ok: false, code: 'LEAD_NOT_FOUND' };
  if (!agent.wrote) {
    const state = typeof lead.state === 'string' ? lead.state : null;
    const zone = leadZone(lead, agent.timezone);
    const opens = nextAllowedInstant(now, zone, contactRule(state));
    if (opens.getTime() > now.getTime()) {
      const there = DateTime.fromJSDate(opens, { zone }).toFormat('ccc h:mm a');
      return {
        ok: false,
        code: 'OUTSIDE_CALLING_HOURS',
        details: `${describeCallingHours(state)}; texts may go from ${opens.toISOString()} (${there} there), or at any hour within 24 hours of the prospect’s own text`,
      };
    }
  }
  const smsId = newId();
  await db.withTransaction(async (tx) => {
    await tx.query(
      `INSERT INTO sms_messages (agent_id, sms_id, lead_id, message_id, to_phone, body, send_at, kind)
       VALUES ($1, $2, $3, $4, $5, $6, $7, 'agent')`,
      [agentId, smsId, target.lead_id, newId(), phone, body, now.toISOString()],
    );
    await markThreadRead(tx, agentId, target.lead_id, now);
  });
  return { ok: true, message_id: smsId, direction: 'outbound', status: 'scheduled', lead_id: target.lead_id };
}
