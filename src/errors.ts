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
  METHOD_NOT_ALLOWED: { status: 405, error: 'Method not allowed' },
  REQUEST_TIMEOUT: { status: 408, error: 'The request did not arrive in time' },
  HEADERS_TOO_LARGE: { status: 431, error: 'Request headers too large' },
  PAYLOAD_TOO_LARGE: { status: 413, error: 'Payload too large' },
  IDEMPOTENCY_KEY_REUSED: {
    status: 422,
    error: 'Idempotency key already used for a different contact',
  },
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
  MISSING_AGENT_IDENTIFIER: { status: 400, error: 'Missing agent identifier' },
  INVALID_AGENT_IDENTIFIER: { status: 400, error: 'Invalid agent identifier' },
  AGENT_NOT_FOUND: { status: 404, error: 'Agent not found' },
  MISSING_SOURCE_ID: { status: 400, error: 'Missing source id' },
  SOURCE_NOT_FOUND: { status: 404, error: 'Source not found' },
  LEAD_NOT_FOUND: { status: 404, error: 'Lead not found' },
  DESTINATION_NOT_FOUND: { status: 404, error: 'Destination not found' },
  DELIVERY_NOT_FOUND: { status: 404, error: 'Delivery not found' },
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
