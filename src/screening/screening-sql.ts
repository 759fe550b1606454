import type { Queryable } from '../db/index.ts';
import { SUPPRESSION_LISTS, type ScreeningEntry } from './lists.ts';

const LISTS = `ARRAY[${SUPPRESSION_LISTS.map((l) => `'${l}'`).join(', ')}]::text[]`;
const ISO = `'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'`;

/** The agencies whose lists cover an agent's leads: those it is a producer of, or the fallback of. */
const agenciesOf = (agent: string) =>
  `SELECT agency_id FROM agency_members WHERE agent_id = ${agent}
   UNION SELECT agency_id FROM agencies WHERE fallback_agent_id = ${agent}`;

/**
 * A lead's screening as an SQL expression of its agent, phone and email (each an SQL expression):
 * `[{list, matched, since}]`, one entry per list the phone or email is on (the phone's when both
 * are), from the agent's lists and those of its agencies; `[]` when none. Every lookup is a probe
 * of a list's key (agent or agency, list, value), so it costs the same for a list of ten or ten
 * million. Written into the lead's own insert or update, it adds no round trip to a delivery.
 */
export function screeningSql(agent: string, phone: string, email: string): string {
  return `(SELECT COALESCE(jsonb_agg(jsonb_build_object('list', e.list, 'matched', e.matched,
                   'since', to_char(e.since AT TIME ZONE 'UTC', ${ISO})) ORDER BY e.list), '[]'::jsonb)
     FROM (SELECT DISTINCT ON (s.list) s.list, s.added_at AS since,
                  CASE WHEN s.value = ${phone} THEN 'phone' ELSE 'email' END AS matched
             FROM (SELECT list, value, added_at FROM suppressions
                    WHERE agent_id = ${agent} AND list = ANY (${LISTS}) AND value IN (${phone}, ${email})
                   UNION ALL
                   SELECT list, value, added_at FROM agency_suppressions
                    WHERE agency_id IN (${agenciesOf(agent)})
                      AND list = ANY (${LISTS}) AND value IN (${phone}, ${email})) s
            ORDER BY s.list, COALESCE(s.value = ${phone}, false) DESC, s.added_at) e)`;
}

/** When the registry lists that cover an agent's leads were loaded, the oldest; null when none does. */
export function registryLoadedSql(agent: string): string {
  return `(SELECT min(r.loaded_at) FROM (
      SELECT loaded_at FROM suppression_lists WHERE agent_id = ${agent} AND list = 'registry'
      UNION ALL
      SELECT loaded_at FROM agency_suppression_lists
       WHERE agency_id IN (${agenciesOf(agent)}) AND list = 'registry') r)`;
}

/** A contact to screen: the agent whose lead it is, its phone (10 digits) and email. */
export interface Contact {
  agent_id: string;
  phone: string | null;
  email: string | null;
}

/** What screening finds of a contact now: `decideContact`'s facts but the lead's consent. */
export interface Screened {
  screening: ScreeningEntry[];
  registry_loaded_at: Date | null;
  /** The agent's number opted out: a STOP, or the agent's "do not contact" (`sms_opt_outs`). */
  opted_out: boolean;
  /** The prospect's START after an opt-out by keyword: texts again, calls still stopped. */
  texts_resumed: boolean;
}

/**
 * What screening finds of a contact now, as four columns of a select list (`screening`,
 * `registry_loaded_at`, `opted_out`, `texts_resumed`) of its agent, phone and email (each an SQL expression): a
 * read of leads or call tasks adds them to screen its rows without a round trip of its own.
 */
export function screenedColumns(agent: string, phone: string, email: string): string {
  return `${screeningSql(agent, phone, email)} AS screening, ${registryLoadedSql(agent)} AS registry_loaded_at,
          EXISTS (SELECT FROM sms_opt_outs o WHERE o.agent_id = ${agent} AND o.phone = ${phone}) AS opted_out,
          EXISTS (SELECT FROM sms_opt_outs o WHERE o.agent_id = ${agent} AND o.phone = ${phone}
                     AND o.texts_resumed_at IS NOT NULL) AS texts_resumed`;
}

/** The columns `screenedColumns` reads, as a driver returns them. */
export interface ScreenedRow {
  screening: ScreeningEntry[];
  registry_loaded_at: Date | string | null;
  opted_out: boolean;
  texts_resumed: boolean;
}

/** `screenedColumns`' columns as `decideContact`'s facts. */
export const screenedOf = (r: ScreenedRow): Screened => ({
  screening: r.screening,
  registry_loaded_at: r.registry_loaded_at === null ? null : new Date(r.registry_loaded_at),
  opted_out: r.opted_out,
  texts_resumed: r.texts_resumed,
});

/**
 * The lists each contact is on now, the age of the registry that covers it and its opt-out, in
 * one statement for all of them, in their order: what the dispatcher decides a round's follow-ups
 * on, and what the sender checks again before each text.
 */
export async function screenContacts(q: Queryable, contacts: readonly Contact[]): Promise<Screened[]> {
  if (contacts.length === 0) return [];
  const { rows } = await q.query<ScreenedRow>(
    `SELECT ${screenedColumns('c.agent_id', 'c.phone', 'c.email')}
       FROM unnest($1::uuid[], $2::text[], $3::text[]) WITH ORDINALITY AS c (agent_id, phone, email, n)
      ORDER BY c.n`,
    [contacts.map((c) => c.agent_id), contacts.map((c) => c.phone), contacts.map((c) => c.email)],
  );
  return rows.map(screenedOf);
}
