import { createHash, timingSafeEqual } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { appError } from '../errors.ts';

const CHALLENGE = { 'WWW-Authenticate': 'Bearer realm="leadgate-admin"' };

/**
 * Requires `Authorization: Bearer <adminApiKey>` on every request of the scope it is installed in.
 * Both sides are hashed first so the comparison takes the same time whatever the key's length.
 */
export function installAdminAuth(scope: FastifyInstance, adminApiKey: string): void {
  const expected = digest(adminApiKey);
  scope.addHook('onRequest', async (request) => {
    const header = request.headers.authorization;
    const match = typeof header === 'string' ? /^Bearer[ \t]+(\S+)[ \t]*$/i.exec(header) : null;
    if (!match?.[1]) throw appError('UNAUTHORIZED', 'Send Authorization: Bearer <ADMIN_API_KEY>', CHALLENGE);
    if (!timingSafeEqual(digest(match[1]), expected)) {
      throw appError('UNAUTHORIZED', 'The admin key is not valid', CHALLENGE);
    }
  });
}

function digest(value: string): Buffer {
  return createHash('sha256').update(value, 'utf8').digest();
}
