import type { FastifyInstance } from 'fastify';
import type { Metrics } from '../metrics/metrics.ts';

/**
 * `GET /metrics` in Prometheus' text format, and the latency of every request by route. Counts and
 * timings only: no lead data, no token. Expose it to your monitoring network, not to the internet.
 */
export function registerMetrics(app: FastifyInstance, metrics: Metrics): void {
  app.addHook('onResponse', (request, reply, done) => {
    metrics.requestDuration.observe(
      {
        method: request.method,
        route: request.routeOptions.url ?? 'unmatched',
        status: String(reply.statusCode),
      },
      reply.elapsedTime / 1000,
    );
    done();
  });
  const schema = {
    tags: ['Operations'],
    operationId: 'getMetrics',
    summary: 'Prometheus metrics: answers, leads, webhooks, texts, latency, outbox depth and lag',
    security: [],
    response: {
      200: {
        description: 'Prometheus text format.',
        content: { 'text/plain': { schema: { type: 'string' } } },
      },
    },
  };
  app.get('/metrics', { schema }, async (_request, reply) =>
    reply.type(metrics.registry.contentType).send(await metrics.registry.metrics()),
  );
}
