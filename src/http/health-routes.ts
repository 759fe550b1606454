import type { FastifyInstance } from 'fastify';
import type { Database } from '../db/index.ts';

/** `/healthz`: the process is up. `/readyz`: the database answers. */
export function registerHealthRoutes(app: FastifyInstance, deps: { db: Database }): void {
  app.get('/healthz', async () => ({ status: 'ok' }));
  app.get('/readyz', async (request, reply) => {
    try {
      await deps.db.query('SELECT 1');
      return { status: 'ready', database: deps.db.kind };
    } catch (err) {
      request.log.warn({ err }, 'database not reachable');
      return reply.code(503).send({ status: 'unavailable', database: deps.db.kind });
    }
  });
}
