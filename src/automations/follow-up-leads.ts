import { TIMEZONE_INPUTS } from '../appointments/timezone-inference.ts';
import type { Queryable } from '../db/index.ts';

/**
 * What of a lead its follow-ups read — the plan (`planFollowUps`), the zone (`leadZone`), and the
 * sender at sending time — with the values its full view has for them (`getLeadViews`). The
 * dispatcher reads this much of every lead it hands on and the whole lead only for webhooks: the
 * whole view of a round's leads (custom fields, consent, every field) lives through the round's
 * waits, and would be most of what the server's young heap promotes to its old one. `test/follow-up-leads.test.ts` holds the follow-ups to these keys and the values to
 * the full view's.
 */
export const FOLLOW_UP_KEYS = [
  'lead_id',
  'agent_id',
  'status',
  'first_name',
  'phone',
  'email',
  'sms_consent',
  // The consent evidence screening asks for before a text or a call (src/screening).
  'consent_cert_url',
  'consent_token',
  ...TIMEZONE_INPUTS,
] as const;

export type FollowUpLead = Record<(typeof FOLLOW_UP_KEYS)[number], unknown> & { lead_id: string };

/** A lead's columns, or its `fields` document's value at the key (JSON null when absent: as the view has it). */
const FOLLOW_UP_COLUMNS = new Set(['lead_id', 'agent_id', 'status', 'first_name', 'phone', 'email']);
const FOLLOW_UP_SELECT = [...new Set(FOLLOW_UP_KEYS)]
  .map((key) => (FOLLOW_UP_COLUMNS.has(key) ? key : `fields -> '${key}' AS ${key}`))
  .join(', ');

/** What of these leads their follow-ups read (FOLLOW_UP_KEYS), in one query, by id; an id with no lead is absent. */
export async function getFollowUpLeads(
  db: Queryable,
  leadIds: readonly string[],
): Promise<Map<string, FollowUpLead>> {
  if (leadIds.length === 0) return new Map();
  const { rows } = await db.query<FollowUpLead>(
    `SELECT ${FOLLOW_UP_SELECT} FROM leads WHERE lead_id = ANY($1::uuid[])`,
    [[...new Set(leadIds)]],
  );
  return new Map(rows.map((row) => [row.lead_id, row]));
}
