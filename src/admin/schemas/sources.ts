import { Type } from 'typebox';
import { LIMITS } from '../../limits.ts';
import { SOURCE_CONSENT } from '../../sources/source-row.ts';
import {
  Enum,
  ListOf,
  Nullable,
  STORABLE,
  STORABLE_TEXT,
  Text,
  Timestamp,
  Uuid,
  UuidParam,
} from './common.ts';

export const Source = Type.Object({
  source_id: Uuid(),
  agent_id: Uuid(),
  name: Type.String(),
  active: Type.Boolean({ description: 'A disabled source’s token gets 401 INVALID_SOURCE_TOKEN.' }),
  created_at: Timestamp(),
  updated_at: Timestamp(),
  has_signing_key: Type.Boolean(),
  rate_limit_rps: Nullable(Type.Integer(), {
    description: 'The source’s own rate limit, requests per second; null: the server’s RATE_LIMIT_RPS.',
  }),
  rate_limit_burst: Nullable(Type.Integer(), {
    description: 'The source’s own burst; null: the server’s RATE_LIMIT_BURST.',
  }),
  agency_id: Nullable(Uuid(), {
    description:
      'An agency’s source: each lead is routed to one of its producers (docs/routing.md); `agent_id` is the producer it is listed under. null: the agent’s own source.',
  }),
  meta: Type.Object(
    {
      page_access_token_set: Type.Boolean(),
      app_secret_set: Type.Boolean(),
      verify_token_set: Type.Boolean(),
      listen: Type.Boolean({
        description: 'A Listen source: the leads it fetches are stored as Listen samples, not leads.',
      }),
      reconnect_needed_since: Nullable(Timestamp(), {
        description:
          'When the Graph API refused the page access token (error 190); set a new one to fetch the stopped leads.',
      }),
    },
    { description: 'Meta Lead Ads: which settings are set, never their values (docs/senders.md).' },
  ),
  has_google_key: Type.Boolean({ description: 'Whether Google Ads lead forms must carry a google_key.' }),
  consent: Enum(
    SOURCE_CONSENT,
    'The consent evidence its leads must bring before any automatic text or call: `none`; `present` (a certificate URL or LeadiD token); `verified` (confirmed by TrustedForm or Jornaya first). docs/consent-and-revocation.md.',
  ),
});

export const SourceWithToken = Type.Object({
  ...Source.properties,
  token: Uuid('The source token in full. Shown only here: it is stored as a hash.'),
  webhook_url: Type.String({ format: 'uri', description: 'The gateway URL with the token in the path.' }),
});

export const SourceList = ListOf('sources', Source);

export const CreateSourceBody = Type.Object({ name: Text() });

const RateLimit = (max: number, description: string) =>
  Type.Optional(Nullable(Type.Integer({ minimum: 1, maximum: max }), { description }));

/** A credential the agent pastes: a Meta secret, a verify token, a Google key. */
const Credential = (description: string) =>
  Type.Optional(
    Nullable(Type.String({ minLength: 1, maxLength: LIMITS.credentialMaxLength, pattern: STORABLE_TEXT }), {
      description: `${description}; null removes it. Never returned.`,
    }),
  );

export const MetaSettings = Type.Object(
  {
    page_access_token: Credential('The Page access token the leads are fetched with (leads_retrieval)'),
    app_secret: Credential('The Meta app’s secret: every envelope must be signed with it'),
    verify_token: Credential('The verify token typed into the app’s webhook settings'),
    listen: Type.Optional(
      Type.Boolean({ description: '`true`: fetched leads become Listen samples, not leads.' }),
    ),
  },
  { description: 'Meta Lead Ads settings (docs/senders.md, "Connect Meta Lead Ads directly").' },
);

export const UpdateSourceBody = Type.Object({
  active: Type.Optional(Type.Boolean({ description: '`false` disables the token at once.' })),
  name: Type.Optional(Text()),
  signing_key: Type.Optional(
    Nullable(Type.String({ minLength: 1, maxLength: LIMITS.signingKeyMaxLength, pattern: STORABLE }), {
      description: 'Webhook signing secret; null removes it. Never returned (see has_signing_key).',
    }),
  ),
  rate_limit_rps: RateLimit(
    LIMITS.sourceRateMaxRps,
    'Raise (or lower) this source’s rate for a big import; null returns to the server’s default.',
  ),
  rate_limit_burst: RateLimit(LIMITS.sourceRateMaxBurst, 'null returns to the server’s default.'),
  meta: Type.Optional(MetaSettings),
  google_key: Credential('The key Google Ads lead form webhooks to this source must carry'),
  consent: Type.Optional(Source.properties.consent),
});

/** The console's form of the same settings: each field the API takes, flat, and how leads land. */
export const MetaForm = Type.Object({
  page_access_token: MetaSettings.properties.page_access_token,
  app_secret: MetaSettings.properties.app_secret,
  verify_token: MetaSettings.properties.verify_token,
  google_key: UpdateSourceBody.properties.google_key,
  mode: Type.Optional(Enum(['live', 'listen'])),
  remove: Type.Optional(Type.String()),
});

export const SourceParams = Type.Object({
  source_id: UuidParam('The lead source. Not a UUID or unknown: 404 SOURCE_NOT_FOUND.'),
});

export const BookingEventLogEntry = Type.Object(
  {
    event_id: Uuid(),
    received_at: Timestamp(),
    event: Type.String({ examples: ['invitee.created', 'routing_form_submission.created'] }),
    invitee_uri: Nullable(Type.String()),
    lead_id: Nullable(Uuid()),
    outcome: Enum([
      'lead_created',
      'lead_updated',
      'appointment_canceled',
      'appointment_rescheduled',
      'no_show_marked',
      'no_show_removed',
      'ignored',
      'ignored_unknown_invitee',
    ]),
    payload: Type.Object({}, { description: 'The event body as received.', additionalProperties: true }),
  },
  { description: 'A booking-scheduler event as received, and what the gateway did with it.' },
);

export const BookingEventList = ListOf('events', BookingEventLogEntry);
