/**
 * A bounded memory of strings seen lately: past `max`, the oldest is forgotten. For hints that save
 * work when they hold (the database still decides), so forgetting one only costs the long way.
 */
export interface Recent {
  has(value: string): boolean;
  add(value: string): void;
  delete(value: string): void;
}

export function createRecent(max: number): Recent {
  const seen = new Set<string>();
  return {
    has: (value) => seen.has(value),
    add(value) {
      if (seen.has(value)) return;
      if (seen.size >= max) seen.delete(seen.values().next().value as string);
      seen.add(value);
    },
    delete: (value) => {
      seen.delete(value);
    },
  };
}
