import type { Database, Queryable } from '../db/index.ts';
import type { LeadFields } from '../ingest/types.ts';
import { contactKeys, keyValue } from '../leads/contact-keys.ts';
import { setClaimDue } from '../leads/lead-changes.ts';
import {
  findContactHolders,
  readAgencyForRouting,
  saveRotation,
  type AgencyForRouting,
} from '../routing/agency-repository.ts';
import { moveLead } from '../routing/move-lead.ts';
import { routeLead, type Routing } from '../routing/route.ts';
import { afterWindowMinutes, contactRule } from './contact-window.ts';
import { leadZone } from './lead-zone.ts';

interface DueLead {
  agent_id: string;
  lead_id: string;
  agency_id: string;
}

interface ClaimedLead {
  agent_id: string;
  lead_id: string;
  source_id: string;
  status: string;
  phone: string | null;
  email: string | null;
  fields: LeadFields | null;
  routing: Routing;
}

/**
 * The claim timer, one round of the dispatcher: every lead of an agency whose claim time has come is
 * looked at once, each in its own transaction. Returns how many moved. Exactly once across
 * processes: each takes the agency's lock first (as its deliveries do), then the lead's row, and
 * reads its claim time again under them.
 */
export async function reassignUnclaimed(db: Database, now: Date, limit: number): Promise<number> {
  const { rows } = await db.query<DueLead>(
    `SELECT agent_id, lead_id, routing ->> 'agency_id' AS agency_id FROM leads
      WHERE claim_due_at <= $1 ORDER BY claim_due_at LIMIT $2`,
    [now, limit],
  );
  let moved = 0;
  for (const due of rows) if (await db.withTransaction((tx) => claimOne(tx, due, now))) moved += 1;
  return moved;
}

/**
 * A lead worked by its producer (a call outcome recorded, "do not contact", or its status moved on
 * from New) stops the timer. Otherwise its claim time is counted in the prospect's calling hours: not yet spent, the
 * timer looks again then; spent, the lead moves to the next producer of the rotation it has not
 * been with (never to one holding the same contact as another lead), at most twice, then to the
 * fallback producer.
 */
async function claimOne(tx: Queryable, due: DueLead, now: Date): Promise<boolean> {
  const agency = await readAgencyForRouting(tx, due.agency_id, true);
  const { rows } = await tx.query<ClaimedLead>(
    `SELECT agent_id, lead_id, source_id, status, phone, email, fields, routing FROM leads
      WHERE agent_id = $1 AND lead_id = $2 AND claim_due_at <= $3 FOR UPDATE`,
    [due.agent_id, due.lead_id, now],
  );
  const lead = rows[0];
  if (!lead) return false;
  const wait = async (until: Date | null) => {
    await setClaimDue(tx, lead, until);
    return false;
  };
  if (!agency || agency.claim_minutes === null || (await isWorked(tx, lead))) return wait(null);

  const fields: LeadFields = { ...(lead.fields ?? {}), ...(lead.phone ? { phone: lead.phone } : {}) };
  const zone = leadZone(fields, agency.zones.get(lead.agent_id) ?? agency.timezone);
  const rule = contactRule(lead.routing.state);
  const deadline = afterWindowMinutes(new Date(lead.routing.assigned_at), agency.claim_minutes, zone, rule);
  if (deadline > now) return wait(deadline);

  const { decision, holders } = await nextProducer(tx, agency, lead, now);
  // The fallback producer it is with already, or who holds the same contact as another lead: it stays.
  if (decision.agent_id === lead.agent_id || holders.includes(decision.agent_id)) return wait(null);
  const isMember = agency.members.some((m) => m.agent_id === decision.agent_id);
  await saveRotation(tx, agency.agency_id, decision.credits, isMember ? decision.agent_id : null);
  await moveLead(tx, {
    lead_id: lead.lead_id,
    source_id: lead.source_id,
    from: lead.agent_id,
    to: decision.agent_id,
    routing: decision.routing,
    claim_due_at:
      decision.routing.rule === 'reassigned' ? new Date(now.getTime() + agency.claim_minutes * 60_000) : null,
    by: 'claim_timer',
  });
  return true;
}

/** A call outcome recorded, "do not contact" said, or the status moved on: the producer has it in hand. */
async function isWorked(tx: Queryable, lead: ClaimedLead): Promise<boolean> {
  if (lead.status !== 'New') return true;
  const { rows } = await tx.query<{ worked: boolean }>(
    `SELECT EXISTS (SELECT 1 FROM dial_tasks WHERE agent_id = $1 AND lead_id = $2 AND (outcome IS NOT NULL OR calls > 0))
         OR EXISTS (SELECT 1 FROM lead_history WHERE agent_id = $1 AND lead_id = $2
                       AND event IN ('call_outcome', 'do_not_contact')) AS worked`,
    [lead.agent_id, lead.lead_id],
  );
  return rows[0]?.worked ?? false;
}

/** The routing chain again, for a lead the timer moves on. */
async function nextProducer(tx: Queryable, agency: AgencyForRouting, lead: ClaimedLead, now: Date) {
  const producers = [...agency.members.map((m) => m.agent_id), agency.fallback_agent_id];
  const keys = contactKeys({ phone: lead.phone ?? '', email: lead.email ?? '' });
  const holders = await findContactHolders(tx, producers, {
    phone: keyValue(keys, 'phone'),
    email: keyValue(keys, 'email'),
  });
  const others = holders.map((h) => h.agent_id).filter((id) => id !== lead.agent_id);
  const decision = routeLead({
    agency_id: agency.agency_id,
    fallback_agent_id: agency.fallback_agent_id,
    members: agency.members,
    state: lead.routing.state,
    owner: null,
    tried: lead.routing.tried,
    exclude: others,
    at: now,
  });
  return { decision, holders: others };
}
