import { hash } from 'node:crypto';

/**
 * What makes a resend "the same bytes": the SHA-256 (base64) of the delivery's Content-Type and
 * body, stored with the idempotency key it used. A sender that retries a request it never got an
 * answer to sends exactly these bytes again, and is answered with the stored response without the
 * body being read or mapped again (gateway/exact-retries.ts).
 */
export function bodyDigest(contentType: string | undefined, body: Buffer | undefined): string {
  const head = Buffer.from(`${contentType ?? ''}\0`, 'utf8');
  return hash('sha256', body ? Buffer.concat([head, body]) : head, 'base64');
}
