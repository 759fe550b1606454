import type { FastifyInstance } from 'fastify';
import { LIMITS } from '../limits.ts';
import { appError, type ErrorCode } from '../errors.ts';
import { stripUnstorable } from '../ingest/sanitize.ts';
import { isUuid } from '../sources/tokens.ts';

export type JsonBody = Record<string, unknown>;

/**
 * Admin bodies are JSON whatever the Content-Type says, and an empty body is "no body".
 * A body that does not parse is a VALIDATION_ERROR (the gateway's INVALID_JSON is for senders).
 * The parsers are replaced in the admin scope only; Fastify encapsulation keeps the gateway's own.
 */
export function installAdminBodyParser(scope: FastifyInstance): void {
  scope.removeAllContentTypeParsers();
  scope.addContentTypeParser('*', { parseAs: 'string' }, (_request, text, done) => {
    const raw = String(text).replace(/^\uFEFF/, '');
    if (raw.trim() === '') return done(null, undefined);
    try {
      done(null, JSON.parse(raw));
    } catch {
      done(appError('VALIDATION_ERROR', 'The body must be a JSON object'), undefined);
    }
  });
}

export function requireObjectBody(body: unknown): JsonBody {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) {
    throw appError('VALIDATION_ERROR', 'The body must be a JSON object');
  }
  return body as JsonBody;
}

/** A required, non-blank, storable string; returned trimmed. */
export function requiredText(body: JsonBody, key: string, max: number = LIMITS.nameMaxLength): string {
  const value = optionalText(body, key, max);
  if (value === undefined) throw appError('VALIDATION_ERROR', `${key} is required`);
  return value;
}

/** `undefined` when absent or null; otherwise a non-blank, storable string, trimmed. */
export function optionalText(
  body: JsonBody,
  key: string,
  max: number = LIMITS.nameMaxLength,
): string | undefined {
  const value = body[key];
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'string') throw appError('VALIDATION_ERROR', `${key} must be a string`);
  const text = value.trim();
  if (text === '') throw appError('VALIDATION_ERROR', `${key} must not be blank`);
  if (text.length > max) throw appError('VALIDATION_ERROR', `${key} must be at most ${max} characters`);
  assertStorable(text, key);
  return text;
}

/** PostgreSQL text cannot hold NUL or unpaired surrogates: refuse them rather than fail in the database. */
export function assertStorable(text: string, key: string): void {
  if (stripUnstorable(text) !== text) {
    throw appError('VALIDATION_ERROR', `${key} contains NUL characters or unpaired surrogates`);
  }
}

/** One query-string value; a repeated parameter is an error rather than a guess. */
export function queryValue(query: unknown, key: string): string | undefined {
  const value = (query as Record<string, unknown> | undefined)?.[key];
  if (value === undefined) return undefined;
  if (typeof value !== 'string') throw appError('VALIDATION_ERROR', `${key} must be given once`);
  return value;
}

export function agentIdParam(raw: string | undefined): string {
  if (!raw) throw appError('MISSING_AGENT_IDENTIFIER');
  if (!isUuid(raw)) throw appError('INVALID_AGENT_IDENTIFIER', 'agent_id must be a UUID');
  return raw.toLowerCase();
}

/** A source id that is not a UUID cannot name a source: 404, like an unknown one. */
export function sourceIdParam(raw: string | undefined): string {
  if (!raw) throw appError('MISSING_SOURCE_ID');
  if (!isUuid(raw)) throw appError('SOURCE_NOT_FOUND');
  return raw.toLowerCase();
}

/** A path id that must be a UUID; anything else names nothing (`notFound`). */
export function uuidParam(raw: string | undefined, notFound: ErrorCode): string {
  if (!raw || !isUuid(raw)) throw appError(notFound);
  return raw.toLowerCase();
}
