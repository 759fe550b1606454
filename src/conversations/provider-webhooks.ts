import { createHmac, timingSafeEqual } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import type { AutomationConfig } from '../config.ts';
import type { Database } from '../db/index.ts';
import { appError, errorResponses } from '../errors.ts';
import { normalizePhone } from '../ingest/normalize/phone.ts';
import { isJsonObject } from '../json.ts';
import { recordOptOut } from './opt-out-repository.ts';
import { revocation } from './revocation.ts';

export const INBOUND_SMS_PATH = '/v1/sms/inbound';

/**
 * `POST /v1/sms/inbound`: the SMS provider's inbound-message webhook. A reply that revokes consent,
 * by keyword (STOP, ALTO, …) or in plain words ("stop texting me", "número equivocado"), opts the
 * number out of texts and calls for good, for every agent it reaches (recordOptOut), and gets one
 * confirmation text. Authenticated by a shared secret
 * (`SMS_INBOUND_SECRET`, in `x-sms-secret` or `?secret=`) or, with Twilio, by its request signature.
 * Takes Twilio's form (`From`, `Body`) or JSON (`from`, `body`).
 */
export async function registerInboundSms(
  app: FastifyInstance,
  deps: { db: Database; sms: AutomationConfig['sms']; publicBaseUrl: string },
): Promise<void> {
  app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (_req, text, done) =>
    done(null, Object.fromEntries(new URLSearchParams(String(text)))),
  );
  app.post(INBOUND_SMS_PATH, { schema: INBOUND_SMS_SCHEMA, ...DOCUMENTED_ONLY }, async (request) => {
    const params = isJsonObject(request.body) ? request.body : {};
    if (!authentic(deps, request.headers, request.query, params))
      throw appError('UNAUTHORIZED', 'Invalid inbound SMS credentials');
    const from = params.From ?? params.from;
    const text = params.Body ?? params.body;
    const phone = normalizePhone(typeof from === 'string' ? from : '');
    if (!phone.ok || typeof text !== 'string')
      throw appError('VALIDATION_ERROR', 'from must be a phone number and body a text');
    const how = revocation(text);
    if (!how) return { received: true, opted_out: false };
    const recorded = await recordOptOut(deps.db, phone.value, how, new Date());
    request.log.info({ ...recorded, by: how.by }, 'SMS opt-out recorded');
    return { received: true, opted_out: true, agents: recorded.agents };
  });
}

const message = {
  type: 'object',
  properties: {
    From: { type: 'string' },
    Body: { type: 'string' },
    from: { type: 'string' },
    body: { type: 'string' },
  },
};

/** For the OpenAPI document: the provider's form or JSON, and what it is told. */
const INBOUND_SMS_SCHEMA = {
  tags: ['Automations'],
  operationId: 'receiveSms',
  summary:
    'The SMS provider’s inbound-message webhook: an opt-out, by keyword or in plain words, stops texts and calls for good',
  description:
    'Authenticated by `x-sms-secret` (or `?secret=`) equal to SMS_INBOUND_SECRET, or, with Twilio, by `X-Twilio-Signature`. Form (`From`, `Body`) or JSON (`from`, `body`).',
  security: [],
  body: {
    content: {
      'application/json': { schema: message },
      'application/x-www-form-urlencoded': { schema: message },
    },
  },
  response: {
    200: {
      description: 'Received.',
      type: 'object',
      required: ['received', 'opted_out'],
      properties: { received: { const: true }, opted_out: { type: 'boolean' }, agents: { type: 'integer' } },
    },
    ...errorResponses(['UNAUTHORIZED', 'VALIDATION_ERROR']),
  },
};

/** The provider is authenticated before its body is looked at: the schema documents, the handler checks. */
const DOCUMENTED_ONLY = { validatorCompiler: () => () => true };

function authentic(
  deps: { sms: AutomationConfig['sms']; publicBaseUrl: string },
  headers: Record<string, string | string[] | undefined>,
  query: unknown,
  params: Record<string, unknown>,
): boolean {
  const secret = deps.sms.inboundSecret;
  if (secret) {
    const given = headers['x-sms-secret'] ?? (isJsonObject(query) ? query.secret : undefined);
    if (typeof given === 'string' && same(given, secret)) return true;
  }
  const twilio = deps.sms.twilio;
  const signature = headers['x-twilio-signature'];
  if (twilio && typeof signature === 'string') {
    // Twilio signs the URL it called plus every POST parameter, sorted by name (HMAC-SHA1, base64).
    const url = `${deps.publicBaseUrl}${INBOUND_SMS_PATH.slice(3)}`;
    const data = Object.keys(params)
      .sort()
      .reduce((acc, key) => acc + key + String(params[key]), url);
    return same(signature, createHmac('sha1', twilio.authToken).update(data).digest('base64'));
  }
  return false;
}

function same(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}
