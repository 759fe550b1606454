import { LIMITS } from '../limits.ts';

/**
 * Token bucket per source, in this process: `rps` sustained, `burst` at once. With several
 * gateway processes each keeps its own buckets (docs/decisions/0007-several-processes.md); revocation,
 * idempotency and dedupe, which must be exact, live in the database instead.
 */
export interface RateLimiter {
  /**
   * 0 when the request may go on, else the seconds to wait (for Retry-After). `own` is the
   * source's own limit, when it has one; else the server's.
   */
  take(key: string, nowMs?: number, own?: { rps: number | null; burst: number | null }): number;
}

export function createRateLimiter(server: { rps: number; burst: number }): RateLimiter {
  if (server.rps <= 0) return { take: () => 0 }; // RATE_LIMIT_RPS=0: no limit at all (benchmarks)
  const buckets = new Map<string, { tokens: number; at: number }>();
  return {
    take(source, nowMs = Date.now(), own) {
      const rps = own?.rps ?? server.rps;
      const burst = own?.burst ?? server.burst;
      // A source whose limit changed starts a new, full bucket (the old one is evicted in time).
      const key = rps === server.rps && burst === server.burst ? source : `${source}|${rps}|${burst}`;
      const bucket = buckets.get(key) ?? { tokens: burst, at: nowMs };
      bucket.tokens = Math.min(burst, bucket.tokens + ((nowMs - bucket.at) / 1000) * rps);
      bucket.at = nowMs;
      if (buckets.size >= LIMITS.rateLimitBuckets && !buckets.has(key)) evictFull(buckets, burst, rps, nowMs);
      buckets.set(key, bucket);
      if (bucket.tokens >= 1) {
        bucket.tokens -= 1;
        return 0;
      }
      return Math.max(1, Math.ceil((1 - bucket.tokens) / rps));
    },
  };
}

function evictFull(
  buckets: Map<string, { tokens: number; at: number }>,
  burst: number,
  rps: number,
  nowMs: number,
): void {
  for (const [key, b] of buckets) {
    if (b.tokens + ((nowMs - b.at) / 1000) * rps >= burst) buckets.delete(key);
  }
}
