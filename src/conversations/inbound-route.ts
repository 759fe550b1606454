import type { FastifyInstance } from 'fastify';
import { providerAnswers, readReply, type ReplyReading } from '../automations/revocation.ts';
import { optOutConfirmation } from '../config.ts';
import type { Database } from '../db/index.ts';
import { appError, errorResponses } from '../errors.ts';
import { normalizePhone } from '../ingest/normalize/phone.ts';
import { LIMITS } from '../limits.ts';
import { deliverInbound, storeInbound, type InboundText } from './inbound-repository.ts';
import {
  DOCUMENTED_ONLY,
  formOf,
  formOrJson,
  fromProvider,
  param,
  signedByTwilio,
  type ProviderWebhookDeps,
} from './provider-webhooks.ts';

export const INBOUND_SMS_PATH = '/v1/sms/inbound';

/** Twilio's answer to a message it need not act on: an empty TwiML document. */
const EMPTY_TWIML = '<?xml version="1.0" encoding="UTF-8"?><Response></Response>';

/**
 * `POST /v1/sms/inbound`: every text a prospect sends (docs/conversations.md). The text is stored
 * word for word first, whatever follows; then it goes into the thread of each lead it reaches
 * (`matchLeads`), and a text that revokes consent, by keyword or in plain words, opts the number
 * out of texts and calls (`recordOptOut`), with one confirmation unless the provider answered it
 * (Twilio's `OptOutType`, or a keyword it answers under SMS_OPT_OUT_CONFIRMATION=provider); START,
 * UNSTOP or YES after an opt-out by keyword resumes texts (`resumeTexts`). The same provider
 * message delivered twice is stored and read once.
 */
export function registerInboundSms(app: FastifyInstance, deps: ProviderWebhookDeps & { db: Database }): void {
  app.post(INBOUND_SMS_PATH, { schema: INBOUND_SMS_SCHEMA, ...DOCUMENTED_ONLY }, async (request, reply) => {
    if (!fromProvider(deps, request)) throw appError('UNAUTHORIZED', 'Invalid inbound SMS credentials');
    const params = formOf(request);
    const from = param(params, 'From', 'from');
    if (!from?.trim()) throw appError('VALIDATION_ERROR', 'from must be the sender’s phone number');
    const to = param(params, 'To', 'to');
    const body = param(params, 'Body', 'body') ?? '';
    const phone = normalizePhone(from);
    const toPhone = to ? normalizePhone(to) : null;
    const text: InboundText = {
      provider_sid: param(params, 'MessageSid', 'SmsSid', 'message_sid'),
      from_raw: from,
      to_raw: to,
      phone: phone.ok ? phone.value : null,
      to_phone: toPhone?.ok ? toPhone.value : null,
      body: body.slice(0, LIMITS.inboundMaxLength),
      truncated: body.length > LIMITS.inboundMaxLength,
    };
    const now = new Date();
    const stored = await storeInbound(deps.db, text, now);
    const twiml = signedByTwilio(deps, request);
    const answer = (json: Record<string, unknown>) =>
      twiml ? reply.type('text/xml').send(EMPTY_TWIML) : reply.send({ received: true, ...json });
    if (stored.leads !== null)
      return answer({
        message_id: stored.inbound_id,
        duplicate: true,
        leads: stored.leads,
        opted_out: false,
        texts_resumed: false,
      });
    // Twilio's Advanced Opt-Out read the keyword and answered the prospect itself.
    const optOutType = param(params, 'OptOutType')?.toUpperCase();
    const byProvider = optOutType === 'STOP';
    const reading: ReplyReading = byProvider
      ? { intent: 'opt_out', revocation: { by: 'keyword', keyword: 'STOP', language: 'en' } }
      : optOutType === 'START'
        ? { intent: 'reply', opt_in: 'START' }
        : readReply(text.body);
    const providerConfirmed =
      byProvider || (optOutConfirmation(deps.sms) === 'provider' && providerAnswers(text.body));
    const outcome = await deliverInbound(deps.db, stored, text, reading, {
      now,
      confirmation: providerConfirmed ? 'provider' : 'ours',
    });
    request.log.info(
      { leads: outcome.leads.length, matched_by: outcome.matched_by, intent: reading.intent },
      'SMS received',
    );
    return answer({
      message_id: stored.inbound_id,
      leads: outcome.leads.length,
      matched_by: outcome.matched_by,
      intent: reading.intent,
      opted_out: outcome.opt_out !== null,
      texts_resumed: outcome.resumed !== null && outcome.resumed.agents > 0,
      ...(outcome.opt_out ? { agents: outcome.opt_out.agents } : {}),
      ...(outcome.resumed?.agents ? { agents: outcome.resumed.agents } : {}),
    });
  });
}

const message = {
  type: 'object',
  properties: {
    From: { type: 'string', description: 'The sender’s number (Twilio).' },
    To: {
      type: 'string',
      description: 'The number it was sent to (Twilio): an agent’s `sms_from` finds its leads.',
    },
    Body: { type: 'string' },
    MessageSid: {
      type: 'string',
      description: 'Twilio’s message id: a message delivered twice is stored once.',
    },
    OptOutType: {
      type: 'string',
      description: 'Twilio’s Advanced Opt-Out: `STOP` is an opt-out Twilio confirmed.',
    },
    from: { type: 'string' },
    to: { type: 'string' },
    body: { type: 'string' },
    message_sid: { type: 'string' },
  },
};

/** For the OpenAPI document: the provider's form or JSON, and what it is told. */
const INBOUND_SMS_SCHEMA = {
  tags: ['Automations'],
  operationId: 'receiveSms',
  summary:
    'The SMS provider’s inbound-message webhook: every text is kept in its leads’ threads; an opt-out stops texts and calls for good',
  description:
    'Authenticated by `x-sms-secret` (or `?secret=`) equal to SMS_INBOUND_SECRET, or, with Twilio, by `X-Twilio-Signature` (then the answer is an empty TwiML document). Form (`From`, `To`, `Body`, `MessageSid`) or JSON (`from`, `to`, `body`, `message_sid`).',
  security: [],
  body: formOrJson(message),
  response: {
    200: {
      description: 'Received and kept.',
      type: 'object',
      required: ['received', 'opted_out'],
      properties: {
        received: { const: true },
        message_id: { type: 'string', description: 'The text as kept.' },
        leads: { type: 'integer', description: 'The leads whose threads it went to; 0: kept unmatched.' },
        matched_by: { type: ['string', 'null'], enum: ['to', 'texted', 'number', null] },
        intent: { type: 'string', enum: ['reply', 'contact_limits', 'opt_out'] },
        duplicate: { type: 'boolean', description: 'The provider delivered this message before.' },
        opted_out: { type: 'boolean' },
        texts_resumed: {
          type: 'boolean',
          description:
            'An opt-in keyword alone (START, UNSTOP, YES) after an opt-out by keyword: texts to the number resume; calls stay stopped.',
        },
        agents: { type: 'integer', description: 'The agents the opt-out reached.' },
      },
    },
    ...errorResponses(['UNAUTHORIZED', 'VALIDATION_ERROR']),
  },
};
