import type { FastifySchemaValidationError } from 'fastify';
import { appError, type AppError, type ErrorCode } from '../errors.ts';
import { DIGITS, STORABLE, STORABLE_TEXT } from './schemas/common.ts';
import { EMAIL_PATTERN } from './schemas/agents.ts';

/** A path id that fails its schema names nothing: the answer an unknown one gets. */
const PARAM_CODES: Record<string, ErrorCode> = {
  agent_id: 'INVALID_AGENT_IDENTIFIER',
  source_id: 'SOURCE_NOT_FOUND',
  lead_id: 'LEAD_NOT_FOUND',
  sample_id: 'NOT_FOUND',
  destination_id: 'DESTINATION_NOT_FOUND',
  delivery_id: 'DELIVERY_NOT_FOUND',
  task_id: 'TASK_NOT_FOUND',
  key_id: 'KEY_NOT_FOUND',
  agency_id: 'AGENCY_NOT_FOUND',
  return_id: 'RETURN_NOT_FOUND',
  cadence_id: 'CADENCE_NOT_FOUND',
  invitation_id: 'INVITATION_NOT_FOUND',
};

const TYPE_WORDS: Record<string, string> = {
  string: 'a string',
  boolean: 'true or false',
  integer: 'a whole number',
  number: 'a number',
  array: 'a list',
  object: 'an object',
};

/**
 * Fastify's schema error formatter for the admin API: the first failure of a request's schema as
 * our error shape, `details` naming the field in plain words (`name is required`), never Ajv's
 * own text. A path id that fails is the 400/404 an unknown id gets.
 */
export function validationError(errors: FastifySchemaValidationError[], part: string): AppError {
  const [error] = errors;
  if (!error) return appError('VALIDATION_ERROR');
  const field = fieldOf(error);
  if (part === 'params') {
    const code = PARAM_CODES[field] ?? 'NOT_FOUND';
    return appError(code, code === 'INVALID_AGENT_IDENTIFIER' ? 'agent_id must be a UUID' : undefined);
  }
  if (field === '' && part === 'body') return appError('VALIDATION_ERROR', 'The body must be a JSON object');
  return appError('VALIDATION_ERROR', `${field} ${words(error, part)}`);
}

/** `name`, `events[0]`, or the missing property of a `required` failure. */
function fieldOf(error: FastifySchemaValidationError): string {
  const path = error.instancePath
    .split('/')
    .slice(1)
    .map((step) => step.replace(/~1/g, '/').replace(/~0/g, '~'))
    .map((step, i) => (i > 0 && /^\d+$/.test(step) ? `[${step}]` : i > 0 ? `.${step}` : step))
    .join('');
  const missing = error.params.missingProperty;
  if (error.keyword === 'required' && typeof missing === 'string')
    return path ? `${path}.${missing}` : missing;
  return path;
}

function words(error: FastifySchemaValidationError, part: string): string {
  const p = error.params;
  const schema = (error as { parentSchema?: Record<string, unknown> }).parentSchema ?? {};
  const orNull = Array.isArray(schema.type) && schema.type.includes('null') ? ', or null' : '';
  // A member an object's `propertyNames` does not allow: Ajv reports the name's failure first.
  const member = (error as { propertyName?: unknown }).propertyName;
  if (typeof member === 'string') return `has no member ${member}`;
  switch (error.keyword) {
    case 'required':
      return 'is required';
    case 'type': {
      // Query values are text; one that is not came as a repeated parameter.
      if (part === 'querystring') return 'must be given once';
      const types = String(p.type)
        .split(',')
        .filter((t) => t !== 'null');
      return `must be ${types.map((t) => TYPE_WORDS[t] ?? t).join(' or ')}${orNull}`;
    }
    case 'enum': {
      const values = (p.allowedValues as unknown[]).filter((v) => v !== null).map(String);
      if (values.join() === 'true,false') return `must be true or false${orNull}`;
      return `must be one of ${values.join(', ')}${orNull}`;
    }
    case 'minLength':
      return p.limit === 1 ? 'must not be empty' : `must be at least ${String(p.limit)} characters`;
    case 'maxLength':
      return `must be at most ${String(p.limit)} characters`;
    case 'minimum':
    case 'maximum':
      return `must be a whole number from ${String(schema.minimum)} to ${String(schema.maximum)}${orNull}`;
    case 'minItems':
      return 'must not be an empty list';
    case 'maxItems':
      return `must have at most ${String(p.limit)} items`;
    case 'uniqueItems':
      return 'must not name an item twice';
    case 'format':
      return p.format === 'uuid' ? 'must be a UUID' : `must be a valid ${String(p.format)}`;
    case 'pattern':
      return patternWords(String(p.pattern), (error as { data?: unknown }).data);
    default:
      return 'is not valid';
  }
}

function patternWords(pattern: string, data: unknown): string {
  if (pattern === DIGITS) return 'must be a whole number';
  if (pattern === EMAIL_PATTERN) return 'must be an address such as agent@example.com';
  if (pattern === STORABLE_TEXT && typeof data === 'string' && data.trim() === '') return 'must not be blank';
  if (pattern === STORABLE_TEXT || pattern === STORABLE)
    return 'contains NUL characters or unpaired surrogates';
  return `must match ${pattern}`;
}
