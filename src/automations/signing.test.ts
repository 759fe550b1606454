import fc from 'fast-check';
import { Webhook } from 'standardwebhooks';
import { describe, expect, it } from 'vitest';
import { newWebhookSecret, webhookHeaders } from './signing.ts';

describe('webhook signing', () => {
  it('When any message is signed, then the signature is the one the standardwebhooks package makes and verifies', () => {
    fc.assert(
      fc.property(
        fc.string({ minLength: 1, maxLength: 40 }),
        fc.string({ unit: 'grapheme', maxLength: 300 }),
        fc.integer({ min: 1_600_000_000_000, max: 2_000_000_000_000 }),
        (id, text, ms) => {
          const body = JSON.stringify({ text });
          const secret = newWebhookSecret();
          const at = new Date(ms);
          const headers = webhookHeaders(secret, id, at, body);
          const hook = new Webhook(secret);
          expect(headers['webhook-signature']).toBe(hook.sign(id, at, body));
          // verify reads the body as JSON and checks the timestamp against the clock.
          const now = new Date();
          expect(() => hook.verify(body, webhookHeaders(secret, id, now, body))).not.toThrow();
        },
      ),
      { numRuns: 300 },
    );
  });
});
