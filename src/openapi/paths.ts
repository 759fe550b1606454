import { ERRORS, type ErrorCode } from '../errors.ts';
import { LISTEN_MESSAGE } from '../gateway/result.ts';
import { GATEWAY_PATH } from '../gateway/routes.ts';
import { ref, type Json } from './json-schema.ts';

export const ADMIN_PREFIX = '/v1/admin';

/** Extra headers an error answer carries, by code. */
export const ERROR_HEADERS: Partial<Record<ErrorCode, Record<string, string>>> = {
  METHOD_NOT_ALLOWED: { Allow: 'Allow' },
  RATE_LIMITED: { 'Retry-After': 'RetryAfter' },
  SERVICE_UNAVAILABLE: { 'Retry-After': 'RetryAfter' },
  UNAUTHORIZED: { 'WWW-Authenticate': 'WWWAuthenticate' },
};

const headerRefs = (codes: ErrorCode[]): Json | undefined => {
  const headers: Json = {};
  for (const code of codes) {
    for (const [name, component] of Object.entries(ERROR_HEADERS[code] ?? {})) {
      headers[name] = { $ref: `#/components/headers/${component}` };
    }
  }
  return Object.keys(headers).length > 0 ? headers : undefined;
};

/** The reusable response of one error code (components.responses[code]). */
export function errorResponse(code: ErrorCode): Json {
  const headers = headerRefs([code]);
  return {
    description: `${ERRORS[code].status} ${code}: ${ERRORS[code].error}`,
    ...(headers ? { headers } : {}),
    content: {
      'application/json': {
        schema: ref('ErrorResponse'),
        examples: { [code]: { $ref: `#/components/examples/${code}` } },
      },
    },
  };
}

/**
 * The error answers of one operation, grouped by HTTP status: a status with one code refers to that
 * code's reusable response; a status with several lists each code as a named example.
 */
export function errorResponses(codes: ErrorCode[]): Record<string, Json> {
  const byStatus = new Map<number, ErrorCode[]>();
  for (const code of codes)
    byStatus.set(ERRORS[code].status, [...(byStatus.get(ERRORS[code].status) ?? []), code]);
  const out: Record<string, Json> = {};
  for (const [status, group] of [...byStatus].sort(([a], [b]) => a - b)) {
    const [only] = group;
    if (group.length === 1 && only) {
      out[String(status)] = { $ref: `#/components/responses/${only}` };
      continue;
    }
    const headers = headerRefs(group);
    out[String(status)] = {
      description: group.map((c) => `${c}: ${ERRORS[c].error}`).join('; '),
      ...(headers ? { headers } : {}),
      content: {
        'application/json': {
          schema: ref('ErrorResponse'),
          examples: Object.fromEntries(group.map((c) => [c, { $ref: `#/components/examples/${c}` }])),
        },
      },
    };
  }
  return out;
}

export const json = (schema: Json, examples?: Json): Json => ({
  'application/json': { schema, ...(examples ? { examples } : {}) },
});
const param = (name: string): Json => ({ $ref: `#/components/parameters/${name}` });
export const ok = (description: string, schema: string, status = '200'): Record<string, Json> => ({
  [status]: { description, content: json(ref(schema)) },
});

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
  'RATE_LIMITED',
  'INSERT_FAILED',
  'SERVER_ERROR',
  'LISTEN_INSERT_FAILED',
  'SERVICE_UNAVAILABLE',
];

const LEAD_ID = '3f0c2a9e-5b7d-4c1e-9a8f-2d6b1e4c7a90';
const AGENT_ID = '9b2e7c41-0d3a-4f6b-8e15-7a4c2d9f1b63';

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
      created_at: '2027-01-10T12:00:00Z',
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

const live = { success: true, listen: false, lead_id: LEAD_ID, agent_id: AGENT_ID, auto_sync_enabled: false };
const responseExamples: Json = {
  created: { summary: 'Lead created', value: { ...live, message: 'Lead created', status: 'New' } },
  scheduled: {
    summary: 'Lead created with an appointment',
    value: {
      ...live,
      message: 'Lead created and appointment scheduled',
      status: 'Scheduled',
      scheduled_at: '2027-01-15T19:30:00.000Z',
      appointment_timezone: 'America/Chicago',
      schedule_type: 'appointment',
    },
  },
  resubmit: {
    summary: 'Existing contact merged',
    value: { ...live, message: 'Lead updated', status: 'New', resubmit: true },
  },
  replay: {
    summary: 'Idempotent replay',
    value: { ...live, message: 'Lead created', status: 'New', idempotent_replay: true },
  },
  warnings: {
    summary: 'Lead created with a flagged value',
    value: {
      ...live,
      message: 'Lead created',
      status: 'New',
      warnings: [
        {
          field: 'age',
          code: 'INVALID_AGE',
          message: 'Expected a whole number of years from 18 to 120; kept in custom_fields as "age"',
        },
      ],
    },
  },
  listen: { summary: 'Listen mode', value: { success: true, listen: true, message: LISTEN_MESSAGE } },
  ignored: {
    summary: 'Ignored scheduler event',
    value: { success: true, message: 'Event ignored', ignored: true },
  },
};

function gatewayOperation(viaPath: boolean): Json {
  return {
    tags: ['Gateway'],
    operationId: viaPath ? 'deliverLeadWithPathToken' : 'deliverLead',
    summary: viaPath
      ? 'Deliver a lead, appointment or booking event (token in the path)'
      : 'Deliver a lead, appointment or booking event',
    description: [
      viaPath
        ? 'For senders that cannot set custom headers. An x-source-token header, if also sent, must equal the path token.'
        : 'The source token selects the receiving agent and the lead source.',
      'Order of checks: token present (401) → token valid and active (401) → rate limit (429) → body size (413, above 262,144 bytes) → JSON (400 INVALID_JSON) → name (400 MISSING_NAME) → idempotency key (400/422).',
      "A body that is a JSON object is read as JSON, and one that starts with `<` (or is labelled XML) as XML, whatever the Content-Type says; otherwise application/x-www-form-urlencoded is read as a form (repeated keys become arrays, `custom_fields[key]=value` a nested object) and multipart/form-data as a form with parts (a file part keeps only its name and type). XML: the root element's children are the fields; a DOCTYPE is refused.",
      'Any method other than POST gets 405 METHOD_NOT_ALLOWED with `Allow: POST`, except a CORS preflight for a POST (OPTIONS with Access-Control-Request-Method: POST), which gets 204. Retry 429 and 5xx with backoff (1, 2, 4, 8, 16 s, cap 30 s) under the same idempotency key; do not retry other 4xx.',
    ].join('\n\n'),
    security: viaPath ? [] : [{ sourceTokenHeader: [] }],
    parameters: [...(viaPath ? [param('SourceToken')] : []), param('IdempotencyKey')],
    requestBody: {
      required: true,
      content: {
        'application/json': { schema: ref('GatewayRequest'), examples: requestExamples },
        'application/x-www-form-urlencoded': { schema: ref('LeadSubmission') },
        'multipart/form-data': { schema: ref('LeadSubmission') },
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
            contentSchema: ref('GatewayRequest'),
          },
        },
      },
    },
    responses: {
      '200': {
        description: 'Delivered (or, in Listen mode, sample stored; or scheduler event ignored).',
        content: json(ref('GatewayResponse'), responseExamples),
      },
      ...errorResponses(GATEWAY_ERRORS),
    },
  };
}

export const AUTH: ErrorCode[] = ['UNAUTHORIZED', 'SERVER_ERROR', 'SERVICE_UNAVAILABLE'];
export const AGENT: ErrorCode[] = [
  ...AUTH,
  'MISSING_AGENT_IDENTIFIER',
  'INVALID_AGENT_IDENTIFIER',
  'AGENT_NOT_FOUND',
];
export const SOURCE: ErrorCode[] = [...AUTH, 'MISSING_SOURCE_ID', 'SOURCE_NOT_FOUND'];
export const BODY: ErrorCode[] = ['VALIDATION_ERROR', 'PAYLOAD_TOO_LARGE'];

export function adminOperation(
  operationId: string,
  summary: string,
  opts: { parameters?: string[]; body?: string; responses: Record<string, Json>; errors: ErrorCode[] },
): Json {
  return {
    tags: ['Admin'],
    operationId,
    summary,
    security: [{ adminBearer: [] }],
    ...(opts.parameters ? { parameters: opts.parameters.map(param) } : {}),
    ...(opts.body ? { requestBody: { required: true, content: json(ref(opts.body)) } } : {}),
    responses: { ...opts.responses, ...errorResponses(opts.errors) },
  };
}

export function publicGet(
  operationId: string,
  summary: string,
  responses: Record<string, Json>,
  tag = 'Operations',
): Json {
  return { get: { tags: [tag], operationId, summary, security: [], responses } };
}

export function buildPaths(): Record<string, Json> {
  const a = ADMIN_PREFIX;
  return {
    [GATEWAY_PATH]: { post: gatewayOperation(false) },
    [`${GATEWAY_PATH}/v/{token}`]: { post: gatewayOperation(true) },
    [`${a}/agents`]: {
      post: adminOperation('createAgent', 'Create an agent', {
        body: 'CreateAgentRequest',
        responses: ok('Agent created.', 'Agent', '201'),
        errors: [...AUTH, 'FORBIDDEN', 'EMAIL_TAKEN', ...BODY],
      }),
    },
    [`${a}/agents/{agent_id}`]: {
      get: adminOperation('getAgent', 'Read an agent', {
        parameters: ['AgentId'],
        responses: ok('The agent.', 'Agent'),
        errors: AGENT,
      }),
      patch: adminOperation('updateAgent', 'Rename an agent, change its time zone or its first text', {
        parameters: ['AgentId'],
        body: 'UpdateAgentRequest',
        responses: ok('The agent.', 'Agent'),
        errors: [...AGENT, 'EMAIL_TAKEN', ...BODY],
      }),
    },
    [`${a}/agents/{agent_id}/sources`]: {
      post: adminOperation('createSource', 'Create a lead source and issue its token', {
        parameters: ['AgentId'],
        body: 'CreateSourceRequest',
        responses: ok(
          'Source created; `token` is shown in full only here and on regenerate.',
          'SourceWithToken',
          '201',
        ),
        errors: [...AGENT, ...BODY],
      }),
      get: adminOperation('listSources', 'List an agent’s lead sources (without tokens)', {
        parameters: ['AgentId'],
        responses: ok('The sources.', 'SourceList'),
        errors: AGENT,
      }),
    },
    [`${a}/sources/{source_id}/regenerate`]: {
      post: adminOperation('regenerateSourceToken', 'Issue a new token; the old one is dead at once', {
        parameters: ['SourceId'],
        responses: ok('The source with its new token.', 'SourceWithToken'),
        errors: SOURCE,
      }),
    },
    [`${a}/sources/{source_id}`]: {
      patch: adminOperation('updateSource', 'Enable, disable or rename a lead source', {
        parameters: ['SourceId'],
        body: 'UpdateSourceRequest',
        responses: ok('The source.', 'Source'),
        errors: [...SOURCE, ...BODY],
      }),
    },
    [`${a}/sources/{source_id}/events`]: {
      get: adminOperation('listBookingEvents', 'Booking-scheduler events of a source, newest first', {
        parameters: ['SourceId'],
        responses: ok('The events, acted on or ignored.', 'BookingEventList'),
        errors: SOURCE,
      }),
    },
    [`${a}/agents/{agent_id}/leads`]: {
      get: adminOperation('listLeads', 'An agent’s leads, newest first', {
        parameters: ['AgentId', 'LeadStatus', 'LeadQuery', 'Limit', 'Cursor'],
        responses: ok('One page of leads.', 'LeadList'),
        errors: [...AGENT, 'VALIDATION_ERROR'],
      }),
    },
    [`${a}/leads/{lead_id}`]: {
      get: adminOperation('getLead', 'A lead with its appointments and history', {
        parameters: ['LeadId'],
        responses: ok('The lead.', 'LeadDetail'),
        errors: [...AUTH, 'LEAD_NOT_FOUND'],
      }),
    },
    [`${a}/agents/{agent_id}/agenda`]: {
      get: adminOperation('getAgenda', 'An agent’s appointments in a time window, ordered by time', {
        parameters: ['AgentId', 'AgendaFrom', 'AgendaTo'],
        responses: ok('The agenda.', 'Agenda'),
        errors: [...AGENT, 'VALIDATION_ERROR'],
      }),
    },
    '/healthz': publicGet('getHealth', 'Liveness: the process is up', ok('Up.', 'Health')),
    '/readyz': publicGet('getReadiness', 'Readiness: the database answers', {
      ...ok('Ready.', 'Readiness'),
      ...ok('The database does not answer.', 'Readiness', '503'),
    }),
    '/v1/openapi.json': publicGet(
      'getOpenApiDocument',
      'This OpenAPI document',
      { '200': { description: 'The OpenAPI 3.1 document.', content: json({ type: 'object' }) } },
      'Meta',
    ),
  };
}
