import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest, HTTPMethods } from 'fastify';
import { LIMITS } from '../limits.ts';
import { isTransientDbError } from '../db/database.ts';
import type { Database } from '../db/index.ts';
import { ERRORS } from '../errors.ts';
import { noteForLog } from '../http/logging.ts';
import type { Metrics } from '../metrics/metrics.ts';
import type { SecretBox } from '../sources/secrets.ts';
import { createTokenChecks } from '../sources/token-checks.ts';
import {
  authenticateFromMemory,
  authenticateWithDatabase,
  reauthenticate,
  type Authenticated,
} from './authenticate.ts';
import { deliver } from './deliver.ts';
import { createGateway } from './gateway.ts';
import { answerHandshake } from './meta-handshake.ts';
import { createRateLimiter } from './rate-limit.ts';
import { rejected, toAnswer, unavailable, type DeliveryResult, type Rejected } from './result.ts';
import { createSourceDirectory } from './source-directory.ts';
import { contractOnly, gatewaySchema } from '../http/contract-schemas.ts';
import { handshakeSchema } from '../http/contract-meta.ts';

export const GATEWAY_PATH = '/v1/inbound-lead-gateway';

export interface GatewayDeps {
  db: Database;
  rateLimit: { rps: number; burst: number };
  metrics?: Metrics;
  /** Opens the sources' sealed secrets (Meta's app secret). */
  secrets: SecretBox;
  /** Told when an envelope queued Meta leads: the process's fetcher looks at once. */
  metaQueued?: () => void;
}

declare module 'fastify' {
  interface FastifyRequest {
    sender?: Authenticated;
  }
}

/**
 * Both gateway endpoints, bound to Fastify. Authentication is an onRequest hook, so it runs before
 * the body is read; the body arrives as raw bytes whatever its Content-Type, and `deliver` does the
 * rest. Every answer, refusals and unexpected faults included, goes through `toAnswer`.
 */
export async function registerGatewayRoutes(app: FastifyInstance, deps: GatewayDeps): Promise<void> {
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', { parseAs: 'buffer', bodyLimit: LIMITS.maxBodyBytes }, (_req, body, done) =>
    done(null, body),
  );
  // Whether made-up tokens can be refused without a lookup is known before the first request.
  const checks = createTokenChecks(deps.db);
  await checks.refresh();
  const guards = {
    limiter: createRateLimiter(deps.rateLimit),
    directory: createSourceDirectory(deps.db, { checks }),
  };
  const gateway = createGateway(deps.db, deps.secrets, deps.metaQueued);
  // What Fastify itself refuses (the body reader) or a fault nobody expected: answered the same way,
  // once the database confirms a token taken from memory (a revoked token is told 401).
  app.setErrorHandler(async (err: FastifyError, request, reply) => {
    const sender = request.sender;
    const revoked = sender && !sender.claim.confirmed && !(await guards.directory.confirm(sender.token));
    return send(request, reply, revoked ? rejected('INVALID_SOURCE_TOKEN') : failure(err), deps.metrics);
  });
  const otherMethods = app.supportedMethods.filter((m) => m !== 'POST') as HTTPMethods[];
  const notGet = otherMethods.filter((m) => m !== 'GET');

  // A callback hook, not an async one: what memory can tell (every made-up token's refusal, every
  // remembered sender) is answered in the same turn, with no promise in between.
  const onRequest = (request: FastifyRequest, reply: FastifyReply, done: (err?: Error) => void) => {
    const params = request.params as { token?: string } | undefined;
    const known = authenticateFromMemory(guards, {
      path: params && 'token' in params ? (params.token ?? '') : undefined,
      header: request.headers['x-source-token'],
    });
    const settle = (auth: Authenticated | Rejected) => {
      // Answered here: Fastify goes no further (a callback hook that sends does not call done).
      if (auth.kind === 'rejected') return void send(request, reply, auth, deps.metrics);
      request.sender = auth;
      done();
    };
    if (known.kind !== 'ask-database') return settle(known);
    authenticateWithDatabase(guards, known).then(settle, done);
  };
  const handler = async (request: FastifyRequest, reply: FastifyReply) => {
    const sender = request.sender;
    if (!sender) return send(request, reply, rejected('MISSING_SOURCE_TOKEN'), deps.metrics);
    const result = await deliver(gateway, sender.claim, {
      rawBody: request.body as Buffer | undefined,
      contentType: request.headers['content-type'],
      idempotencyHeader: request.headers['idempotency-key'],
      signatureHeader: request.headers['calendly-webhook-signature'],
      hubSignatureHeader: request.headers['x-hub-signature-256'],
      log: request.log,
      confirm: () => reauthenticate(guards, sender),
    });
    return send(request, reply, result, deps.metrics);
  };
  const methodNotAllowed = async (request: FastifyRequest, reply: FastifyReply) => {
    // A browser's CORS preflight for a POST is not a delivery: it is told what a page may send.
    if (request.method === 'OPTIONS' && request.headers['access-control-request-method'] === 'POST') {
      return reply.code(204).headers(CORS_PREFLIGHT).send();
    }
    return send(request, reply, rejected('METHOD_NOT_ALLOWED'), deps.metrics);
  };
  // A GET on a source's URL is Meta's subscription handshake, or not allowed like any other method.
  const handshake = async (request: FastifyRequest, reply: FastifyReply) => {
    const { token = '' } = request.params as { token?: string };
    const query = request.query as Record<string, string | string[] | undefined>;
    const result = await answerHandshake(guards.directory, token, query);
    return result ? send(request, reply, result, deps.metrics) : methodNotAllowed(request, reply);
  };
  // Web forms and the browser client post from other origins: every answer may be read by a page.
  // The token, not a cookie, authenticates, so any origin is as safe as curl.
  app.addHook('onSend', (request, reply, payload, done) => {
    if (request.headers.origin) reply.headers(CORS_ANSWER);
    done(null, payload);
  });

  for (const url of [GATEWAY_PATH, `${GATEWAY_PATH}/v/:token`, `${GATEWAY_PATH}/v/`]) {
    // The schemas document the contract (the OpenAPI document); the empty token path is no endpoint.
    const documented = url.endsWith('/v/')
      ? {}
      : { schema: gatewaySchema(url !== GATEWAY_PATH), ...contractOnly };
    app.route({ method: 'POST', url, bodyLimit: LIMITS.maxBodyBytes, onRequest, handler, ...documented });
    if (url.endsWith('/:token')) {
      app.route({ method: 'GET', url, handler: handshake, schema: handshakeSchema(), ...contractOnly });
      app.route({ method: notGet, url, handler: methodNotAllowed });
    } else app.route({ method: otherMethods, url, handler: methodNotAllowed });
  }
}

const CORS_ANSWER = {
  'access-control-allow-origin': '*',
  'access-control-expose-headers': 'Retry-After, X-Request-Id',
};
const CORS_PREFLIGHT = {
  ...CORS_ANSWER,
  'access-control-allow-methods': 'POST',
  'access-control-allow-headers': 'Content-Type, X-Source-Token, Idempotency-Key, Calendly-Webhook-Signature',
  'access-control-max-age': '600',
};

function failure(err: FastifyError): Rejected {
  if (err.code === 'FST_ERR_CTP_BODY_TOO_LARGE') {
    return rejected('PAYLOAD_TOO_LARGE', `The body must be at most ${LIMITS.maxBodyBytes} bytes`);
  }
  if (isTransientDbError(err)) return unavailable(err);
  const status = err.statusCode;
  if (typeof status === 'number' && status >= 400 && status < 500) {
    return rejected('INVALID_JSON', 'The body could not be read', { cause: err });
  }
  return rejected('SERVER_ERROR', undefined, { cause: err });
}

function send(
  request: FastifyRequest,
  reply: FastifyReply,
  result: DeliveryResult,
  metrics?: Metrics,
): FastifyReply {
  logResult(request, result);
  metrics?.deliveries.inc({ outcome: result.kind, code: result.kind === 'rejected' ? result.code : '' });
  if (result.kind === 'created' || result.kind === 'merged') metrics?.leads.inc({ outcome: result.kind });
  const answer = toAnswer(result);
  return reply.code(answer.status).headers(answer.headers).send(answer.body);
}

/**
 * What the delivery came to, on the request's one log line (http/logging.ts); a failure on the
 * gateway's side is also logged at once, with its cause.
 */
function logResult(request: FastifyRequest, result: DeliveryResult): void {
  switch (result.kind) {
    case 'rejected':
      if (result.code === 'SERVICE_UNAVAILABLE')
        request.log.warn({ err: result.cause, error_code: result.code }, 'delivery deferred');
      else if (ERRORS[result.code].status >= 500)
        request.log.error({ err: result.cause, error_code: result.code }, 'delivery failed');
      noteForLog(request, { error_code: result.code });
      return;
    case 'created':
    case 'merged':
      noteForLog(request, { lead_id: result.lead.lead_id, status: result.lead.status, outcome: result.kind });
      return;
    case 'replayed':
      noteForLog(request, { lead_id: result.answer.lead_id, outcome: 'replayed' });
      return;
    default:
      noteForLog(request, { outcome: result.kind });
  }
}
