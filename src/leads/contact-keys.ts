import type { Queryable } from '../db/index.ts';
import { run, sql } from '../db/statement.ts';
import type { LeadFields } from '../ingest/types.ts';

export interface ContactKey {
  kind: 'phone' | 'email';
  value: string;
}

/**
 * The keys a contact is recognised by: its phone and email as intake normalized them (the email
 * trimmed and lower case), so they are compared as stored. Phone first, always.
 */
export function contactKeys(fields: LeadFields): ContactKey[] {
  const keys: ContactKey[] = [];
  if (typeof fields.phone === 'string' && fields.phone !== '')
    keys.push({ kind: 'phone', value: fields.phone });
  if (typeof fields.email === 'string' && fields.email !== '')
    keys.push({ kind: 'email', value: fields.email });
  return keys;
}

/** The value of the contact's key of that kind, or null when it has none. */
export function keyValue(keys: readonly ContactKey[], kind: ContactKey['kind']): string | null {
  return keys.find((k) => k.kind === kind)?.value ?? null;
}

/**
 * Claims the contact's keys for `newLeadId`, one by one in a fixed order (phone, then email) so
 * two transactions never wait on each other crosswise. A key another lead holds is not taken:
 * the insert waits for that lead's transaction and then yields. Returns the other leads that
 * already own one of the keys, email owner first (an email is more personal than a phone, which
 * a household shares); empty means the contact is new.
 */
export async function claimContactKeys(
  tx: Queryable,
  agentId: string,
  keys: ContactKey[],
  newLeadId: string,
): Promise<string[]> {
  const owners: Array<{ kind: string; lead_id: string }> = [];
  for (const key of keys) {
    const claimed = await run(tx, CLAIM_KEY, { agent_id: agentId, ...key, lead_id: newLeadId });
    if (claimed.rowCount > 0) continue; // a new key: the common case needs no second statement
    // Held by another lead; this statement sees it, committed, once the insert stopped waiting.
    const owner = await ownerOf(tx, agentId, key);
    if (owner && owner !== newLeadId) owners.push({ kind: key.kind, lead_id: owner });
  }
  return [...new Set(emailFirst(owners).map((o) => o.lead_id))];
}

/** The lead that holds one contact key, as an SQL expression of the agent's id and the key's value. */
export const keyOwnerSql = (agent: string, kind: ContactKey['kind'], value: string): string =>
  `(SELECT c.lead_id FROM lead_contacts c WHERE c.agent_id = ${agent} AND c.kind = '${kind}' AND c.value = ${value})`;

/**
 * The lead a contact's keys name now, the email's owner first, as an SQL expression of the agent's
 * id and the key values (null for a key the contact does not have): what a Listen preview shows.
 */
export const contactOwnerSql = (agent: string, phone: string, email: string): string =>
  `COALESCE(${keyOwnerSql(agent, 'email', email)}, ${keyOwnerSql(agent, 'phone', phone)})`;

type KeyParam = 'agent_id' | 'kind' | 'value';

const CLAIM_KEY = sql<KeyParam | 'lead_id'>(
  (p) => `INSERT INTO lead_contacts (agent_id, kind, value, lead_id)
          VALUES (${p('agent_id', 'uuid')}, ${p('kind', 'text')}, ${p('value', 'text')}, ${p('lead_id', 'uuid')})
          ON CONFLICT (agent_id, kind, value) DO NOTHING RETURNING lead_id`,
);

const OWNER = sql<KeyParam>(
  (p) => `SELECT lead_id FROM lead_contacts
           WHERE agent_id = ${p('agent_id', 'uuid')} AND kind = ${p('kind', 'text')} AND value = ${p('value', 'text')}`,
);

async function ownerOf(tx: Queryable, agentId: string, key: ContactKey): Promise<string | undefined> {
  const { rows } = await run<{ lead_id: string }, KeyParam>(tx, OWNER, { agent_id: agentId, ...key });
  return rows[0]?.lead_id;
}

/** The email's owner wins over the phone's (a phone is what a household shares). Stable. */
function emailFirst<T extends { kind: string }>(owners: T[]): T[] {
  return [...owners].sort((a, b) => (a.kind === b.kind ? 0 : a.kind === 'email' ? -1 : 1));
}

/** The keys claimed for a lead that turned out to exist already are moved to that lead. */
export async function moveContactKeys(
  tx: Queryable,
  agentId: string,
  from: string,
  to: string,
): Promise<void> {
  await run(tx, MOVE_KEYS, { agent_id: agentId, from, to });
}

const MOVE_KEYS = sql<'agent_id' | 'from' | 'to'>(
  (p) => `UPDATE lead_contacts SET lead_id = ${p('to', 'uuid')}
           WHERE agent_id = ${p('agent_id', 'uuid')} AND lead_id = ${p('from', 'uuid')}`,
);
