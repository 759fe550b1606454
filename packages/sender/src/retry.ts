/**
 * The gateway's retry policy (docs/sender-contract.md, "How to retry"), as pure functions:
 * which answers are worth another try, and how long to wait before it.
 */

/**
 * The answers worth another try: 429 and the 5xx a busy or restarting gateway gives (and 408, a
 * proxy's timeout). Every other status, 400, 401, 405, 413 and 422 above all, is permanent: the
 * request itself must change.
 */
const TRANSIENT = new Set([408, 429, 500, 502, 503, 504]);

export function isTransientStatus(status: number): boolean {
  return TRANSIENT.has(status);
}

export interface RetryPolicy {
  /** Tries in all, the first included (default 6: the first, then after 1, 2, 4, 8 and 16 s). */
  maxAttempts: number;
  /** The first wait, doubled after each retry (default 1,000 ms). */
  baseDelayMs: number;
  /** No wait longer than this, unless the gateway's Retry-After asks for more (default 30,000 ms). */
  maxDelayMs: number;
}

export const DEFAULT_RETRY: RetryPolicy = { maxAttempts: 6, baseDelayMs: 1_000, maxDelayMs: 30_000 };

/**
 * The wait before retry number `retry` (1 for the first retry): base × 2^(retry-1), at most
 * maxDelayMs, and never sooner than the answer's Retry-After.
 */
export function retryDelayMs(retry: number, policy: RetryPolicy, retryAfterMs: number | null): number {
  const backoff = Math.min(policy.baseDelayMs * 2 ** Math.max(0, retry - 1), policy.maxDelayMs);
  return retryAfterMs === null ? backoff : Math.max(backoff, retryAfterMs);
}

/** A Retry-After header in milliseconds: delay-seconds or an HTTP date; null when absent or unreadable. */
export function parseRetryAfter(header: string | null, now: number): number | null {
  if (header === null) return null;
  const text = header.trim();
  if (/^\d+$/.test(text)) return Number(text) * 1000;
  const at = Date.parse(text);
  return Number.isNaN(at) ? null : Math.max(0, at - now);
}
