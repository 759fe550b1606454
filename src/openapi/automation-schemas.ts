import { DELIVERY_STATUSES } from '../automations/delivery-repository.ts';
import { DESTINATION_KINDS } from '../automations/payloads.ts';
import { LIMITS } from '../limits.ts';
import { OUTBOX_TOPICS } from '../outbox/topics.ts';
import { dateTime, list, nullable, ref, uuid, type Json } from './json-schema.ts';

const destination: Json = {
  type: 'object',
  required: ['destination_id', 'agent_id', 'source_id', 'kind', 'url', 'events', 'active', 'created_at'],
  properties: {
    destination_id: uuid,
    agent_id: uuid,
    source_id: uuid,
    kind: { type: 'string', enum: [...DESTINATION_KINDS] },
    url: { type: 'string', format: 'uri' },
    events: {
      type: ['array', 'null'],
      items: { type: 'string', enum: [...OUTBOX_TOPICS] },
      description: 'null: every topic.',
    },
    active: { type: 'boolean' },
    disabled_reason: { type: ['string', 'null'], enum: ['gone', 'failing', null] },
    last_success_at: nullable(dateTime),
    failing_since: nullable(dateTime),
    created_at: dateTime,
  },
};

/** The schemas of the automation operations, merged into the document's components. */
export function buildAutomationSchemas(): Record<string, Json> {
  return {
    UpdateAgentRequest: {
      type: 'object',
      properties: {
        name: { type: 'string', minLength: 1, maxLength: LIMITS.nameMaxLength },
        timezone: { type: 'string' },
        sms_template: { type: ['string', 'null'], maxLength: LIMITS.smsTemplateMaxLength },
        email: {
          type: ['string', 'null'],
          format: 'email',
          maxLength: LIMITS.emailMaxLength,
          description: 'The console login; null removes it. Another agent’s: 409 EMAIL_TAKEN.',
        },
      },
    },
    CreateDestinationRequest: {
      type: 'object',
      required: ['kind', 'url'],
      properties: {
        kind: { type: 'string', enum: [...DESTINATION_KINDS] },
        url: {
          type: 'string',
          format: 'uri',
          maxLength: LIMITS.destinationUrlMaxLength,
          description: 'Public http(s) URL (private networks only with ALLOW_PRIVATE_DESTINATIONS=true).',
        },
        events: { type: 'array', minItems: 1, items: { type: 'string', enum: [...OUTBOX_TOPICS] } },
      },
    },
    Destination: destination,
    DestinationWithSecret: {
      allOf: [
        ref('Destination'),
        {
          type: 'object',
          required: ['secret'],
          properties: { secret: { type: 'string', pattern: '^whsec_' } },
        },
      ],
    },
    DestinationList: list('destinations', 'Destination'),
    Delivery: {
      type: 'object',
      required: ['delivery_id', 'destination_id', 'message_id', 'topic', 'status', 'attempts', 'created_at'],
      properties: {
        delivery_id: uuid,
        destination_id: uuid,
        message_id: {
          ...uuid,
          description: 'The event id: the `webhook-id` header, the same on every retry.',
        },
        lead_id: nullable(uuid),
        topic: { type: 'string', enum: [...OUTBOX_TOPICS] },
        status: { type: 'string', enum: [...DELIVERY_STATUSES] },
        attempts: { type: 'integer', minimum: 0 },
        last_status: { type: ['integer', 'null'] },
        last_error: { type: ['string', 'null'] },
        next_attempt_at: nullable(dateTime),
        delivered_at: nullable(dateTime),
        created_at: dateTime,
      },
    },
    DeliveryList: list('deliveries', 'Delivery'),
    CallTask: {
      type: 'object',
      required: [
        'task_id',
        'lead_id',
        'name',
        'status',
        'created_at',
        'timezone',
        'local_time',
        'calling_hours_open',
      ],
      properties: {
        task_id: uuid,
        lead_id: uuid,
        name: { type: 'string' },
        phone: { type: ['string', 'null'] },
        status: { type: 'string', enum: ['open', 'done'] },
        created_at: dateTime,
        timezone: { type: 'string', description: 'The prospect’s time zone.' },
        local_time: { type: 'string', description: 'The time there now, YYYY-MM-DDTHH:MM.' },
        calling_hours_open: {
          type: 'boolean',
          description:
            'Whether it is inside the calling hours there now (the state’s rule, else 8:00–21:00).',
        },
      },
    },
    DialQueue: list('tasks', 'CallTask'),
    InboundSms: {
      type: 'object',
      properties: {
        From: { type: 'string' },
        Body: { type: 'string' },
        from: { type: 'string' },
        body: { type: 'string' },
      },
    },
    InboundSmsResult: {
      type: 'object',
      required: ['received', 'opted_out'],
      properties: { received: { const: true }, opted_out: { type: 'boolean' }, agents: { type: 'integer' } },
    },
  };
}
