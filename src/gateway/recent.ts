/**
 * A bounded memory of strings seen lately: past `max`, the oldest is forgotten. For hints that save
 * work when they hold (the database still decides), so forgetting one only costs the long way.
 */
export interface Recent {
  has(value: string): boolean;
  add(value: string): void;
  delete(value: string): void;
}

/**
 * The values are kept as 53-bit hashes, not as strings: a ring of `max` slots in the order they
 * came, and a set that answers `has`. The value an `add` overwrites in the ring is the oldest, and
 * leaves the set. Strings cost their own bytes and, built with `${…}` as the keys here are, a
 * chain of V8's joined-string cells each, all of it marked at every full collection; a hash is a
 * few bytes. A value sharing a stored value's hash only makes a hint wrong, which the database
 * corrects.
 *
 * The ring, not the set's own order, says which value is oldest: a set forgetting its first value
 * walks past every value deleted since it last compacted itself. A value deleted and added again
 * holds two slots, so the older one forgets it early: a hint lost, no more.
 */
export function createRecent(max: number): Recent {
  const seen = new Set<number>();
  const ring = new Float64Array(Math.max(1, max)).fill(NaN);
  let next = 0;
  return {
    has: (value) => seen.has(hash53(value)),
    add(value) {
      const h = hash53(value);
      if (seen.has(h)) return;
      const oldest = ring[next] ?? NaN;
      if (!Number.isNaN(oldest)) seen.delete(oldest);
      ring[next] = h;
      next = (next + 1) % ring.length;
      seen.add(h);
    },
    delete: (value) => {
      seen.delete(hash53(value));
    },
  };
}

/**
 * A 53-bit hash of a string's UTF-16 code units: cyrb53 (bryc, public domain), two 32-bit
 * multiply-xor lanes mixed at the end. Not for anything an adversary can exploit: a sender who
 * made two keys collide would only send its own delivery the long way.
 */
export function hash53(value: string): number {
  let h1 = 0xdeadbeef;
  let h2 = 0x41c6ce57;
  for (let i = 0; i < value.length; i++) {
    const ch = value.charCodeAt(i);
    h1 = Math.imul(h1 ^ ch, 2654435761);
    h2 = Math.imul(h2 ^ ch, 1597334677);
  }
  h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507);
  h1 ^= Math.imul(h2 ^ (h2 >>> 13), 3266489909);
  h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507);
  h2 ^= Math.imul(h1 ^ (h1 >>> 13), 3266489909);
  return 4294967296 * (2097151 & h2) + (h1 >>> 0);
}
