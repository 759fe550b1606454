import { LIMITS } from '../config.ts';

/**
 * Tokens this process found unknown a moment ago: a flood of made-up (well-formed) tokens is
 * refused from memory instead of one database query each. Only unknown tokens are remembered —
 * a valid token is looked up on every request, so a disabled or regenerated one is still refused
 * at once. Tokens are random and issued by the server, so one cannot become valid while a sender
 * is already presenting it; the cost of a stale entry is at most LIMITS.unknownTokenCacheMs.
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
