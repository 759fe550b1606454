import { createHmac, timingSafeEqual } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import type { AutomationConfig } from '../config.ts';
import { isJsonObject } from '../json.ts';

/** What the SMS provider's webhooks need of the process. */
export interface ProviderWebhookDeps {
  sms: AutomationConfig['sms'];
  /** `PUBLIC_BASE_URL`, ending in /v1: the address Twilio signs. */
  publicBaseUrl: string;
}

/**
 * Whether a request comes from the SMS provider: the shared secret (`SMS_INBOUND_SECRET`, in
 * `x-sms-secret` or `?secret=`), or Twilio's signature over the URL it called and every POST
 * parameter, sorted by name (HMAC-SHA1 with the auth token, base64).
 */
export function fromProvider(deps: ProviderWebhookDeps, request: FastifyRequest): boolean {
  const { headers, query } = request;
  const secret = deps.sms.inboundSecret;
  if (secret) {
    const given = headers['x-sms-secret'] ?? (isJsonObject(query) ? query.secret : undefined);
    if (typeof given === 'string' && same(given, secret)) return true;
  }
  return signedByTwilio(deps, request);
}

/** Whether Twilio signed the request (`X-Twilio-Signature`) with the configured auth token. */
export function signedByTwilio(deps: ProviderWebhookDeps, request: FastifyRequest): boolean {
  const twilio = deps.sms.twilio;
  const signature = request.headers['x-twilio-signature'];
  if (!twilio || typeof signature !== 'string') return false;
  const params = formOf(request);
  // The URL as Twilio called it: the public base (which ends in /v1) and the path with its query.
  const url = `${deps.publicBaseUrl}${request.url.replace(/^\/v1/, '')}`;
  const data = Object.keys(params)
    .sort()
    .reduce((acc, key) => acc + key + String(params[key]), url);
  return same(signature, createHmac('sha1', twilio.authToken).update(data).digest('base64'));
}

/** The request's parameters: Twilio's form or a JSON object; anything else is none. */
export function formOf(request: FastifyRequest): Record<string, unknown> {
  return isJsonObject(request.body) ? request.body : {};
}

/** A parameter as text, under any of its names (Twilio's `From`, JSON's `from`); null when absent. */
export function param(params: Record<string, unknown>, ...names: string[]): string | null {
  for (const name of names) {
    const value = params[name];
    if (typeof value === 'string') return value;
    if (typeof value === 'number') return String(value);
  }
  return null;
}

function same(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

/** The provider is authenticated before its body is looked at: the schema documents, the handler checks. */
export const DOCUMENTED_ONLY = { validatorCompiler: () => () => true };

/** Twilio's form, or JSON: the content types the provider's webhooks take. */
export const formOrJson = (schema: Record<string, unknown>) => ({
  content: {
    'application/json': { schema },
    'application/x-www-form-urlencoded': { schema },
  },
});
