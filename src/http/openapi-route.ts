import type { FastifyInstance } from 'fastify';

export function registerOpenApiRoute(app: FastifyInstance): void {
  app.get('/v1/openapi.json', async () => ({ openapi: '3.1.0' }));
}
