import { createHmac, randomBytes } from 'node:crypto';

/** A new destination secret, in the Standard Webhooks form: `whsec_` + base64 of 24 random bytes. */
export function newWebhookSecret(): string {
  return `whsec_${randomBytes(24).toString('base64')}`;
}

/**
 * The Standard Webhooks headers of one request: `webhook-id` (the outbox message id, stable across
 * retries, so a receiver drops repeats), `webhook-timestamp` (seconds) and
 * `webhook-signature: v1,<base64 HMAC-SHA256 of "id.timestamp.body">`, keyed by the secret's
 * base64 part. Made with node:crypto (the `standardwebhooks` package's pure-JS SHA-256 cost the
 * dispatcher more than its database work); the tests verify it with that package, as receivers do.
 */
export function webhookHeaders(
  secret: string,
  messageId: string,
  at: Date,
  body: string,
): Record<string, string> {
  return {
    'webhook-id': messageId,
    'webhook-timestamp': String(Math.floor(at.getTime() / 1000)),
    'webhook-signature': `v1,${sign(secret, messageId, at, body)}`,
  };
}

function sign(secret: string, messageId: string, at: Date, body: string): string {
  const key = Buffer.from(secret.startsWith('whsec_') ? secret.slice(6) : secret, 'base64');
  const timestamp = Math.floor(at.getTime() / 1000);
  return createHmac('sha256', key).update(`${messageId}.${timestamp}.${body}`).digest('base64');
}
