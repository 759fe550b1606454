import { Type, type TSchema } from 'typebox';

/**
 * Every error code the service answers with, its HTTP status and its fixed text.
 * Messages are never written ad hoc: call `appError(code, details?)`.
 */
export const ERRORS = {
  MISSING_SOURCE_TOKEN: { status: 401, error: 'Missing x-source-token' },
  INVALID_SOURCE_TOKEN: { status: 401, error: 'Invalid or inactive token' },
  MISSING_NAME: { status: 400, error: 'Missing required field: name is required' },
  INVALID_JSON: { status: 400, error: 'Invalid JSON body' },
  INVALID_IDEMPOTENCY_KEY: { status: 400, error: 'Invalid idempotency key' },
  INVALID_SIGNATURE: { status: 401, error: 'Invalid webhook signature' },
  INVALID_VERIFY_TOKEN: { status: 403, error: 'Invalid verify token' },
  METHOD_NOT_ALLOWED: { status: 405, error: 'Method not allowed' },
  REQUEST_TIMEOUT: { status: 408, error: 'The request did not arrive in time' },
  HEADERS_TOO_LARGE: { status: 431, error: 'Request headers too large' },
  PAYLOAD_TOO_LARGE: { status: 413, error: 'Payload too large' },
  IDEMPOTENCY_KEY_REUSED: {
    status: 422,
    error: 'Idempotency key already used for a different contact',
  },
  LEAD_NOT_ACCEPTED: { status: 422, error: 'Lead not accepted by this source' },
  SOURCE_CAP_REACHED: { status: 422, error: 'Lead cap reached for this source' },
  RATE_LIMITED: { status: 429, error: 'Too many requests' },
  INSERT_FAILED: { status: 500, error: 'Failed to create lead' },
  SERVER_ERROR: { status: 500, error: 'Internal server error' },
  LISTEN_INSERT_FAILED: { status: 500, error: 'Failed to store listen sample' },
  SERVICE_UNAVAILABLE: { status: 503, error: 'Service temporarily unavailable' },
  UNAUTHORIZED: { status: 401, error: 'Unauthorized' },
  FORBIDDEN: { status: 403, error: 'Forbidden' },
  KEY_NOT_FOUND: { status: 404, error: 'Key not found' },
  TASK_NOT_FOUND: { status: 404, error: 'Call task not found' },
  EMAIL_TAKEN: { status: 409, error: 'Email already in use' },
  SMS_FROM_TAKEN: { status: 409, error: 'Sending number already in use' },
  STATUS_NOT_ALLOWED: { status: 409, error: 'Status change not allowed' },
  CONTACT_OPTED_OUT: { status: 409, error: 'The number opted out or is marked do not contact' },
  CONTACT_SCREENED: { status: 409, error: 'The number is on a list that stops texts' },
  LEAD_HAS_NO_PHONE: { status: 422, error: 'The lead has no phone number' },
  OUTSIDE_CALLING_HOURS: { status: 422, error: 'Outside the prospect’s calling hours' },
  MISSING_AGENT_IDENTIFIER: { status: 400, error: 'Missing agent identifier' },
  INVALID_AGENT_IDENTIFIER: { status: 400, error: 'Invalid agent identifier' },
  AGENT_NOT_FOUND: { status: 404, error: 'Agent not found' },
  MISSING_SOURCE_ID: { status: 400, error: 'Missing source id' },
  SOURCE_NOT_FOUND: { status: 404, error: 'Source not found' },
  LEAD_NOT_FOUND: { status: 404, error: 'Lead not found' },
  RETURN_NOT_FOUND: { status: 404, error: 'Return not found' },
  CADENCE_NOT_FOUND: { status: 404, error: 'Cadence not found' },
  ALREADY_RETURNED: { status: 409, error: 'This purchase was already returned' },
  RETURN_DECIDED: { status: 409, error: 'This return was already decided' },
  RETURN_WINDOW_CLOSED: { status: 422, error: 'The source’s return window has closed' },
  NOTHING_TO_RETURN: { status: 422, error: 'The lead has no billable purchase to return' },
  DESTINATION_NOT_FOUND: { status: 404, error: 'Destination not found' },
  DELIVERY_NOT_FOUND: { status: 404, error: 'Delivery not found' },
  AGENCY_NOT_FOUND: { status: 404, error: 'Agency not found' },
  INVITATION_NOT_FOUND: { status: 404, error: 'Invitation not found' },
  NOT_FOUND: { status: 404, error: 'Not found' },
  VALIDATION_ERROR: { status: 400, error: 'Invalid request' },
} as const;

export type ErrorCode = keyof typeof ERRORS;

export interface ErrorBody {
  error: string;
  error_code: ErrorCode;
  details?: string;
}

export class AppError extends Error {
  readonly code: ErrorCode;
  readonly status: number;
  readonly details: string | undefined;
  readonly headers: Record<string, string>;

  constructor(code: ErrorCode, details?: string, headers: Record<string, string> = {}) {
    super(ERRORS[code].error);
    this.name = 'AppError';
    this.code = code;
    this.status = ERRORS[code].status;
    this.details = details;
    this.headers = headers;
  }

  toBody(): ErrorBody {
    return errorBody(this.code, this.details);
  }
}

/** The one error shape of every answer: `{error, error_code, details?}`. */
export function errorBody(code: ErrorCode, details?: string): ErrorBody {
  const body: ErrorBody = { error: ERRORS[code].error, error_code: code };
  if (details !== undefined) body.details = details;
  return body;
}

export function appError(code: ErrorCode, details?: string, headers?: Record<string, string>): AppError {
  return new AppError(code, details, headers);
}

/**
 * `503 SERVICE_UNAVAILABLE` with `Retry-After`: a failure that will pass (the database unreachable,
 * the process overloaded or shutting down), to be retried after `seconds`
 * (LIMITS.unavailableRetryAfterSeconds). `reason` says which, when it helps the sender.
 */
export function unavailableError(seconds: number, reason?: string): AppError {
  const retry = `etry in ${seconds} s with the same idempotency key`;
  return appError('SERVICE_UNAVAILABLE', reason ? `${reason}; r${retry}` : `R${retry}`, {
    'retry-after': String(seconds),
  });
}

/** The error shape as a schema: every route's error answers, and the OpenAPI document's. */
export const ErrorResponse = Type.Object(
  {
    error: Type.String({ description: 'Human-readable description; fixed per error_code.' }),
    error_code: Type.Unsafe<ErrorCode>({ type: 'string', enum: Object.keys(ERRORS) }),
    details: Type.Optional(
      Type.String({ description: 'What was wrong, in plain words (the field it names).' }),
    ),
  },
  { $id: 'ErrorResponse', description: 'Every error answer: `{error, error_code, details?}`.' },
);

/** Headers some error answers carry, as the OpenAPI document describes them. */
const ERROR_HEADERS: Partial<Record<ErrorCode, Record<string, { description: string; type: string }>>> = {
  METHOD_NOT_ALLOWED: { Allow: { description: 'The only method allowed.', type: 'string' } },
  RATE_LIMITED: { 'Retry-After': { description: 'Seconds to wait before retrying.', type: 'integer' } },
  SERVICE_UNAVAILABLE: {
    'Retry-After': { description: 'Seconds to wait before retrying.', type: 'integer' },
  },
  UNAUTHORIZED: { 'WWW-Authenticate': { description: 'The bearer challenge.', type: 'string' } },
};

/**
 * The error answers of a route, for its response schema: one entry per HTTP status, its
 * description naming each code, and each code's exact body as a named example (`x-examples`,
 * which the OpenAPI document shows as the media type's examples).
 */
export function errorResponses(codes: readonly ErrorCode[]): Record<number, TSchema> {
  const byStatus = new Map<number, ErrorCode[]>();
  for (const code of codes)
    byStatus.set(ERRORS[code].status, [...(byStatus.get(ERRORS[code].status) ?? []), code]);
  const out: Record<number, TSchema> = {};
  for (const [status, group] of byStatus) {
    const headers = Object.assign({}, ...group.map((code) => ERROR_HEADERS[code] ?? {}));
    // A reference: the shape is one component of the document (registered with the app), not a copy per route.
    out[status] = Type.Unsafe({
      allOf: [{ $ref: 'ErrorResponse#' }],
      description: group.map((code) => `${code}: ${ERRORS[code].error}`).join('; '),
      'x-examples': Object.fromEntries(
        group.map((code) => [
          code,
          { summary: `${status} ${code}`, value: errorBody(code, EXAMPLE_DETAILS[code]) },
        ]),
      ),
      ...(Object.keys(headers).length > 0 ? { headers } : {}),
    });
  }
  return out;
}

/** Sample `details` shown with some error examples; the `error` text always comes from ERRORS. */
const EXAMPLE_DETAILS: Partial<Record<ErrorCode, string>> = {
  INVALID_JSON: 'The body must be a JSON object',
  INVALID_IDEMPOTENCY_KEY: 'The idempotency key must be 1 to 255 characters',
  LEAD_NOT_ACCEPTED: 'state OH is not accepted by this source',
  SOURCE_CAP_REACHED: "this source's daily cap of 50 leads is reached for this day",
  RATE_LIMITED: 'Over the limit for this source token; retry in 1 s',
  SERVICE_UNAVAILABLE: 'Retry in 1 s with the same idempotency key',
  UNAUTHORIZED: 'Send Authorization: Bearer <ADMIN_API_KEY>',
  INVALID_AGENT_IDENTIFIER: 'agent_id must be a UUID',
  VALIDATION_ERROR: 'name is required',
};
