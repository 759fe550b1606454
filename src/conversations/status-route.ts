import type { FastifyInstance } from 'fastify';
import type { Database } from '../db/index.ts';
import { appError, errorResponses } from '../errors.ts';
import { isJsonObject } from '../json.ts';
import { isUuid } from '../sources/tokens.ts';
import { recordProviderStatus, PROVIDER_STATUSES } from './provider-status.ts';
import {
  DOCUMENTED_ONLY,
  formOf,
  formOrJson,
  fromProvider,
  param,
  type ProviderWebhookDeps,
} from './provider-webhooks.ts';

export const SMS_STATUS_PATH = '/v1/sms/status';

/**
 * `POST /v1/sms/status?agent=…&sms=…`: Twilio's status callback for one text (the sender names the
 * text in the callback's address, which Twilio signs): `sent`, `delivered`, `undelivered` or
 * `failed`, with Twilio's error code. Shown on the lead's thread and the deliveries page; a later
 * word never goes back to an earlier one (callbacks may arrive out of order).
 */
export function registerSmsStatus(app: FastifyInstance, deps: ProviderWebhookDeps & { db: Database }): void {
  app.post(SMS_STATUS_PATH, { schema: SMS_STATUS_SCHEMA, ...DOCUMENTED_ONLY }, async (request) => {
    if (!fromProvider(deps, request)) throw appError('UNAUTHORIZED', 'Invalid SMS status credentials');
    const query = isJsonObject(request.query) ? request.query : {};
    const params = formOf(request);
    const agentId = param(query, 'agent');
    const smsId = param(query, 'sms');
    const status = param(params, 'MessageStatus', 'SmsStatus', 'status')?.toLowerCase() ?? null;
    if (!agentId || !isUuid(agentId) || !smsId || !isUuid(smsId) || !status)
      throw appError('VALIDATION_ERROR', 'agent and sms (in the address) and MessageStatus are required');
    const updated = (PROVIDER_STATUSES as readonly string[]).includes(status)
      ? await recordProviderStatus(deps.db, {
          agent_id: agentId.toLowerCase(),
          sms_id: smsId.toLowerCase(),
          provider_id: param(params, 'MessageSid', 'SmsSid', 'message_sid'),
          status: status as (typeof PROVIDER_STATUSES)[number],
          error: param(params, 'ErrorCode', 'error_code'),
        })
      : false;
    return { received: true, updated };
  });
}

const callback = {
  type: 'object',
  properties: {
    MessageSid: { type: 'string' },
    MessageStatus: {
      type: 'string',
      description: '`sent`, `delivered`, `undelivered`, `failed` (others are ignored).',
    },
    ErrorCode: { type: 'string', description: 'Twilio’s error code, e.g. 30007 (filtered by the carrier).' },
    status: { type: 'string' },
    error_code: { type: 'string' },
  },
};

const SMS_STATUS_SCHEMA = {
  tags: ['Automations'],
  operationId: 'receiveSmsStatus',
  summary: 'Twilio’s status callback: what became of a text that was sent',
  description:
    'Authenticated as the inbound webhook is. The address carries `agent` and `sms` (the sender sets it as each text’s StatusCallback).',
  security: [],
  querystring: {
    type: 'object',
    properties: { agent: { type: 'string', format: 'uuid' }, sms: { type: 'string', format: 'uuid' } },
  },
  body: formOrJson(callback),
  response: {
    200: {
      description: 'Received.',
      type: 'object',
      required: ['received', 'updated'],
      properties: {
        received: { const: true },
        updated: {
          type: 'boolean',
          description: 'Whether the text took the status (false: unknown, or older).',
        },
      },
    },
    ...errorResponses(['UNAUTHORIZED', 'VALIDATION_ERROR']),
  },
};
