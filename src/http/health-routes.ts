import type { FastifyInstance } from 'fastify';
import type { Database } from '../db/index.ts';
import type { Lifecycle } from './availability.ts';

/** `/healthz`: the process is up. `/readyz`: it takes work: not shutting down, and the database answers. */
export function registerHealthRoutes(
  app: FastifyInstance,
  deps: { db: Database; lifecycle: Lifecycle },
): void {
  app.get('/healthz', { schema: HEALTH }, async () => ({ status: 'ok' }));
  app.get('/readyz', { schema: READINESS }, async (request, reply) => {
    if (deps.lifecycle.closing) return reply.code(503).send({ status: 'closing', database: deps.db.kind });
    try {
      await deps.db.query('SELECT 1');
      return { status: 'ready', database: deps.db.kind };
    } catch (err) {
      request.log.warn({ err }, 'database not reachable');
      return reply.code(503).send({ status: 'unavailable', database: deps.db.kind });
    }
  });
}

const operation = (operationId: string, summary: string) => ({
  tags: ['Operations'],
  operationId,
  summary,
  security: [],
});

const HEALTH = {
  ...operation('getHealth', 'Liveness: the process is up'),
  response: { 200: { description: 'Up.', type: 'object', properties: { status: { const: 'ok' } } } },
};

const readiness = (description: string) => ({
  description,
  type: 'object',
  properties: {
    status: { type: 'string', enum: ['ready', 'closing', 'unavailable'] },
    database: { type: 'string', enum: ['postgres', 'pglite'] },
  },
});

const READINESS = {
  ...operation('getReadiness', 'Readiness: not shutting down, and the database answers'),
  response: { 200: readiness('Ready.'), 503: readiness('Shutting down, or the database does not answer.') },
};
