import type { FastifyInstance } from 'fastify';
import type { Database } from '../db/index.ts';
import { registerInboundSms } from './inbound-route.ts';
import type { ProviderWebhookDeps } from './provider-webhooks.ts';
import { registerSmsStatus } from './status-route.ts';

/** The SMS provider's webhooks: inbound texts and the status of the texts sent. Both take Twilio's form. */
export function registerSmsWebhooks(
  scope: FastifyInstance,
  deps: ProviderWebhookDeps & { db: Database },
): void {
  scope.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (_req, text, done) =>
    done(null, Object.fromEntries(new URLSearchParams(String(text)))),
  );
  registerInboundSms(scope, deps);
  registerSmsStatus(scope, deps);
}
