import { Type } from 'typebox';
import { LIMITS } from '../../limits.ts';
import { US_STATES } from '../../ingest/tables/us-states.ts';
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
  price_cents: Type.Integer({ description: 'What a billable lead of this source costs, in cents.' }),
  return_window_hours: Type.Integer({
    description: 'How long after a delivery the vendor takes a return; 0: no returns.',
  }),
  duplicate_days: Type.Integer({
    description:
      'A repeat contact within this many days of the source’s last billed delivery of it is not billable; 0: every repeat is.',
  }),
  accept: Type.Object(
    {
      states: Type.Optional(Type.Array(Type.String())),
      min_age: Type.Optional(Type.Integer()),
      max_age: Type.Optional(Type.Integer()),
      require_consent: Type.Optional(Type.Boolean()),
    },
    {
      description:
        'Which live leads the source may deliver (docs/sender-contract.md, "Acceptance rules and caps"); a rule left out is no rule.',
    },
  ),
  caps: Type.Object(
    { daily: Type.Optional(Type.Integer()), monthly: Type.Optional(Type.Integer()) },
    {
      description:
        'Accepted live deliveries per calendar day and month, in the agent’s time zone (an agency’s source: the agency’s); a cap left out is no cap.',
    },
  ),
  consent: Enum(
    SOURCE_CONSENT,
    'The consent evidence its leads must bring before any automatic text or call: `none`; `present` (a certificate URL or LeadiD token); `verified` (confirmed by TrustedForm or Jornaya first). docs/consent-and-revocation.md.',
  ),
  cadence_id: Nullable(Uuid(), {
    description: 'The cadence its new leads follow (docs/cadences.md); null: the agent’s default, if any.',
  }),
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

const Whole = (minimum: number, maximum: number, description: string) =>
  Type.Integer({ minimum, maximum, description });
const Rule = <T extends Parameters<typeof Nullable>[0]>(schema: T, description: string) =>
  Type.Optional(Nullable(schema, { description: `${description}; null removes the rule.` }));

/** Only the members it names: a misspelt rule is refused, never dropped. */
const only = (names: string[]) => ({ propertyNames: { enum: names } });

export const AcceptRules = Type.Object(
  {
    states: Rule(
      Type.Array(Enum(Object.keys(US_STATES)), { minItems: 1, maxItems: 60, uniqueItems: true }),
      'The two-letter codes of the states whose leads are taken; a lead without a state passes',
    ),
    min_age: Rule(Whole(0, 150, 'Youngest age taken'), 'A lead without an age passes'),
    max_age: Rule(Whole(0, 150, 'Oldest age taken'), 'A lead without an age passes'),
    require_consent: Rule(Type.Boolean(), '`true`: a lead must carry consent_cert_url or consent_token'),
  },
  {
    ...only(['states', 'min_age', 'max_age', 'require_consent']),
    description: 'Acceptance rules: each one given is set (null removes it); the others stay.',
  },
);

export const Caps = Type.Object(
  {
    daily: Rule(Whole(1, 1_000_000, 'Accepted live leads a day'), 'No daily cap'),
    monthly: Rule(Whole(1, 10_000_000, 'Accepted live leads a month'), 'No monthly cap'),
  },
  {
    ...only(['daily', 'monthly']),
    description: 'Caps: each one given is set (null removes it); the other stays.',
  },
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
  price_cents: Type.Optional(Whole(0, LIMITS.priceMaxCents, 'What a billable lead costs, in cents.')),
  return_window_hours: Type.Optional(
    Whole(0, 8_760, 'How long after a delivery the vendor takes a return, in hours; 0: none.'),
  ),
  duplicate_days: Type.Optional(
    Whole(
      0,
      3_650,
      'A repeat contact within this many days of the last billed one is not billable; 0: every one is.',
    ),
  ),
  accept: Type.Optional(AcceptRules),
  caps: Type.Optional(Caps),
  consent: Type.Optional(Source.properties.consent),
  cadence_id: Type.Optional(
    Nullable(Uuid(), {
      description:
        'The cadence (of the source’s agent) its new leads follow (docs/cadences.md); null: the agent’s default. Unknown: 404 CADENCE_NOT_FOUND.',
    }),
  ),
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
