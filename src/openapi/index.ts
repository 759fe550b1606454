import { ERRORS, type ErrorCode } from '../errors.ts';
import { LIMITS } from '../limits.ts';
import { LEAD_STATUSES } from '../leads/lead-status.ts';
import { DELIVERY_STATUSES } from '../automations/delivery-repository.ts';
import { buildAccessPaths, buildAccessSchemas } from './access-paths.ts';
import { buildAutomationPaths } from './automation-paths.ts';
import { buildAutomationSchemas } from './automation-schemas.ts';
import { buildPaths, errorResponse } from './paths.ts';
import { buildSamplePaths } from './sample-paths.ts';
import { buildSampleSchemas } from './sample-schemas.ts';
import type { Json } from './json-schema.ts';
import { buildSchemas, ERROR_CODES } from './schemas.ts';

/** The interface description's own version (docs/sender-contract.md, "Versioning"). */
export const API_VERSION = '3.1.0';

/** Sample `details` shown with some error examples; the `error` text always comes from ERRORS. */
const EXAMPLE_DETAILS: Partial<Record<ErrorCode, string>> = {
  INVALID_JSON: 'The body must be a JSON object',
  INVALID_IDEMPOTENCY_KEY: 'The idempotency key must be 1 to 255 characters',
  PAYLOAD_TOO_LARGE: `The body must be at most ${LIMITS.maxBodyBytes} bytes`,
  RATE_LIMITED: 'Over the limit for this source token; retry in 1 s',
  SERVICE_UNAVAILABLE: 'Retry in 1 s with the same idempotency key',
  INSERT_FAILED: 'The lead violates a database constraint',
  UNAUTHORIZED: 'Send Authorization: Bearer <ADMIN_API_KEY>',
  INVALID_AGENT_IDENTIFIER: 'agent_id must be a UUID',
  VALIDATION_ERROR: 'name is required',
};

function errorExamples(): Record<string, Json> {
  const out: Record<string, Json> = {};
  for (const code of ERROR_CODES) {
    const details = EXAMPLE_DETAILS[code];
    out[code] = {
      summary: `${ERRORS[code].status} ${code}`,
      value: { error: ERRORS[code].error, error_code: code, ...(details ? { details } : {}) },
    };
  }
  return out;
}

const uuidIn = (name: string, location: 'path', description: string): Json => ({
  name,
  in: location,
  required: true,
  description,
  schema: { type: 'string', format: 'uuid' },
});

const query = (name: string, description: string, schema: Json = { type: 'string' }): Json => ({
  name,
  in: 'query',
  required: false,
  description,
  schema,
});

const parameters: Record<string, Json> = {
  IdempotencyKey: {
    name: 'Idempotency-Key',
    in: 'header',
    required: false,
    description:
      'Unique per delivery: a retry with the same key within 24 hours replays the first answer with `idempotent_replay: true` instead of creating a duplicate. 1–255 printable characters; a quoted structured-field string (`"abc"`) equals the bare value. Wins over the body field `idempotency_key`. Reused for a different contact: 422 IDEMPOTENCY_KEY_REUSED; a resend of the very same body and Content-Type is always the first delivery, and gets its answer.',
    schema: { type: 'string', minLength: 1, maxLength: 255 },
  },
  SourceToken: uuidIn(
    'token',
    'path',
    'The partner source token (36-character UUID) in place of the x-source-token header.',
  ),
  AgentId: uuidIn('agent_id', 'path', 'The agent. Not a UUID: 400 INVALID_AGENT_IDENTIFIER.'),
  SourceId: uuidIn('source_id', 'path', 'The lead source. Not a UUID or unknown: 404 SOURCE_NOT_FOUND.'),
  LeadId: uuidIn('lead_id', 'path', 'The lead. Not a UUID or unknown: 404 LEAD_NOT_FOUND.'),
  SampleId: uuidIn('sample_id', 'path', 'A sample of the source. Not a UUID or unknown: 404 NOT_FOUND.'),
  SampleKind: query(
    'listen',
    '`true`: Listen-mode samples only; `false`: refused live deliveries only. Default: both.',
    {
      type: 'string',
      enum: ['true', 'false'],
    },
  ),
  DestinationId: uuidIn(
    'destination_id',
    'path',
    'The destination. Not a UUID or unknown: 404 DESTINATION_NOT_FOUND.',
  ),
  TaskId: uuidIn('task_id', 'path', 'An open call task. Not a UUID, unknown or done: 404 TASK_NOT_FOUND.'),
  KeyId: uuidIn('key_id', 'path', 'An agent API key. Not a UUID or unknown: 404 KEY_NOT_FOUND.'),
  DeliveryId: uuidIn('delivery_id', 'path', 'The delivery. Not a UUID or unknown: 404 DELIVERY_NOT_FOUND.'),
  DeliveryStatus: query('status', 'Only deliveries in this status.', {
    type: 'string',
    enum: [...DELIVERY_STATUSES],
  }),
  LeadStatus: query('status', 'Only leads with this status (case-insensitive).', {
    type: 'string',
    enum: [...LEAD_STATUSES],
  }),
  LeadQuery: query(
    'q',
    'Free text matched against name, email and phone; written like a phone (at least 3 digits), the phone only, by its digits.',
    {
      type: 'string',
      maxLength: 200,
    },
  ),
  Limit: query(
    'limit',
    `Page size, default ${LIMITS.leadsPageDefault}; larger than ${LIMITS.leadsPageMax} is read as ${LIMITS.leadsPageMax}.`,
    {
      type: 'integer',
      minimum: 1,
      default: LIMITS.leadsPageDefault,
    },
  ),
  Cursor: query('cursor', 'The `next_cursor` of the previous page.'),
  AgendaFrom: query(
    'from',
    'ISO-8601 instant, inclusive; without an offset it is read in the agent’s timezone. Default: start of today there.',
    { type: 'string', examples: ['2027-01-15T00:00:00Z'] },
  ),
  AgendaTo: query(
    'to',
    'ISO-8601 instant, exclusive. Default: 30 days after `from`; at most 366 days after it.',
    {
      type: 'string',
      examples: ['2027-02-15T00:00:00Z'],
    },
  ),
};

const headers: Record<string, Json> = {
  Allow: { description: 'The only method allowed.', schema: { type: 'string', const: 'POST' } },
  RetryAfter: { description: 'Seconds to wait before retrying.', schema: { type: 'integer', minimum: 1 } },
  WWWAuthenticate: { description: 'The bearer challenge.', schema: { type: 'string' } },
};

/** The whole OpenAPI 3.1 document of the gateway, the admin API and the operational endpoints. */
export function buildOpenApiDocument(): Record<string, unknown> {
  return {
    openapi: '3.1.0',
    info: {
      title: 'Leadgate: inbound lead gateway',
      version: API_VERSION,
      description:
        'Webhook-style ingestion of leads, appointments and booking-scheduler events into an insurance-agent CRM, and the admin API that issues source tokens and reads leads back. Every error has the shape `{error, error_code, details?}`. Senders: the guide is docs/senders.md in the Leadgate repository (endpoints, token forms, fields, errors and which to retry, idempotency, Listen mode, booking schedulers, examples in curl, Node and Python); the exact contract is docs/sender-contract.md.',
    },
    servers: [{ url: '/' }],
    tags: [
      { name: 'Gateway', description: 'What senders call. Authenticated by a partner source token.' },
      {
        name: 'Admin',
        description: 'What the agent and the operator call. `Authorization: Bearer <ADMIN_API_KEY>`.',
      },
      { name: 'Automations', description: 'What SMS providers call.' },
      { name: 'Operations', description: 'Health checks and metrics.' },
      { name: 'Meta', description: 'This document.' },
    ],
    paths: { ...buildPaths(), ...buildSamplePaths(), ...buildAutomationPaths(), ...buildAccessPaths() },
    components: {
      schemas: {
        ...buildSchemas(),
        ...buildSampleSchemas(),
        ...buildAutomationSchemas(),
        ...buildAccessSchemas(),
      },
      securitySchemes: {
        sourceTokenHeader: {
          type: 'apiKey',
          in: 'header',
          name: 'x-source-token',
          description:
            'Partner source token (36-character UUID); selects the receiving agent and lead source.',
        },
        adminBearer: {
          type: 'http',
          scheme: 'bearer',
          description:
            'The ADMIN_API_KEY (the operator: every agent), or an agent API key (that agent only: another agent’s records answer 404 as if missing; operator-only operations 403 FORBIDDEN).',
        },
      },
      parameters,
      headers,
      examples: errorExamples(),
      responses: Object.fromEntries(ERROR_CODES.map((code) => [code, errorResponse(code)])),
    },
  };
}
