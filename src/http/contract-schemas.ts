import type { FastifySchema } from 'fastify';
import { LIMITS } from '../limits.ts';
import { errorResponses, type ErrorCode } from '../errors.ts';
import { leadFieldSchemas } from '../ingest/field-schemas.ts';
import { LEAD_STATUSES } from '../leads/lead-status.ts';
import { SCHEDULE_TYPE_SYNONYMS } from '../ingest/tables/synonyms.ts';
import { LISTEN_MESSAGE, queuedAnswer, queuedExample } from './contract-meta.ts';

/**
 * The sender contract as the gateway routes' schemas (docs/sender-contract.md): what a sender
 * may send, and every answer. They document, they do not decide: the contract forbids refusing a
 * lead for its shape (a bad value becomes a warning), and the answers are `toAnswer`'s bytes, so
 * the routes neither validate nor serialize by them (`contractOnly`).
 */

type Json = Record<string, unknown>;

const GATEWAY_ERRORS: ErrorCode[] = [
  'MISSING_NAME',
  'INVALID_JSON',
  'INVALID_IDEMPOTENCY_KEY',
  'MISSING_SOURCE_TOKEN',
  'INVALID_SOURCE_TOKEN',
  'INVALID_SIGNATURE',
  'METHOD_NOT_ALLOWED',
  'REQUEST_TIMEOUT',
  'PAYLOAD_TOO_LARGE',
  'IDEMPOTENCY_KEY_REUSED',
  'LEAD_NOT_ACCEPTED',
  'SOURCE_CAP_REACHED',
  'RATE_LIMITED',
  'INSERT_FAILED',
  'SERVER_ERROR',
  'LISTEN_INSERT_FAILED',
  'SERVICE_UNAVAILABLE',
];

const uuid = { type: 'string', format: 'uuid' };
const dateTime = { type: 'string', format: 'date-time' };

const warning: Json = {
  type: 'object',
  description:
    'A value the gateway could not use as sent. The lead is still created; the raw value is kept in custom_fields under the original field name.',
  required: ['field', 'code', 'message'],
  properties: {
    field: { type: 'string', description: 'The field as sent.' },
    code: {
      type: 'string',
      description:
        'Machine-readable reason, e.g. INVALID_PHONE, INVALID_EMAIL, INVALID_AGE, INVALID_ENUM, STATUS_IGNORED.',
    },
    message: { type: 'string', description: 'Human-readable explanation.' },
  },
};

/** Registered with the app (app.ts): components of the document that the routes refer to. */
export const LeadSubmission: Json = {
  $id: 'LeadSubmission',
  type: 'object',
  description:
    'One lead, optionally with an appointment. The only mandatory content is a contact name: `name`, or `first_name` (and normally `last_name`); without one the answer is 400 MISSING_NAME. Field names are matched case-insensitively, with spaces, dashes and camelCase folded to snake_case, then aliases (cell → phone, coverage_requested → coverage_amount, …). Unknown fields are kept in custom_fields under their original name. An invalid value never rejects the lead: it is kept raw in custom_fields and reported in `warnings`.',
  properties: {
    ...leadFieldSchemas(false),
    listen: { type: 'boolean', default: false, description: '`true` runs the dry run (Listen mode).' },
    idempotency_key: {
      type: 'string',
      minLength: 1,
      maxLength: 255,
      description: 'Alternative to the Idempotency-Key header; the header wins when both are sent.',
    },
    custom_fields: {
      type: 'object',
      description:
        'Free-form partner metadata (strings, numbers, booleans). Conventional keys: join_url, cancel_url, reschedule_url, setter_id, call_recording_url.',
      additionalProperties: true,
    },
  },
  additionalProperties: true,
};

export const BookingEvent: Json = {
  $id: 'BookingEvent',
  type: 'object',
  description:
    'A raw booking-scheduler webhook event forwarded to the gateway. `invitee.created` creates a Scheduled lead; `invitee.canceled` cancels (or, with `rescheduled: true`, reschedules) the appointment; a no-show event marks it. Other events are answered `ignored`. The replay key is the invitee `uri` plus the event name.',
  required: ['event', 'payload'],
  properties: {
    event: { type: 'string', examples: ['invitee.created', 'invitee.canceled'] },
    created_at: dateTime,
    listen: { type: 'boolean', default: false, description: '`true` runs the dry run (Listen mode).' },
    payload: {
      type: 'object',
      description:
        'Invitee members (uri, name, email, timezone, text_reminder_number, questions_and_answers, scheduled_event, tracking) sit directly under payload, or nested under payload.invitee.',
      additionalProperties: true,
    },
  },
  additionalProperties: true,
};

const leadSubmission = { $ref: 'LeadSubmission#' };
const submission: Json = { anyOf: [leadSubmission, { $ref: 'BookingEvent#' }] };

const requestExamples: Json = {
  lead: {
    summary: 'A plain lead',
    value: { first_name: 'Jane', last_name: 'Doe', phone: '(214) 555-0100', state: 'TX' },
  },
  appointment: {
    summary: 'A lead with an appointment',
    value: {
      name: 'Jane Doe',
      email: 'jane@example.com',
      appointment_date: '2027-01-15',
      appointment_time: '1:30 PM',
      appointment_timezone: 'America/Chicago',
      lead_category: 'final-expense',
      custom_fields: { join_url: 'https://meet.example.com/r/1' },
    },
  },
  listen: { summary: 'Listen mode (dry run)', value: { name: 'Jane Doe', listen: true } },
  bookingEvent: {
    summary: 'A booking-scheduler event',
    value: {
      event: 'invitee.created',
      payload: {
        uri: 'https://scheduler.example.com/invitees/abc',
        name: 'Jane Doe',
        email: 'jane@example.com',
        timezone: 'America/Chicago',
        scheduled_event: { name: 'Consultation', start_time: '2027-01-15T19:30:00Z' },
      },
    },
  },
};

const successAnswer: Json = {
  type: 'object',
  title: 'Delivered',
  description: 'A live delivery: the lead was created, merged or replayed (or a no-show applied).',
  required: ['success', 'message', 'listen', 'lead_id', 'agent_id'],
  properties: {
    success: { const: true },
    message: {
      type: 'string',
      examples: [
        'Lead created',
        'Lead created and appointment scheduled',
        'Lead updated',
        'Appointment canceled',
      ],
    },
    listen: { const: false },
    lead_id: { ...uuid, description: 'The CRM’s primary identifier of the lead.' },
    agent_id: { ...uuid, description: 'Agent receiving the lead.' },
    status: { type: 'string', enum: [...LEAD_STATUSES] },
    scheduled_at: { ...dateTime, description: 'Confirmed UTC appointment timestamp.' },
    appointment_timezone: { type: 'string', description: 'Confirmed IANA time zone.' },
    schedule_type: { type: 'string', enum: Object.keys(SCHEDULE_TYPE_SYNONYMS) },
    resubmit: { const: true, description: 'Present when an existing lead was re-engaged and merged.' },
    idempotent_replay: { const: true, description: 'Present when a delivery was replayed within 24 hours.' },
    auto_sync_enabled: {
      type: 'boolean',
      description: '`true` when the source has at least one active outbound partner-sync destination.',
    },
    warnings: { type: 'array', items: warning },
  },
};

const listenAnswer: Json = {
  type: 'object',
  title: 'Listened',
  description: 'Listen mode (dry run): nothing was created; the sample is stored for review.',
  required: ['success', 'listen', 'message'],
  properties: { success: { const: true }, listen: { const: true }, message: { const: LISTEN_MESSAGE } },
  additionalProperties: false,
};

const ignoredAnswer: Json = {
  type: 'object',
  title: 'Ignored',
  description: 'A booking-scheduler event the gateway does not act on; recorded for the agent.',
  required: ['success', 'message', 'ignored'],
  properties: { success: { const: true }, message: { const: 'Event ignored' }, ignored: { const: true } },
  additionalProperties: false,
};

const LEAD_ID = '3f0c2a9e-5b7d-4c1e-9a8f-2d6b1e4c7a90';
const AGENT_ID = '9b2e7c41-0d3a-4f6b-8e15-7a4c2d9f1b63';
const live = { listen: false, lead_id: LEAD_ID, agent_id: AGENT_ID };
const answerExamples: Json = {
  created: {
    summary: 'Lead created',
    value: { success: true, message: 'Lead created', ...live, status: 'New', auto_sync_enabled: false },
  },
  scheduled: {
    summary: 'Lead created with an appointment',
    value: {
      success: true,
      message: 'Lead created and appointment scheduled',
      ...live,
      status: 'Scheduled',
      scheduled_at: '2027-01-15T19:30:00.000Z',
      appointment_timezone: 'America/Chicago',
      schedule_type: 'appointment',
      auto_sync_enabled: false,
    },
  },
  resubmit: {
    summary: 'Existing contact merged',
    value: {
      success: true,
      message: 'Lead updated',
      ...live,
      status: 'New',
      resubmit: true,
      auto_sync_enabled: false,
    },
  },
  warnings: {
    summary: 'Lead created with a flagged value',
    value: {
      success: true,
      message: 'Lead created',
      ...live,
      status: 'New',
      auto_sync_enabled: false,
      warnings: [
        { field: 'age', code: 'INVALID_AGE', message: 'Expected a whole number of years from 18 to 120' },
      ],
    },
  },
  listen: { summary: 'Listen mode', value: { success: true, listen: true, message: LISTEN_MESSAGE } },
  ignored: {
    summary: 'Ignored scheduler event',
    value: { success: true, message: 'Event ignored', ignored: true },
  },
  queued: queuedExample,
};

const DESCRIPTION = [
  'Order of checks: token present (401) → token valid and active (401) → rate limit (429) → body size (413, above ' +
    `${LIMITS.maxBodyBytes.toLocaleString('en-US')} bytes) → JSON (400 INVALID_JSON) → name (400 MISSING_NAME) → idempotency key (400/422).`,
  "A body that is a JSON object is read as JSON, and one that starts with `<` (or is labelled XML) as XML, whatever the Content-Type says; otherwise application/x-www-form-urlencoded is read as a form (repeated keys become arrays, `custom_fields[key]=value` a nested object) and multipart/form-data as a form with parts (a file part keeps only its name and type). XML: the root element's children are the fields; a DOCTYPE is refused.",
  'Any method other than POST gets 405 METHOD_NOT_ALLOWED with `Allow: POST`, except a CORS preflight for a POST (OPTIONS with Access-Control-Request-Method: POST), which gets 204. Retry 429 and 5xx with backoff (1, 2, 4, 8, 16 s, cap 30 s) under the same idempotency key; do not retry other 4xx.',
].join('\n\n');

/** The schema of one gateway endpoint: the token in the x-source-token header, or in the path. */
export function gatewaySchema(viaPath: boolean): FastifySchema {
  return {
    tags: ['Gateway'],
    operationId: viaPath ? 'deliverLeadWithPathToken' : 'deliverLead',
    summary: viaPath
      ? 'Deliver a lead, appointment or booking event (token in the path)'
      : 'Deliver a lead, appointment or booking event',
    description: `${viaPath ? 'For senders that cannot set custom headers. An x-source-token header, if also sent, must equal the path token.' : 'The source token selects the receiving agent and the lead source.'}\n\n${DESCRIPTION}`,
    security: viaPath ? [] : [{ sourceTokenHeader: [] }],
    ...(viaPath
      ? {
          params: {
            type: 'object',
            required: ['token'],
            properties: {
              token: {
                ...uuid,
                description: 'The partner source token, in place of the x-source-token header.',
              },
            },
          },
        }
      : {}),
    headers: {
      type: 'object',
      properties: {
        'idempotency-key': {
          type: 'string',
          minLength: 1,
          maxLength: 255,
          description:
            'Unique per delivery: a retry with the same key within 24 hours replays the first answer with `idempotent_replay: true` instead of creating a duplicate. Wins over the body field `idempotency_key`. Reused for a different contact: 422 IDEMPOTENCY_KEY_REUSED.',
        },
        'x-hub-signature-256': {
          type: 'string',
          description:
            "Meta's signature of a leadgen envelope, `sha256=<hex HMAC-SHA256 of the body, keyed by the app secret>`; missing or wrong: 401 INVALID_SIGNATURE.",
        },
      },
    },
    body: {
      content: {
        'application/json': { schema: { ...submission, 'x-examples': requestExamples } },
        'application/x-www-form-urlencoded': { schema: leadSubmission },
        'multipart/form-data': { schema: leadSubmission },
        'application/xml': {
          schema: {
            type: 'string',
            description:
              'One root element whose child elements are the fields (a repeated element is a list, an attribute sits beside its element as `element@attribute`); no DOCTYPE.',
          },
        },
        'text/plain': {
          schema: {
            type: 'string',
            description: 'The same JSON document, sent as text.',
            contentMediaType: 'application/json',
          },
        },
      },
    },
    response: {
      200: {
        description:
          "Delivered (or, in Listen mode, sample stored; or scheduler event ignored; or Meta's envelope queued).",
        oneOf: [successAnswer, listenAnswer, ignoredAnswer, queuedAnswer],
        'x-examples': answerExamples,
      },
      ...errorResponses(GATEWAY_ERRORS),
    },
  };
}

/**
 * Route options that keep the schemas to the document: every request passes (the gateway reads
 * the raw body itself), and answers are written as `toAnswer` made them, byte for byte.
 */
export const contractOnly = {
  validatorCompiler: () => () => true,
  serializerCompiler: () => (data: unknown) => JSON.stringify(data),
};
