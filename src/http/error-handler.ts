import type { Socket } from 'node:net';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { LIMITS } from '../limits.ts';
import { isRefusedValue, isTransientDbError } from '../db/database.ts';
import { AppError, appError, errorBody, ERRORS, unavailableError, type ErrorCode } from '../errors.ts';
import { noteForLog } from './logging.ts';

/**
 * One error shape everywhere: {error, error_code, details?}. For the admin API, health and OpenAPI
 * routes (the gateway answers through its own `toAnswer`): expected failures are AppErrors,
 * Fastify's own errors are translated, anything else is SERVER_ERROR with no internals leaked.
 */
export function installErrorHandling(app: FastifyInstance): void {
  app.setErrorHandler((err: FastifyError, request, reply) => {
    const known = toAppError(err);
    // A 400, but one validation should have given: worth a look.
    if (isRefusedValue(err)) request.log.warn({ err }, 'the database refused a value of the request');
    if (known.status >= 500)
      request.log[known.code === 'SERVICE_UNAVAILABLE' ? 'warn' : 'error']({ err }, 'request failed');
    else noteForLog(request, { error_code: known.code });
    return reply.code(known.status).headers(known.headers).send(known.toBody());
  });
  // Never echo the URL: a /v/<TOKEN> path must not come back in a body or a log line.
  app.setNotFoundHandler((_request, reply) => {
    const err = appError('NOT_FOUND');
    return reply.code(err.status).send(err.toBody());
  });
}

/**
 * Fastify's `frameworkErrors`: a path it cannot decode (`…/v/<TOKEN>%zz`) would get its own answer,
 * which quotes the path, token and all. Answered as any unknown URL is, the path never echoed.
 */
export function answerUnreadableUrl(
  _error: Error,
  _request: FastifyRequest,
  reply: FastifyReply,
): FastifyReply {
  const err = appError('NOT_FOUND');
  return reply.code(err.status).send(err.toBody());
}

/**
 * Fastify's `clientErrorHandler`: what Node's HTTP parser refuses before any route runs (a request
 * that did not arrive in time, oversized headers, bytes that are no HTTP), in the one error shape.
 */
export function answerClientError(err: Error & { code?: string }, socket: Socket): void {
  if (err.code === 'ECONNRESET' || socket.destroyed) return;
  const code: ErrorCode =
    err.code === 'ERR_HTTP_REQUEST_TIMEOUT'
      ? 'REQUEST_TIMEOUT'
      : err.code === 'HPE_HEADER_OVERFLOW'
        ? 'HEADERS_TOO_LARGE'
        : 'VALIDATION_ERROR';
  const body = JSON.stringify(errorBody(code));
  const { status } = ERRORS[code];
  if (socket.writable) {
    socket.write(
      `HTTP/1.1 ${status} ${ERRORS[code].error}\r\nConnection: close\r\nContent-Type: application/json\r\n` +
        `Content-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
    );
  }
  socket.destroy();
}

export function toAppError(err: FastifyError | Error): AppError {
  if (err instanceof AppError) return err;
  if (isTransientDbError(err)) return unavailableError(LIMITS.unavailableRetryAfterSeconds);
  if (isRefusedValue(err))
    return appError('VALIDATION_ERROR', 'A value in the request is out of range or malformed');
  const code = (err as FastifyError).code;
  switch (code) {
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return appError('PAYLOAD_TOO_LARGE');
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return appError('INVALID_JSON', 'The body must be a JSON object');
    case 'FST_ERR_VALIDATION':
      return appError('VALIDATION_ERROR', err.message);
  }
  const status = (err as FastifyError).statusCode;
  if (typeof status === 'number' && status >= 400 && status < 500)
    return appError('VALIDATION_ERROR', err.message);
  return appError('SERVER_ERROR');
}
