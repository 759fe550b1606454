import { iso, type Queryable } from '../db/index.ts';
import { entryKind, type EntryValue } from './entries.ts';
import { isStale, type SuppressionList } from './lists.ts';
import { registryLoadedSql } from './screening-sql.ts';

/** Whose lists: an agent's (its own leads) or an agency's (the leads of all its producers). */
export type ListOwner = { agent_id: string } | { agency_id: string };

/** The owner's two tables and key column; names from this fixed set only, never from a request. */
function tablesOf(owner: ListOwner) {
  return 'agent_id' in owner
    ? { lists: 'suppression_lists', entries: 'suppressions', key: 'agent_id', id: owner.agent_id }
    : {
        lists: 'agency_suppression_lists',
        entries: 'agency_suppressions',
        key: 'agency_id',
        id: owner.agency_id,
      };
}

/**
 * Adds entries to one of the owner's lists, in the caller's transaction: the list row first
 * (made, or its `loaded_at` set to now: every load counts as a reload, which is what keeps a
 * registry fresh), then the entries an entry already there leaves out, then the list's count.
 * A rerun of the same values adds 0.
 */
export async function addEntries(
  tx: Queryable,
  owner: ListOwner,
  list: SuppressionList,
  values: readonly EntryValue[],
): Promise<{ added: number; total: number }> {
  const t = tablesOf(owner);
  await tx.query(
    `INSERT INTO ${t.lists} (${t.key}, list) VALUES ($1, $2)
     ON CONFLICT (${t.key}, list) DO UPDATE SET loaded_at = now()`,
    [t.id, list],
  );
  const { rows } = await tx.query<{ added: number; total: number }>(
    `WITH added AS (
       INSERT INTO ${t.entries} (${t.key}, list, value)
       SELECT $1, $2, v FROM unnest($3::text[]) AS v
       ON CONFLICT DO NOTHING RETURNING 1)
     UPDATE ${t.lists} SET entries = entries + (SELECT count(*) FROM added)
      WHERE ${t.key} = $1 AND list = $2
     RETURNING (SELECT count(*) FROM added)::int AS added, entries::float8 AS total`,
    [t.id, list, [...new Set(values)]],
  );
  const row = rows[0];
  if (!row) throw new Error('the list row made a statement ago is gone');
  return { added: row.added, total: row.total };
}

/** Removes one entry; false when the list does not have it. */
export async function deleteEntry(
  tx: Queryable,
  owner: ListOwner,
  list: SuppressionList,
  value: EntryValue,
): Promise<boolean> {
  const t = tablesOf(owner);
  const { rowCount } = await tx.query(
    `WITH gone AS (DELETE FROM ${t.entries} WHERE ${t.key} = $1 AND list = $2 AND value = $3 RETURNING 1)
     UPDATE ${t.lists} SET entries = entries - (SELECT count(*) FROM gone)
      WHERE ${t.key} = $1 AND list = $2 AND EXISTS (SELECT FROM gone)`,
    [t.id, list, value],
  );
  return rowCount > 0;
}

export interface EntryView {
  list: SuppressionList;
  phone?: string;
  email?: string;
  added_at: string;
}

/** Where a page of entries ends: the last entry's list and value. */
export interface EntryCursor {
  list: string;
  value: string;
}

/** A page of the owner's entries, by list then value, after `cursor`; of one list when given. */
export async function listEntries(
  q: Queryable,
  owner: ListOwner,
  query: { list?: SuppressionList; limit: number; cursor?: EntryCursor },
): Promise<{ entries: EntryView[]; next_cursor: EntryCursor | null }> {
  const t = tablesOf(owner);
  const { rows } = await q.query<{ list: SuppressionList; value: string; added_at: Date }>(
    `SELECT list, value, added_at FROM ${t.entries}
      WHERE ${t.key} = $1 AND ($2::text IS NULL OR list = $2)
        AND ($3::text IS NULL OR (list, value) > ($3, $4::text))
      ORDER BY list, value LIMIT $5`,
    [t.id, query.list ?? null, query.cursor?.list ?? null, query.cursor?.value ?? null, query.limit + 1],
  );
  const page = rows.slice(0, query.limit);
  const last = page[page.length - 1];
  return {
    entries: page.map((r) => ({ list: r.list, [entryKind(r.value)]: r.value, added_at: iso(r.added_at) })),
    next_cursor: rows.length > query.limit && last ? { list: last.list, value: last.value } : null,
  };
}

/**
 * When the registry lists that cover an agent's leads (its own, its agencies') were loaded, the
 * oldest, and whether that is too old at `now`; null when no registry list covers it.
 */
export async function registryOf(
  q: Queryable,
  agentId: string,
  now: Date,
): Promise<{ loaded_at: string; stale: boolean } | null> {
  const { rows } = await q.query<{ loaded_at: Date | null }>(
    `SELECT ${registryLoadedSql('$1::uuid')} AS loaded_at`,
    [agentId],
  );
  const loaded = rows[0]?.loaded_at;
  return loaded ? { loaded_at: iso(loaded), stale: isStale(new Date(loaded), now) } : null;
}
