import underPressure from '@fastify/under-pressure';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { LIMITS } from '../limits.ts';
import { unavailableError } from '../errors.ts';

/** Whether the process is shutting down: set on SIGTERM, read on every request. */
export interface Lifecycle {
  closing: boolean;
}

const HEALTH = new Set(['/healthz', '/readyz']);
/** The path without its query string: `/healthz?probe=1` is still the health route. */
const pathOf = (url: string) => url.split('?', 1)[0] ?? url;

/**
 * Answers `503 SERVICE_UNAVAILABLE` with `Retry-After` instead of taking work the process cannot do
 * well: once it is shutting down (in-flight requests still finish), and while the event loop is
 * saturated (measured by @fastify/under-pressure). The health routes answer for themselves
 * (`/readyz` says `closing`); `/healthz` always answers: the process is alive.
 */
export async function installAvailability(
  app: FastifyInstance,
  opts: { lifecycle: Lifecycle; maxEventLoopDelayMs?: number },
): Promise<void> {
  const refuse = (reply: FastifyReply, reason: string) => {
    const err = unavailableError(LIMITS.unavailableRetryAfterSeconds, reason);
    return reply.code(err.status).headers(err.headers).send(err.toBody());
  };

  // Callback hooks here and on every request's way (app.ts, metrics, the gateway's CORS): an async
  // one costs each request a promise and a turn of the microtask queue for a line of work.
  app.addHook('onRequest', (request, reply, done) => {
    if (!opts.lifecycle.closing || HEALTH.has(pathOf(request.url))) return done();
    reply.header('connection', 'close');
    refuse(reply, 'The server is shutting down');
  });
  await app.register(underPressure, {
    maxEventLoopDelay: opts.maxEventLoopDelayMs ?? LIMITS.maxEventLoopDelayMs,
    // Async: the plugin then goes on only to find the reply sent, and Fastify stops there.
    pressureHandler: async (request, reply, type, value) => {
      if (pathOf(request.url) === '/healthz') return;
      request.log.warn({ type, value }, 'under pressure: request refused');
      await refuse(reply, 'The server is overloaded');
    },
  });
}
