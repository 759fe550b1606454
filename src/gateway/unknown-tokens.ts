import { LIMITS } from '../limits.ts';

/**
 * Tokens that named no source a moment ago (made up, or replaced by a regenerated one): a flood of
 * them is refused from memory instead of one database query each. Tokens are random and issued by
 * the server, so one that names no source cannot come to name one; a disabled source's token is
 * never put here (source-directory.ts). The memory is bounded in time and size all the same.
 */
export interface UnknownTokens {
  has(token: string): boolean;
  add(token: string): void;
}

export function createUnknownTokens(
  opts: { ttlMs?: number; max?: number; now?: () => number } = {},
): UnknownTokens {
  const ttlMs = opts.ttlMs ?? LIMITS.unknownTokenCacheMs;
  const max = opts.max ?? LIMITS.unknownTokenCacheSize;
  const now = opts.now ?? Date.now;
  const until = new Map<string, number>();
  return {
    has(token) {
      const key = token.toLowerCase();
      const expires = until.get(key);
      if (expires === undefined) return false;
      if (expires > now()) return true;
      until.delete(key);
      return false;
    },
    add(token) {
      if (until.size >= max) until.clear();
      until.set(token.toLowerCase(), now() + ttlMs);
    },
  };
}
