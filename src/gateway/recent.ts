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
 * The values sit in a ring of `max` slots in the order they came, and a set answers `has`: the
 * value an `add` overwrites in the ring is the oldest, and leaves the set. A set alone, forgetting
 * its first value (`values().next()`), walked past every value deleted since the set last
 * compacted itself, thousands at the bound of 20,000 (4–8 µs an `add`, and rising with the bound).
 * A value deleted and added again holds two slots, so the older one forgets it early: a hint
 * lost, no more.
 */
export function createRecent(max: number): Recent {
  const seen = new Set<string>();
  const ring: Array<string | undefined> = new Array<string | undefined>(Math.max(1, max)).fill(undefined);
  let next = 0;
  return {
    has: (value) => seen.has(value),
    add(value) {
      if (seen.has(value)) return;
      const oldest = ring[next];
      if (oldest !== undefined) seen.delete(oldest);
      ring[next] = value;
      next = (next + 1) % ring.length;
      seen.add(value);
    },
    delete: (value) => {
      seen.delete(value);
    },
  };
}
