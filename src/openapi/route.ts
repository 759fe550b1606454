import type { FastifyInstance } from 'fastify';
import { LIMITS } from '../limits.ts';
import { buildOpenApiDocument } from './index.ts';

/** `GET /v1/openapi.json`: the OpenAPI 3.1 document, built once here and served as is. */
export function registerOpenApiRoute(app: FastifyInstance): void {
  const document = JSON.stringify(buildOpenApiDocument());
  app.get('/v1/openapi.json', async (_request, reply) =>
    reply
      .type('application/json; charset=utf-8')
      .header('cache-control', `public, max-age=${LIMITS.openApiCacheSeconds}`)
      .send(document),
  );
}
