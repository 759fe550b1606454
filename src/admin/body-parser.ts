import type { FastifyInstance } from 'fastify';
import { appError } from '../errors.ts';

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
