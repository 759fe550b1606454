import { contactKeys, keyValue } from '../leads/contact-keys.ts';
import type { LeadFields } from '../ingest/types.ts';
import type { Queryable } from '../db/index.ts';
import { findContactOwner, readAgencyForRouting, saveRotation } from './agency-repository.ts';
import { prospectState } from './prospect-state.ts';
import { routeLead, type Routing } from './route.ts';

/** The producer a lead of an agency goes to, and what its lead row records of it. */
export interface Routed {
  agent_id: string;
  /** The producer's time zone: a merge dates the lead in it. */
  timezone: string;
  routing: Routing;
  /** When the claim timer first looks at the lead: a lead given by rotation, in an agency with a claim time. */
  claim_due_at: Date | null;
}

/**
 * Routes one lead of an agency inside the delivery's transaction (`commit`): the agency and its
 * members stay locked until it ends and the rotation's credits and the day's count are written.
 * Without `commit` (a Listen sample's preview) nothing is locked or written.
 */
export async function routeInAgency(
  tx: Queryable,
  agencyId: string,
  fields: LeadFields,
  opts: { commit: boolean; now?: Date },
): Promise<Routed> {
  const agency = await readAgencyForRouting(tx, agencyId, opts.commit);
  if (!agency) throw new Error(`agency ${agencyId} of a source is missing`);
  const producers = [...agency.members.map((m) => m.agent_id), agency.fallback_agent_id];
  const keys = contactKeys(fields);
  const owner = await findContactOwner(tx, producers, {
    phone: keyValue(keys, 'phone'),
    email: keyValue(keys, 'email'),
  });
  const decision = routeLead({
    agency_id: agency.agency_id,
    fallback_agent_id: agency.fallback_agent_id,
    members: agency.members,
    state: prospectState(fields)?.state ?? null,
    owner,
    at: opts.now ?? new Date(),
  });
  const isMember = agency.members.some((m) => m.agent_id === decision.agent_id);
  if (opts.commit) {
    await saveRotation(
      tx,
      agency.agency_id,
      decision.credits,
      decision.counts && isMember ? decision.agent_id : null,
    );
  }
  const now = opts.now ?? new Date();
  const claims = decision.routing.rule === 'rotation' && agency.claim_minutes !== null;
  return {
    agent_id: decision.agent_id,
    timezone: agency.zones.get(decision.agent_id) ?? agency.timezone,
    routing: decision.routing,
    // The earliest it can be due: the timer counts the minutes inside the prospect's calling hours.
    claim_due_at: claims ? new Date(now.getTime() + (agency.claim_minutes ?? 0) * 60_000) : null,
  };
}
