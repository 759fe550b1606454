import type { Queryable } from '../db/index.ts';
import type { LeadStatus } from '../leads/lead-status.ts';

/** Which lead: by id, limited to `owner` unless null (the operator). */
export interface LeadTarget {
  lead_id: string;
  owner: string | null;
}

export interface OwnedLead {
  agent_id: string;
  lead_id: string;
  source_id: string;
  status: LeadStatus;
  state: string | null;
  phone: string | null;
  email: string | null;
  age: string | null;
  created_at: Date;
}

/** The lead, row-locked for a return or a sale; another agent's is null, as a missing one. */
export async function lockOwnedLead(tx: Queryable, target: LeadTarget): Promise<OwnedLead | null> {
  const { rows } = await tx.query<OwnedLead>(
    `SELECT agent_id, lead_id, source_id, status, fields ->> 'state' AS state, phone, email,
            fields ->> 'age' AS age, created_at FROM leads
      WHERE lead_id = $1 AND ($2::uuid IS NULL OR agent_id = $2::uuid) FOR UPDATE`,
    [target.lead_id, target.owner],
  );
  return rows[0] ?? null;
}
