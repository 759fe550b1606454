import type { FastifyInstance, FastifyRequest, FastifyServerOptions } from 'fastify';

declare module 'fastify' {
  interface FastifyRequest {
    /** What the request's handler adds to its one log line (an outcome, a lead id, an error code). */
    logFields?: Record<string, unknown>;
  }
}

/** Adds `fields` to the request's one log line, written when its answer is sent. */
export function noteForLog(request: FastifyRequest, fields: Record<string, unknown>): void {
  request.logFields = { ...request.logFields, ...fields };
}

/**
 * One line per request, at info, when its answer has been sent: method, redacted URL, client,
 * status, time taken and what the handler noted (`noteForLog`), under the request's id. Fastify's
 * own two lines per request (incoming, completed) are off: with the handler's own, a delivery
 * wrote three lines, a tenth of a busy server's time.
 */
export function logRequests(app: FastifyInstance): void {
  // Below info (LOG_LEVEL=warn, say) there is no line to write, and no hook to run per request.
  if (!['trace', 'debug', 'info'].includes(app.log.level)) return;
  app.addHook('onResponse', (request, reply, done) => {
    request.log.info(
      {
        req: request,
        res: { statusCode: reply.statusCode },
        responseTime: Math.round(reply.elapsedTime * 10) / 10,
        ...request.logFields,
      },
      'request completed',
    );
    done();
  });
}

/** A source token's shape, dashes or not: 32 hex digits. */
const TOKEN_LIKE = /[0-9a-f]{8}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{12}/gi;

/**
 * A URL as it may be logged. Below the gateway's URL everything is hidden, not only a `/v/<TOKEN>`
 * path's token: a sender that leaves out `/v/` (`…/inbound-lead-gateway/<TOKEN>`), writes `/V/` or
 * encodes the slash still posts its token in the path; so is a calendar feed's secret. Elsewhere, but in the admin API's and the
 * console's own paths (whose ids are records', not secrets), anything shaped like a token is
 * hidden; and the whole query string everywhere, since senders paste tokens into parameters too.
 */
export function redactUrl(url: string): string {
  const at = url.indexOf('?');
  // Decoded first, as the router reads it: `/v1/inbound-lead-gatew%61y/v/…` is the gateway, and a
  // token with its dashes written `%2D` is still a token. A path that cannot be decoded is hidden.
  let path = decodedPath(at < 0 ? url : url.slice(0, at));
  const gateway = /^(\/v1\/inbound-lead-gateway)(\/v)?\/(.*)$/i.exec(path);
  if (gateway) path = gateway[3] ? `${gateway[1]}${gateway[2] ?? ''}/[REDACTED]` : path;
  else if (/^\/v1\/calendar\//i.test(path)) path = '/v1/calendar/[REDACTED]';
  else if (!/^\/(?:v1\/admin|console)(?:\/|$)/i.test(path)) path = path.replace(TOKEN_LIKE, '[REDACTED]');
  return at < 0 ? path : `${path}?[REDACTED]`;
}

function decodedPath(path: string): string {
  try {
    // Dot segments resolved too: `/v1/admin/../<TOKEN>` is not an admin path.
    return new URL(decodeURIComponent(path), 'http://log.invalid').pathname;
  } catch {
    return '/[REDACTED]';
  }
}

/**
 * pino options: a request id on every line, the token header redacted, the path token
 * redacted from the logged URL. Tests pass their own `stream` to capture the log.
 */
export function loggerOptions(level: string, stream?: NodeJS.WritableStream): FastifyServerOptions['logger'] {
  return {
    level,
    ...(stream ? { stream } : {}),
    redact: {
      paths: ['req.headers["x-source-token"]', 'req.headers.authorization', 'headers["x-source-token"]'],
      censor: '[REDACTED]',
    },
    serializers: {
      req(req: { method: string; url: string; id: string; ip?: string }) {
        return { method: req.method, url: redactUrl(req.url), remote: req.ip };
      },
    },
  };
}
