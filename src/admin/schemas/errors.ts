import type { TSchema } from 'typebox';
import { errorResponses, type ErrorCode } from '../../errors.ts';

/** The error answers routes share, by what they do: authenticate, name an agent or a source, read a body. */
export const AUTH: ErrorCode[] = ['UNAUTHORIZED', 'SERVER_ERROR', 'SERVICE_UNAVAILABLE'];
export const AGENT: ErrorCode[] = [
  ...AUTH,
  'MISSING_AGENT_IDENTIFIER',
  'INVALID_AGENT_IDENTIFIER',
  'AGENT_NOT_FOUND',
];
export const SOURCE: ErrorCode[] = [...AUTH, 'MISSING_SOURCE_ID', 'SOURCE_NOT_FOUND'];
export const BODY: ErrorCode[] = ['VALIDATION_ERROR', 'PAYLOAD_TOO_LARGE'];

/** What every admin operation's schema says of itself: its id, summary, tag and security. */
export const operation = (operationId: string, summary: string) => ({
  operationId,
  summary,
  tags: ['Admin'],
  security: [{ adminBearer: [] }],
});

/** An operation's answers: its successes, then its errors in the one error shape. */
export const answers = <R extends Record<number, TSchema>>(ok: R, errors: readonly ErrorCode[]) => ({
  ...errorResponses(errors),
  ...ok,
});
