import type { FastifyServerOptions } from 'fastify';

/**
 * Hides the token of a `/v/<TOKEN>` path before a URL is logged, and the whole query string:
 * senders paste tokens into query parameters too.
 */
export function redactUrl(url: string): string {
  return url.replace(/(\/v\/)[^/?#]*/g, '$1[REDACTED]').replace(/\?.*$/s, '?[REDACTED]');
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
