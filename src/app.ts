import { randomUUID } from 'node:crypto';
import Fastify, { LogController, type FastifyInstance } from 'fastify';
import type { AdminDeps } from './admin/deps.ts';
import { registerAdminRoutes } from './admin/routes.ts';
import { Lead } from './admin/schemas/leads.ts';
import { registerSmsWebhooks } from './conversations/routes.ts';
import { registerCalendarRoutes } from './calendar/routes.ts';
import { queueStats } from './automations/queue-stats.ts';
import { LIMITS } from './limits.ts';
import { type AutomationConfig } from './config.ts';
import { ErrorResponse } from './errors.ts';
import { registerConsole } from './console/routes.ts';
import { sessionSecret } from './console/session.ts';
import { BookingEvent, LeadSubmission } from './http/contract-schemas.ts';
import { registerGatewayRoutes, type GatewayDeps } from './gateway/routes.ts';
import { installAvailability, type Lifecycle } from './http/availability.ts';
import { answerClientError, answerUnreadableUrl, installErrorHandling } from './http/error-handler.ts';
import { registerHealthRoutes } from './http/health-routes.ts';
import { registerOpenApi } from './http/openapi.ts';
import { logRequests, loggerOptions } from './http/logging.ts';
import { registerMetrics } from './http/metrics-route.ts';
import { createMetrics, type Metrics } from './metrics/metrics.ts';

export interface AppDeps extends GatewayDeps, AdminDeps {
  logLevel?: string;
  /** Where log lines go (tests capture them); stdout when absent. */
  logStream?: NodeJS.WritableStream;
  /** Set `closing` on shutdown: requests are then answered 503 and /readyz is not ready. */
  lifecycle?: Lifecycle;
  /** Overrides LIMITS.maxEventLoopDelayMs; 0 turns load shedding on event-loop delay off. */
  maxEventLoopDelayMs?: number;
  /** The SMS provider's settings, for its inbound-message webhook (none: that webhook refuses all). */
  sms?: AutomationConfig['sms'];
  /** The process's metrics (the server shares them with its dispatcher); created when absent. */
  metrics?: Metrics;
  /** `TRUST_PROXY`: true (any), or the proxies' addresses and CIDRs; absent: none. */
  trustProxy?: boolean | string;
  /** Signs the console's cookies (`SESSION_SECRET`); absent: the one kept in the database. */
  sessionSecret?: string;
  /** Overrides LIMITS.requestTimeoutMs (tests of a stalled client). */
  requestTimeoutMs?: number;
}

/** Builds the HTTP app without listening: the server and the tests both use it. */
export async function buildApp(deps: AppDeps): Promise<FastifyInstance> {
  const requestTimeout = deps.requestTimeoutMs ?? LIMITS.requestTimeoutMs;
  const app = Fastify({
    logger: loggerOptions(deps.logLevel ?? 'info', deps.logStream),
    genReqId: (req) => {
      const given = req.headers['x-request-id'];
      return typeof given === 'string' && /^[\w.:-]{1,128}$/.test(given) ? given : randomUUID();
    },
    exposeHeadRoutes: false,
    logController: new LogController({ disableRequestLogging: true }), // one line per request instead: logRequests
    return503OnClosing: false, // answered by installAvailability, in the error shape
    forceCloseConnections: 'idle',
    // X-Forwarded-For is believed only from the proxies the operator names (TRUST_PROXY): anyone
    // could send one, and the console's login throttle counts by client address.
    trustProxy: deps.trustProxy ?? false,
    frameworkErrors: answerUnreadableUrl,
    clientErrorHandler: answerClientError,
    requestTimeout,
    // Node's server takes the request timeout from its constructor's options (set only afterwards,
    // as Fastify does, a stalled body is never timed out), and checks every 30 s by default.
    http: { requestTimeout, connectionsCheckingInterval: Math.min(1_000, requestTimeout / 2) },
    // Route schemas validate JSON as sent: no coercion ("42" is no number, a repeated query
    // parameter no single value); `verbose` gives the error formatters the schema that failed.
    ajv: { customOptions: { coerceTypes: false, allowUnionTypes: true, verbose: true } },
  });
  await registerOpenApi(app, [ErrorResponse, Lead, LeadSubmission, BookingEvent]);
  app.addHook('onSend', (request, reply, payload, done) => {
    reply.header('x-request-id', request.id);
    done(null, payload);
  });
  logRequests(app);
  const lifecycle = deps.lifecycle ?? { closing: false };
  const metrics = deps.metrics ?? createMetrics(() => queueStats(deps.db));
  registerMetrics(app, metrics);
  installErrorHandling(app);
  await installAvailability(app, { lifecycle, maxEventLoopDelayMs: deps.maxEventLoopDelayMs });
  registerHealthRoutes(app, { db: deps.db, lifecycle });
  await app.register(async (scope) => registerGatewayRoutes(scope, { ...deps, metrics }));
  await app.register(async (scope) => registerAdminRoutes(scope, deps), { prefix: '/v1/admin' });
  const secret = await sessionSecret(deps.db, deps.sessionSecret);
  await app.register(async (scope) => registerConsole(scope, { ...deps, sessionSecret: secret }), {
    prefix: '/console',
  });
  await app.register(async (scope) =>
    registerCalendarRoutes(scope, { db: deps.db, publicBaseUrl: deps.publicBaseUrl }),
  );
  const sms = deps.sms ?? { provider: 'recorder' as const };
  await app.register(async (scope) =>
    registerSmsWebhooks(scope, { db: deps.db, sms, publicBaseUrl: deps.publicBaseUrl }),
  );
  return app;
}
