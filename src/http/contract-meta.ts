import type { FastifySchema } from 'fastify';
import { errorResponses } from '../errors.ts';

// The Meta connector's part of the sender contract (docs/sender-contract.md, "Meta Lead Ads"),
// for the OpenAPI document: the envelope's answer and the subscription handshake.

type Json = Record<string, unknown>;

export const queuedAnswer: Json = {
  type: 'object',
  title: 'Queued',
  description:
    "Meta's leadgen envelope, signed: each lead it announces is fetched from the Graph API and written as a lead of the source (a repeated envelope fetches nothing again).",
  required: ['success', 'message', 'listen', 'queued'],
  properties: {
    success: { const: true },
    message: { const: 'Leads queued' },
    listen: { const: false },
    queued: { type: 'array', items: { type: 'string' }, description: 'The leadgen ids announced.' },
  },
  additionalProperties: false,
};

export const queuedExample: Json = {
  summary: "Meta's leadgen envelope queued",
  value: { success: true, message: 'Leads queued', listen: false, queued: ['444444444444'] },
};

/** GET on a source's path URL: Meta's subscription handshake. */
export function handshakeSchema(): FastifySchema {
  return {
    tags: ['Gateway'],
    operationId: 'verifyMetaSubscription',
    summary: "Meta's webhook verification (hub.mode=subscribe)",
    description:
      'Meta verifies a callback URL by a GET with `hub.mode=subscribe`, the verify token set on the source and a challenge: the challenge is answered as sent. A GET without `hub.mode=subscribe` is 405 like any other method but POST.',
    security: [],
    params: {
      type: 'object',
      required: ['token'],
      properties: { token: { type: 'string', format: 'uuid', description: 'The source token.' } },
    },
    querystring: {
      type: 'object',
      properties: {
        'hub.mode': { type: 'string', const: 'subscribe' },
        'hub.verify_token': { type: 'string', description: 'The verify token set on the source.' },
        'hub.challenge': { type: 'string', description: 'Echoed as the answer.' },
      },
    },
    response: {
      200: {
        description: 'The verify token matched: the challenge, as sent.',
        content: { 'text/plain': { schema: { type: 'string', examples: ['1158201444'] } } },
      },
      ...errorResponses(['INVALID_SOURCE_TOKEN', 'INVALID_VERIFY_TOKEN', 'METHOD_NOT_ALLOWED']),
    },
  };
}

/** What a Listen source's delivery is told: kept as a sample, nothing else. */
export const LISTEN_MESSAGE = 'Sample received for mapping. Check the lead source in the app.';
