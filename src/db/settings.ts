import type { Queryable } from './database.ts';

/**
 * A process-wide setting made once for the installation and kept in the database (`settings`), so
 * every gateway process on it, and every restart, reads the same value: `make` gives it on first
 * use; when several processes make one at the same moment, the first written is the one all keep.
 */
export async function settingMadeOnce(db: Queryable, name: string, make: () => string): Promise<string> {
  const read = async () =>
    (await db.query<{ value: string }>('SELECT value FROM settings WHERE name = $1', [name])).rows[0]?.value;
  const kept = await read();
  if (kept !== undefined) return kept;
  await db.query('INSERT INTO settings (name, value) VALUES ($1, $2) ON CONFLICT (name) DO NOTHING', [
    name,
    make(),
  ]);
  const made = await read();
  if (made === undefined) throw new Error(`no ${name} in settings`);
  return made;
}
