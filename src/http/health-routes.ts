import type { FastifyInstance } from 'fastify';
import type { Database } from '../db/index.ts';
import type { Lifecycle } from './availability.ts';

/** `/healthz`: the process is up. `/readyz`: it takes work: not shutting down, and the database answers. */
export function registerHealthRoutes(
  app: FastifyInstance,
  deps: { db: Database; lifecycle: Lifecycle },
): void {
  app.get('/healthz', async () => ({ status: 'ok' }));
  app.get('/readyz', async (request, reply) => {
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
