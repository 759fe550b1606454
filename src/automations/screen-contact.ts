import type { Queryable } from '../db/index.ts';
import { consentOf, decideContact, type ContactDecision } from '../screening/decide.ts';
import { screenContacts } from '../screening/screening-sql.ts';

const text = (value: unknown) => (typeof value === 'string' && value !== '' ? value : null);

/**
 * Whether each lead may be texted and called now (docs/compliance.md): its lists, opt-out and
 * registry read in one statement for all of them, then `decideContact` on the lead's consent.
 * The dispatcher asks it for a round's follow-ups, the sender again before each text.
 */
export async function screenContact(
  q: Queryable,
  leads: ReadonlyArray<Record<string, unknown>>,
  now: Date,
): Promise<ContactDecision[]> {
  const screened = await screenContacts(
    q,
    leads.map((lead) => ({
      agent_id: String(lead.agent_id),
      phone: text(lead.phone),
      email: text(lead.email)?.toLowerCase() ?? null,
    })),
  );
  return screened.map((s, i) => decideContact({ ...s, ...consentOf(leads[i] ?? {}), now }));
}
