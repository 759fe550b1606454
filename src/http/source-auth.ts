import type { FastifyRequest } from 'fastify';
import type { Database } from '../db/index.ts';
import { appError } from '../errors.ts';
import { findActiveSourceByToken, type AuthenticatedSource } from '../sources/source-repository.ts';
import { isWellFormedToken } from '../sources/tokens.ts';
import type { RateLimiter } from './rate-limit.ts';

declare module 'fastify' {
  interface FastifyRequest {
    source?: AuthenticatedSource;
  }
}

/**
 * onRequest hook of both gateway routes: runs before the body is read, so an unauthenticated
 * sender never gets its body parsed. Order: token present → token valid and active → rate limit.
 */
export function sourceAuthHook(db: Database, limiter: RateLimiter) {
  return async (request: FastifyRequest): Promise<void> => {
    const token = presentedToken(request);
    const source = isWellFormedToken(token) ? await findActiveSourceByToken(db, token) : null;
    if (!source) throw appError('INVALID_SOURCE_TOKEN');
    const wait = limiter.take(source.source_id);
    if (wait > 0) {
      throw appError('RATE_LIMITED', `Over the limit for this source token; retry in ${wait} s`, {
        'retry-after': String(wait),
      });
    }
    request.source = source;
  };
}

/** The token of the header or of the `/v/<TOKEN>` path; both sent must agree. */
function presentedToken(request: FastifyRequest): string {
  const params = request.params as { token?: string } | undefined;
  const pathToken = params && 'token' in params ? (params.token ?? '').trim() : undefined;
  const rawHeader = request.headers['x-source-token'];
  const headerToken =
    (Array.isArray(rawHeader) ? rawHeader.join(',') : (rawHeader ?? '')).trim() || undefined;
  if (pathToken === '') throw appError('MISSING_SOURCE_TOKEN', 'The /v/ path segment is empty');
  if (pathToken && headerToken && pathToken.toLowerCase() !== headerToken.toLowerCase()) {
    throw appError('INVALID_SOURCE_TOKEN', 'The x-source-token header and the /v/ path token differ');
  }
  const token = pathToken ?? headerToken;
  if (!token) throw appError('MISSING_SOURCE_TOKEN');
  return token;
}
