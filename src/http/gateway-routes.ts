import type { FastifyInstance, FastifyReply, FastifyRequest, HTTPMethods } from 'fastify';
import type { AppDeps } from '../app.ts';
import { appError } from '../errors.ts';
import { handleDelivery } from '../leads/handle-delivery.ts';
import { parseDeliveryBody } from './parse-body.ts';
import { createRateLimiter } from './rate-limit.ts';
import { sourceAuthHook } from './source-auth.ts';

export const GATEWAY_PATH = '/v1/inbound-lead-gateway';
export const MAX_BODY_BYTES = 262_144;

/**
 * Both gateway endpoints. Authentication is an onRequest hook, so it runs before the body is
 * read; the body arrives as raw bytes whatever its Content-Type and is parsed here.
 */
export async function registerGatewayRoutes(app: FastifyInstance, deps: AppDeps): Promise<void> {
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', { parseAs: 'buffer', bodyLimit: MAX_BODY_BYTES }, (_req, body, done) =>
    done(null, body),
  );
  const authenticate = sourceAuthHook(deps.db, createRateLimiter(deps.rateLimit));
  const otherMethods = app.supportedMethods.filter((m) => m !== 'POST') as HTTPMethods[];

  const deliver = async (request: FastifyRequest, reply: FastifyReply) => {
    const source = request.source;
    if (!source) throw appError('MISSING_SOURCE_TOKEN');
    const parsed = parseDeliveryBody(request.body as Buffer | undefined, request.headers['content-type']);
    if (!parsed.ok) throw appError('INVALID_JSON', parsed.details);
    const response = await handleDelivery(deps.db, source, parsed.body, {
      // A scheduler signs the bytes as sent.
      rawBody: request.body as Buffer,
      idempotencyHeader: request.headers['idempotency-key'],
      signatureHeader: request.headers['calendly-webhook-signature'],
    });
    request.log.info(
      { lead_id: response.lead_id, status: response.status, replay: response.idempotent_replay === true },
      response.listen ? 'listen sample stored' : 'lead delivered',
    );
    return reply.send(response);
  };
  const methodNotAllowed = async (_request: FastifyRequest, reply: FastifyReply) => {
    const err = appError('METHOD_NOT_ALLOWED');
    return reply.code(err.status).header('allow', 'POST').send(err.toBody());
  };

  for (const url of [GATEWAY_PATH, `${GATEWAY_PATH}/v/:token`, `${GATEWAY_PATH}/v/`]) {
    app.route({ method: 'POST', url, bodyLimit: MAX_BODY_BYTES, onRequest: authenticate, handler: deliver });
    app.route({ method: otherMethods, url, handler: methodNotAllowed });
  }
}
