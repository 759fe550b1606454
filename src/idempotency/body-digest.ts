import { createHash } from 'node:crypto';

/**
 * What makes a resend "the same bytes": the SHA-256 (base64) of the delivery's Content-Type and
 * body, stored with the idempotency key it used. A sender that retries a request it never got an
 * answer to sends exactly these bytes again, and is answered with the stored response without the
 * body being read or mapped again (gateway/exact-retries.ts).
 */
export function bodyDigest(contentType: string | undefined, body: Buffer | undefined): string {
  return createHash('sha256')
    .update(contentType ?? '')
    .update('\0')
    .update(body ?? Buffer.alloc(0))
    .digest('base64');
}
