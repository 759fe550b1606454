import type { Queryable } from '../db/index.ts';
import { text } from '../json.ts';
import { consentOf, decideContact, type BlockReason, type ContactDecision } from '../screening/decide.ts';
import { screenContacts, screenedOf, type ScreenedRow } from '../screening/screening-sql.ts';

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
      email: text(lead.email),
    })),
  );
  return screened.map((s, i) => decideContact({ ...s, ...consentOf(leads[i] ?? {}), now }));
}

/**
 * Why a lead read with its screening (`screenedColumns`) may not be called now, or null: the same
 * rules as at fan-out, on the lists as they are at the read. `fields`: the lead's, for its consent.
 */
export function callBlockOf(
  row: ScreenedRow,
  fields: Record<string, unknown>,
  now: Date,
): BlockReason | null {
  return decideContact({ ...screenedOf(row), ...consentOf(fields), now }).call;
}

/**
 * Rows read a page at a time, in their order, until `limit` of them may be called or none is left;
 * those screening blocks now are set apart with the reason, so a page of blocked rows does not
 * leave the list short while callable ones wait behind it.
 */
export async function callableRows<T>(
  page: (offset: number, size: number) => Promise<T[]>,
  blockOf: (row: T) => BlockReason | null,
  limit: number,
): Promise<{ callable: T[]; blocked: Array<{ row: T; reason: BlockReason }> }> {
  const callable: T[] = [];
  const blocked: Array<{ row: T; reason: BlockReason }> = [];
  for (let offset = 0; ; offset += limit) {
    const rows = await page(offset, limit);
    for (const row of rows) {
      const reason = blockOf(row);
      if (reason) blocked.push({ row, reason });
      else if (callable.length < limit) callable.push(row);
    }
    if (callable.length >= limit || rows.length < limit) return { callable, blocked };
  }
}
