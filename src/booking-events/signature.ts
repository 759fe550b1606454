import { LIMITS } from '../limits.ts';
import { createHmac, timingSafeEqual } from 'node:crypto';

export type SignatureCheck =
  { ok: true } | { ok: false; reason: 'missing' | 'malformed' | 'stale' | 'mismatch' };

export interface SignatureInput {
  /** The `Calendly-Webhook-Signature`-style header as Node hands it over. */
  header: string | string[] | null | undefined;
  /** The body exactly as received: the HMAC covers bytes, not re-serialized JSON. */
  rawBody: string | Uint8Array;
  signingKey: string;
  nowMs: number;
  toleranceSeconds?: number;
}

const TIMESTAMP = /^\d{1,12}$/;
const HEX_SHA256 = /^[0-9a-f]{64}$/i;

/**
 * Checks `t=<unix seconds>,v1=<hex HMAC-SHA256(key, "<t>.<rawBody>")>`. Parts may come in any order
 * with whitespace around them; several `v1` values may be sent (key rotation), any match passes;
 * unknown parts are ignored. Order of reasons: missing → malformed → mismatch → stale, so `stale`
 * is only said of an authentic delivery that is too old or too far in the future (a replay or a
 * skewed clock), never of a forgery. An empty signing key verifies nothing.
 */
export function verifySchedulerSignature(input: SignatureInput): SignatureCheck {
  const { header, rawBody, signingKey, nowMs, toleranceSeconds = LIMITS.signatureToleranceSeconds } = input;
  const value = Array.isArray(header) ? header.join(',') : header;
  if (typeof value !== 'string' || value.trim() === '') return { ok: false, reason: 'missing' };

  const parsed = parseHeader(value);
  if (parsed === null) return { ok: false, reason: 'malformed' };
  if (signingKey === '') return { ok: false, reason: 'mismatch' };

  const expected = Buffer.from(hmacHex(parsed.timestamp, rawBody, signingKey), 'hex');
  let matched = false;
  // Every candidate is compared, so the time taken does not tell which one matched.
  for (const candidate of parsed.signatures) {
    if (timingSafeEqual(expected, Buffer.from(candidate, 'hex'))) matched = true;
  }
  if (!matched) return { ok: false, reason: 'mismatch' };

  const ageMs = nowMs - Number(parsed.timestamp) * 1000;
  // A clock that is no number fails closed.
  if (!Number.isFinite(ageMs) || Math.abs(ageMs) > toleranceSeconds * 1000)
    return { ok: false, reason: 'stale' };
  return { ok: true };
}

/** The header value a scheduler would send for this body: `t=<unixSeconds>,v1=<hex>`. */
export function signSchedulerPayload(
  rawBody: string | Uint8Array,
  signingKey: string,
  unixSeconds: number,
): string {
  const timestamp = String(Math.trunc(unixSeconds));
  return `t=${timestamp},v1=${hmacHex(timestamp, rawBody, signingKey)}`;
}

function hmacHex(timestamp: string, rawBody: string | Uint8Array, signingKey: string): string {
  return createHmac('sha256', signingKey).update(`${timestamp}.`).update(rawBody).digest('hex');
}

/**
 * One timestamp (repeating the same value is tolerated, two different ones are not) and at least
 * one well-formed v1 (64 hex digits; others cannot match and are skipped).
 */
function parseHeader(value: string): { timestamp: string; signatures: string[] } | null {
  const timestamps = new Set<string>();
  const signatures: string[] = [];
  for (const part of value.split(',')) {
    const at = part.indexOf('=');
    if (at < 0) continue;
    const key = part.slice(0, at).trim().toLowerCase();
    const item = part.slice(at + 1).trim();
    if (key === 't') timestamps.add(item);
    else if (key === 'v1' && HEX_SHA256.test(item)) signatures.push(item);
  }
  const [timestamp] = timestamps;
  if (timestamps.size !== 1 || timestamp === undefined || !TIMESTAMP.test(timestamp)) return null;
  return signatures.length === 0 ? null : { timestamp, signatures };
}
