import { APPOINTMENT_STATUSES } from '../appointments/transitions.ts';
import { dateTime, list, nullable, ref, uuid, type Json } from './json-schema.ts';
import { ERRORS, type ErrorCode } from '../errors.ts';
import { SCHEDULE_TYPE_SYNONYMS } from '../ingest/tables/synonyms.ts';
import { leadFieldSchemas } from './lead-fields.ts';
import { LIMITS } from '../limits.ts';
import { LEAD_STATUSES } from '../leads/lead-status.ts';
import { LISTEN_MESSAGE } from '../gateway/result.ts';

/** A piece of the OpenAPI document: plain JSON. */
export const ERROR_CODES = Object.keys(ERRORS) as ErrorCode[];

/** The enum fields of the submission: their values are the keys of the synonym tables. */
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

const leadSubmission: Json = {
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

const bookingEvent: Json = {
  type: 'object',
  description:
    'A raw booking-scheduler webhook event forwarded to the gateway. `invitee.created` creates a Scheduled lead; `invitee.canceled` cancels (or, with `rescheduled: true`, reschedules) the appointment. Other events are answered with IgnoredEventResponse. The replay key is the invitee `uri` plus the event name.',
  required: ['event', 'payload'],
  properties: {
    event: { type: 'string', examples: ['invitee.created', 'invitee.canceled'] },
    created_at: dateTime,
    listen: { type: 'boolean', default: false, description: '`true` runs the dry run (Listen mode).' },
    payload: {
      type: 'object',
      description: 'Invitee members sit directly under payload (or nested under payload.invitee).',
      properties: {
        uri: { type: 'string', description: 'Invitee URI; becomes the lead’s idempotency_key.' },
        name: { type: 'string' },
        email: { type: 'string' },
        timezone: { type: 'string', description: 'IANA name; becomes appointment_timezone.' },
        text_reminder_number: { type: 'string', description: 'Becomes phone.' },
        cancel_url: { type: 'string' },
        reschedule_url: { type: 'string' },
        rescheduled: { type: 'boolean' },
        questions_and_answers: {
          type: 'array',
          items: {
            type: 'object',
            properties: { question: { type: 'string' }, answer: { type: 'string' } },
          },
        },
        scheduled_event: {
          type: 'object',
          properties: {
            uri: { type: 'string' },
            name: { type: 'string', description: 'Becomes campaign_name.' },
            start_time: dateTime,
            end_time: dateTime,
            location: {
              type: 'object',
              properties: { type: { type: 'string' }, join_url: { type: 'string' } },
            },
            event_memberships: {
              type: 'array',
              items: {
                type: 'object',
                properties: { user_name: { type: 'string' }, user_email: { type: 'string' } },
              },
            },
          },
        },
        tracking: {
          type: 'object',
          properties: { utm_source: { type: 'string' }, utm_campaign: { type: 'string' } },
        },
        invitee: { type: 'object', additionalProperties: true },
      },
      additionalProperties: true,
    },
  },
  additionalProperties: true,
};

const successResponse: Json = {
  type: 'object',
  description: 'A live delivery: the lead was created, merged or replayed.',
  required: ['success', 'message', 'lead_id', 'agent_id', 'status'],
  properties: {
    success: { const: true },
    message: {
      type: 'string',
      examples: ['Lead created', 'Lead created and appointment scheduled', 'Lead updated'],
    },
    listen: { type: 'boolean', const: false },
    lead_id: { ...uuid, description: 'The CRM’s primary identifier of the lead.' },
    agent_id: { ...uuid, description: 'Agent receiving the lead.' },
    status: { type: 'string', enum: [...LEAD_STATUSES] },
    scheduled_at: { ...dateTime, description: 'Confirmed UTC appointment timestamp.' },
    appointment_timezone: { type: 'string', description: 'Confirmed IANA timezone.' },
    schedule_type: { type: 'string', enum: Object.keys(SCHEDULE_TYPE_SYNONYMS) },
    resubmit: { const: true, description: 'Present when an existing lead was re-engaged and merged.' },
    idempotent_replay: {
      const: true,
      description: 'Present when a cached delivery was replayed within 24 hours.',
    },
    auto_sync_enabled: {
      type: 'boolean',
      description: '`true` when the source has at least one active outbound partner-sync destination.',
    },
    warnings: { type: 'array', items: ref('Warning') },
  },
};

const listenResponse: Json = {
  type: 'object',
  description: 'Listen mode (dry run): nothing was created; the sample is stored for review.',
  required: ['success', 'listen', 'message'],
  properties: { success: { const: true }, listen: { const: true }, message: { const: LISTEN_MESSAGE } },
  additionalProperties: false,
};

const ignoredEventResponse: Json = {
  type: 'object',
  description: 'A booking-scheduler event the gateway does not act on; recorded for the agent.',
  required: ['success', 'message', 'ignored'],
  properties: { success: { const: true }, message: { const: 'Event ignored' }, ignored: { const: true } },
  additionalProperties: false,
};

const errorResponse: Json = {
  type: 'object',
  required: ['error', 'error_code'],
  properties: {
    error: { type: 'string', description: 'Human-readable description; fixed per error_code.' },
    error_code: { type: 'string', enum: ERROR_CODES },
    details: { type: 'string', description: 'Optional diagnostics.' },
  },
};

const agent: Json = {
  type: 'object',
  required: ['agent_id', 'name', 'timezone'],
  properties: {
    agent_id: uuid,
    name: { type: 'string' },
    timezone: { type: 'string', description: 'IANA timezone (default America/New_York).' },
    email: { type: ['string', 'null'], description: 'The agent’s console login; null: none.' },
    sms_template: {
      type: ['string', 'null'],
      description:
        'The first text new leads get ({agent_name}, {first_name}, {appointment_time}); null: the default.',
    },
    created_at: dateTime,
  },
};

const source: Json = {
  type: 'object',
  required: ['source_id', 'agent_id', 'name', 'active'],
  properties: {
    source_id: uuid,
    agent_id: uuid,
    name: { type: 'string' },
    active: { type: 'boolean', description: 'A disabled source’s token gets 401 INVALID_SOURCE_TOKEN.' },
    created_at: dateTime,
    updated_at: dateTime,
    has_signing_key: { type: 'boolean' },
    rate_limit_rps: {
      type: ['integer', 'null'],
      description: 'The source’s own rate limit, requests per second; null: the server’s RATE_LIMIT_RPS.',
    },
    rate_limit_burst: {
      type: ['integer', 'null'],
      description: 'The source’s own burst; null: the server’s RATE_LIMIT_BURST.',
    },
  },
};

const sourceWithToken: Json = {
  allOf: [
    ref('Source'),
    {
      type: 'object',
      required: ['token', 'webhook_url'],
      properties: {
        token: { ...uuid, description: 'The source token in full. Shown only here: it is stored as a hash.' },
        webhook_url: {
          type: 'string',
          format: 'uri',
          description: 'The gateway URL with the token in the path.',
        },
      },
    },
  ],
};

const appointmentProperties: Record<string, Json> = {
  appointment_id: uuid,
  lead_id: uuid,
  scheduled_at: dateTime,
  appointment_timezone: { type: 'string' },
  schedule_type: { type: 'string', enum: Object.keys(SCHEDULE_TYPE_SYNONYMS) },
  status: { type: 'string', enum: [...APPOINTMENT_STATUSES] },
  setter_dialer_name: nullable('string'),
  join_url: nullable('string'),
  cancel_url: nullable('string'),
  reschedule_url: nullable('string'),
  external_id: nullable('string'),
};

const appointment: Json = {
  type: 'object',
  required: ['appointment_id', 'lead_id', 'scheduled_at', 'appointment_timezone', 'schedule_type', 'status'],
  properties: appointmentProperties,
};

const agendaItem: Json = {
  type: 'object',
  required: [
    'appointment_id',
    'lead_id',
    'name',
    'scheduled_at',
    'appointment_timezone',
    'schedule_type',
    'status',
  ],
  properties: {
    appointment_id: uuid,
    lead_id: uuid,
    name: { type: 'string', description: 'The lead’s name.' },
    scheduled_at: dateTime,
    appointment_timezone: { type: 'string' },
    schedule_type: appointmentProperties.schedule_type,
    status: appointmentProperties.status,
    setter_dialer_name: nullable('string'),
    join_url: nullable('string'),
    cancel_url: nullable('string'),
    reschedule_url: nullable('string'),
  },
};

const lead: Json = {
  type: 'object',
  description:
    'A lead record: every canonical field by its name (null when the lead has none), then the record’s own attributes.',
  required: [
    'lead_id',
    'agent_id',
    'source_id',
    'status',
    'name',
    'custom_fields',
    'created_at',
    'updated_at',
  ],
  properties: {
    lead_id: uuid,
    agent_id: uuid,
    source_id: uuid,
    ...leadFieldSchemas(true),
    status: { type: 'string', enum: [...LEAD_STATUSES] },
    name: { type: 'string' },
    idempotency_key: nullable('string'),
    custom_fields: { type: 'object', additionalProperties: true },
    consent: {
      type: ['object', 'null'],
      description:
        'Texting consent as the latest delivery that stated `sms_consent` gave it, with its evidence and arrival time; null until one does.',
      required: ['sms_consent', 'consent_cert_url', 'ip_address', 'user_agent', 'source_id', 'received_at'],
      properties: {
        sms_consent: { type: 'boolean' },
        consent_cert_url: nullable('string'),
        consent_token: nullable('string'),
        ip_address: nullable('string'),
        user_agent: nullable('string'),
        source_id: uuid,
        received_at: dateTime,
      },
    },
    body_format: {
      type: ['string', 'null'],
      description:
        'How the latest delivery’s body was read: `flat`, `field_list`, or the envelope adapter (`meta_lead_ads`, `typeform` …); null for leads stored before it was recorded.',
    },
    created_at: dateTime,
    updated_at: dateTime,
  },
  additionalProperties: true,
};

const historyEntry: Json = {
  type: 'object',
  required: ['history_id', 'event', 'created_at'],
  properties: {
    history_id: uuid,
    event: { type: 'string', examples: ['created'] },
    source_id: nullable(uuid),
    changes: { description: 'Older values a merge replaced, by field.' },
    details: {},
    created_at: dateTime,
  },
};

const leadDetail: Json = {
  allOf: [
    ref('Lead'),
    {
      type: 'object',
      required: ['appointments', 'history'],
      properties: {
        appointments: { type: 'array', items: ref('Appointment') },
        history: { type: 'array', items: ref('HistoryEntry') },
      },
    },
  ],
};

const bookingEventLogEntry: Json = {
  type: 'object',
  description: 'A booking-scheduler event as received, and what the gateway did with it.',
  required: ['event_id', 'received_at', 'event', 'invitee_uri', 'lead_id', 'outcome', 'payload'],
  properties: {
    event_id: uuid,
    received_at: dateTime,
    event: { type: 'string', examples: ['invitee.created', 'routing_form_submission.created'] },
    invitee_uri: { type: ['string', 'null'] },
    lead_id: { type: ['string', 'null'], format: 'uuid' },
    outcome: {
      type: 'string',
      enum: [
        'lead_created',
        'lead_updated',
        'appointment_canceled',
        'appointment_rescheduled',
        'no_show_marked',
        'no_show_removed',
        'ignored',
        'ignored_unknown_invitee',
      ],
    },
    payload: { type: 'object', description: 'The event body as received.', additionalProperties: true },
  },
};

export function buildSchemas(): Record<string, Json> {
  return {
    LeadSubmission: leadSubmission,
    BookingEvent: bookingEvent,
    GatewayRequest: { anyOf: [ref('LeadSubmission'), ref('BookingEvent')] },
    Warning: warning,
    SuccessResponse: successResponse,
    ListenResponse: listenResponse,
    IgnoredEventResponse: ignoredEventResponse,
    GatewayResponse: { oneOf: [ref('SuccessResponse'), ref('ListenResponse'), ref('IgnoredEventResponse')] },
    ErrorResponse: errorResponse,
    Agent: agent,
    CreateAgentRequest: {
      type: 'object',
      required: ['name'],
      properties: {
        name: { type: 'string', minLength: 1, maxLength: 200 },
        timezone: { type: 'string', description: 'IANA timezone, e.g. America/Chicago.' },
        email: {
          type: 'string',
          format: 'email',
          maxLength: 254,
          description: 'The console login (unique, any case). Another agent’s: 409 EMAIL_TAKEN.',
        },
      },
    },
    Source: source,
    SourceWithToken: sourceWithToken,
    SourceList: list('sources', 'Source'),
    CreateSourceRequest: {
      type: 'object',
      required: ['name'],
      properties: { name: { type: 'string', minLength: 1, maxLength: 200 } },
    },
    UpdateSourceRequest: {
      type: 'object',
      properties: {
        active: { type: 'boolean', description: '`false` disables the token at once.' },
        name: { type: 'string', minLength: 1, maxLength: 200 },
        signing_key: {
          type: ['string', 'null'],
          minLength: 1,
          maxLength: 1024,
          description: 'Webhook signing secret; null removes it. Never returned (see has_signing_key).',
        },
        rate_limit_rps: {
          type: ['integer', 'null'],
          minimum: 1,
          maximum: 10000,
          description:
            'Raise (or lower) this source’s rate for a big import; null returns to the server’s default.',
        },
        rate_limit_burst: { type: ['integer', 'null'], minimum: 1, maximum: 100000 },
      },
    },
    Lead: lead,
    LeadDetail: leadDetail,
    LeadList: list('leads', 'Lead', {
      next_cursor: {
        type: ['string', 'null'],
        description: `Pass as cursor for the next page (at most ${LIMITS.leadsPageMax} leads a page).`,
      },
    }),
    Appointment: appointment,
    AgendaItem: agendaItem,
    Agenda: list('appointments', 'AgendaItem'),
    HistoryEntry: historyEntry,
    BookingEventLogEntry: bookingEventLogEntry,
    BookingEventList: list('events', 'BookingEventLogEntry'),
    Health: { type: 'object', required: ['status'], properties: { status: { const: 'ok' } } },
    Readiness: {
      type: 'object',
      required: ['status', 'database'],
      properties: {
        status: { type: 'string', enum: ['ready', 'unavailable'] },
        database: { type: 'string', enum: ['postgres', 'pglite'] },
      },
    },
  };
}
