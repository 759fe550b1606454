import { timingSafeEqual } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Queryable } from '../db/index.ts';
import { appError } from '../errors.ts';
import { findAgentByKey, keyDigest as digest } from './agent-keys.ts';

const CHALLENGE = { 'WWW-Authenticate': 'Bearer realm="leadgate-admin"' };

/**
 * Who a request acts for: the operator (the one `ADMIN_API_KEY`, every agent) or one agent (an
 * agent API key, or a console session): then every route answers for that agent only, and
 * another agent's records are 404 as if they did not exist.
 */
export type Principal = { kind: 'operator' } | { kind: 'agent'; agentId: string };

declare module 'fastify' {
  interface FastifyRequest {
    /** Set by the admin auth hook (or the console's session); null before it has run. */
    principal: Principal | null;
  }
}

/** The agent a request is limited to, or null for the operator (all agents). */
export function ownerOf(request: FastifyRequest): string | null {
  const principal = request.principal;
  if (!principal) throw new Error('ownerOf before authentication'); // never read as "the operator"
  return principal.kind === 'agent' ? principal.agentId : null;
}

/** Operator-only routes (creating agents, setting passwords): an agent's key gets 403. */
export function requireOperator(request: FastifyRequest): void {
  if (request.principal?.kind !== 'operator') {
    throw appError('FORBIDDEN', 'Only the operator key (ADMIN_API_KEY) may do this');
  }
}

/**
 * Requires `Authorization: Bearer <key>` on every request of the scope it is installed in: the
 * operator's key, compared in constant time over SHA-256 digests (the same time whatever the
 * key's length), or an agent key, looked up by its digest on every request so a revoked key is
 * refused at once, in every process.
 */
export function installAdminAuth(scope: FastifyInstance, adminApiKey: string, db: Queryable): void {
  const expected = digest(adminApiKey);
  if (!scope.hasRequestDecorator('principal')) scope.decorateRequest('principal', null);
  scope.addHook('onRequest', async (request) => {
    const header = request.headers.authorization;
    const match = typeof header === 'string' ? /^Bearer[ \t]+(\S+)[ \t]*$/i.exec(header) : null;
    if (!match?.[1]) throw appError('UNAUTHORIZED', 'Send Authorization: Bearer <ADMIN_API_KEY>', CHALLENGE);
    const given = digest(match[1]);
    if (timingSafeEqual(given, expected)) {
      request.principal = { kind: 'operator' };
      return;
    }
    const agentId = await findAgentByKey(db, given.toString('hex'));
    if (!agentId) throw appError('UNAUTHORIZED', 'The admin key is not valid', CHALLENGE);
    request.principal = { kind: 'agent', agentId };
  });
}
