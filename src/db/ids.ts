import { createHash, randomUUID } from 'node:crypto';

/** The ids' first 15 characters (time, version) for the millisecond they were last made in. */
let prefixTime = -1;
let prefix = '';

/**
 * A new row's id: a UUID version 7 (RFC 9562), its first 48 bits the milliseconds since 1970 and
 * the other 74 of its 122 free bits random. Ids made later sort after earlier ones (to the
 * millisecond), so a table's and its indexes' new entries go to their last pages instead of
 * anywhere: fewer pages written and logged whole after a checkpoint, and the pages being written
 * stay in memory however large the table grows. Ids are not secrets and say when they were made,
 * as the rows' own `created_at` does; what must not be guessed (tokens, keys) stays version 4.
 *
 * Made from `randomUUID`'s cached randomness rather than fresh random bytes each time (as the
 * `uuid` package's `v7` does, many times slower): a delivery makes several.
 */
export function newId(now: number = Date.now()): string {
  if (now !== prefixTime) {
    const time = now.toString(16).padStart(12, '0');
    prefix = `${time.slice(0, 8)}-${time.slice(8)}-7`;
    prefixTime = now;
  }
  // randomUUID's is xxxxxxxx-xxxx-4xxx-yxxx-xxxxxxxxxxxx: after its version come 74 random bits
  // and the variant.
  return prefix + randomUUID().slice(15);
}

/**
 * The id a text names, the same wherever it is made: its MD5 as a UUID, which is what PostgreSQL's
 * `md5(text)::uuid` gives, so a statement can name the same row.
 */
export function md5Id(text: string): string {
  const hex = createHash('md5').update(text).digest('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}
