import type { Database, Queryable } from '../db/index.ts';
import { iso } from '../db/index.ts';
import { appError } from '../errors.ts';
import { findContactHolders, readAgencyForRouting, saveRotation } from './agency-repository.ts';
import { moveLead } from './move-lead.ts';
import type { Routing } from './route.ts';

/** A lead the fallback producer holds because nobody else could take it. */
export interface FallbackLead {
  lead_id: string;
  name: string;
  phone: string | null;
  email: string | null;
  status: string;
  state: string | null;
  skipped: Routing['skipped'];
  created_at: string;
  /** The producers licensed in the lead's state, any of whom may take it by hand. */
  licensed: Array<{ agent_id: string; name: string }>;
}

/**
 * The fallback queue: the agency's leads with its fallback producer by the `fallback` rule and
 * still New, newest first, each with who could take it (producers licensed in its state).
 */
export async function listFallbackQueue(
  db: Queryable,
  agencyId: string,
  limit = 100,
): Promise<FallbackLead[]> {
  const { rows } = await db.query<FallbackLead & { created_at: Date | string; routing: Routing }>(
    `SELECT l.lead_id, l.name, l.phone, l.email, l.status, l.routing, l.created_at,
            COALESCE((SELECT json_agg(json_build_object('agent_id', m.agent_id, 'name', ag.name)
                                      ORDER BY m.joined_at, m.agent_id)
                        FROM agency_members m JOIN agents ag ON ag.agent_id = m.agent_id
                       WHERE m.agency_id = a.agency_id AND (l.routing ->> 'state') = ANY (m.licensed_states)),
                     '[]') AS licensed
       FROM agencies a JOIN leads l ON l.agent_id = a.fallback_agent_id
      WHERE a.agency_id = $1 AND l.routing ->> 'agency_id' = $1::text AND l.routing ->> 'rule' = 'fallback'
        AND l.status = 'New'
      ORDER BY l.created_at DESC, l.lead_id DESC LIMIT $2`,
    [agencyId, limit],
  );
  return rows.map(({ routing, created_at, ...row }) => ({
    ...row,
    state: routing.state,
    skipped: routing.skipped,
    created_at: iso(created_at),
  }));
}

/**
 * Gives a lead of the fallback queue to a producer by hand: only to a producer of the agency
 * licensed in the lead's state, and not one holding the same contact as another lead. 404
 * AGENT_NOT_FOUND for anyone not a producer of the agency, 400 VALIDATION_ERROR for a producer
 * who may not take it; 404 LEAD_NOT_FOUND for a lead not in the queue.
 */
export async function takeFromFallbackQueue(
  db: Database,
  agencyId: string,
  leadId: string,
  to: string,
  by: string | null,
): Promise<Routing> {
  return db.withTransaction(async (tx) => {
    const agency = await readAgencyForRouting(tx, agencyId, true);
    const { rows } = await tx.query<{
      source_id: string;
      routing: Routing;
      phone: string | null;
      email: string | null;
    }>(
      `SELECT source_id, routing, phone, email FROM leads
        WHERE agent_id = $1 AND lead_id = $2 AND routing ->> 'agency_id' = $3::text
          AND routing ->> 'rule' = 'fallback' AND status = 'New' FOR UPDATE`,
      [agency?.fallback_agent_id, leadId, agencyId],
    );
    const lead = rows[0];
    if (!agency || !lead) throw appError('LEAD_NOT_FOUND', 'The lead is not in the agency’s fallback queue');
    const member = agency.members.find((m) => m.agent_id === to);
    // Anyone but the agency's producers is unknown here, so an id names nothing it could probe.
    if (!member) throw appError('AGENT_NOT_FOUND', 'The agency has no such producer');
    const state = lead.routing.state;
    if (state === null || !member.licensed_states.includes(state)) {
      throw appError(
        'VALIDATION_ERROR',
        `agent_id must be a producer of the agency licensed in ${state ?? 'the lead’s state (unknown)'}`,
      );
    }
    const holders = await findContactHolders(tx, [to], {
      phone: lead.phone,
      email: lead.email,
    });
    if (holders.length > 0)
      throw appError('VALIDATION_ERROR', 'That producer has this contact as another lead already');
    const now = new Date();
    const routing: Routing = {
      ...lead.routing,
      rule: 'reassigned',
      skipped: [],
      tried: [...lead.routing.tried, to],
      assigned_at: now.toISOString(),
    };
    await saveRotation(tx, agencyId, new Map(), to);
    await moveLead(tx, {
      lead_id: leadId,
      source_id: lead.source_id,
      from: agency.fallback_agent_id,
      to,
      routing,
      claim_due_at:
        agency.claim_minutes === null ? null : new Date(now.getTime() + agency.claim_minutes * 60_000),
      by: by === null ? 'operator' : { agent_id: by },
    });
    return routing;
  });
}
