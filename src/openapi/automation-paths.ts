import { INBOUND_SMS_PATH } from '../automations/inbound-sms-route.ts';
import {
  ADMIN_PREFIX,
  adminOperation,
  AGENT,
  AUTH,
  BODY,
  errorResponses,
  json,
  ok,
  publicGet,
  SOURCE,
} from './paths.ts';
import { ref, type Json } from './json-schema.ts';

/** The operations of the follow-up automations: destinations, deliveries, the dial queue, texts, metrics. */
export function buildAutomationPaths(): Record<string, Json> {
  const a = ADMIN_PREFIX;
  return {
    [`${a}/sources/{source_id}/destinations`]: {
      post: adminOperation(
        'createDestination',
        'Send a source’s events to a URL (partner sync or analytics)',
        {
          parameters: ['SourceId'],
          body: 'CreateDestinationRequest',
          responses: ok(
            'Destination created; `secret` (whsec_…) is shown only here.',
            'DestinationWithSecret',
            '201',
          ),
          errors: [...SOURCE, ...BODY],
        },
      ),
      get: adminOperation('listDestinations', 'A source’s destinations (without secrets)', {
        parameters: ['SourceId'],
        responses: ok('The destinations.', 'DestinationList'),
        errors: SOURCE,
      }),
    },
    [`${a}/destinations/{destination_id}`]: {
      delete: adminOperation(
        'deleteDestination',
        'Stop sending to a destination; its pending deliveries are canceled',
        {
          parameters: ['DestinationId'],
          responses: { '204': { description: 'Removed.' } },
          errors: [...AUTH, 'DESTINATION_NOT_FOUND'],
        },
      ),
    },
    [`${a}/agents/{agent_id}/deliveries`]: {
      get: adminOperation('listDeliveries', 'An agent’s webhook deliveries, newest first', {
        parameters: ['AgentId', 'DeliveryStatus'],
        responses: ok('The deliveries.', 'DeliveryList'),
        errors: [...AGENT, 'VALIDATION_ERROR'],
      }),
    },
    [`${a}/deliveries/{delivery_id}/retry`]: {
      post: adminOperation('retryDelivery', 'Send a delivery again now, with a fresh retry schedule', {
        parameters: ['DeliveryId'],
        responses: ok('The delivery, pending.', 'Delivery'),
        errors: [...AUTH, 'DELIVERY_NOT_FOUND'],
      }),
    },
    [`${a}/agents/{agent_id}/dial-queue`]: {
      get: adminOperation(
        'getDialQueue',
        'An agent’s open call tasks, oldest first, with each prospect’s local time',
        {
          parameters: ['AgentId'],
          responses: ok('The call tasks.', 'DialQueue'),
          errors: AGENT,
        },
      ),
    },
    [INBOUND_SMS_PATH]: {
      post: {
        tags: ['Automations'],
        operationId: 'receiveSms',
        summary: 'The SMS provider’s inbound-message webhook: opt-out words stop texts for good',
        description:
          'Authenticated by `x-sms-secret` (or `?secret=`) equal to SMS_INBOUND_SECRET, or, with Twilio, by `X-Twilio-Signature`. Form (`From`, `Body`) or JSON (`from`, `body`).',
        security: [],
        requestBody: {
          required: true,
          content: {
            ...json(ref('InboundSms')),
            'application/x-www-form-urlencoded': { schema: ref('InboundSms') },
          },
        },
        responses: {
          ...ok('Received.', 'InboundSmsResult'),
          ...errorResponses(['UNAUTHORIZED', 'VALIDATION_ERROR']),
        },
      },
    },
    '/metrics': publicGet(
      'getMetrics',
      'Prometheus metrics: answers, leads, webhooks, texts, latency, outbox depth and lag',
      {
        '200': {
          description: 'Prometheus text format.',
          content: { 'text/plain': { schema: { type: 'string' } } },
        },
      },
    ),
  };
}
