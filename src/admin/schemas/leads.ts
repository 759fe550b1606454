import { Routing } from './agencies.ts';
import { LeadCadence } from './cadences.ts';
import { LeadReminder } from './reminders.ts';
import { LeadSale, Return } from './economics.ts';
import { Type, type Static } from 'typebox';
import { APPOINTMENT_STATUSES } from '../../appointments/transitions.ts';
import { LIMITS } from '../../limits.ts';
import { leadFieldSchemas } from '../../ingest/field-schemas.ts';
import { SCHEDULE_TYPE_SYNONYMS } from '../../ingest/tables/synonyms.ts';
import { LEAD_STATUSES } from '../../leads/lead-status.ts';
import { SUPPRESSION_LISTS } from '../../screening/lists.ts';
import { DIGITS, Enum, ListOf, Nullable, STORABLE, Timestamp, Uuid, UuidParam } from './common.ts';

const Fields = () =>
  Object.fromEntries(
    Object.entries(leadFieldSchemas(true)).map(([k, v]) => [k, Type.Optional(Type.Unsafe(v))]),
  );

const ScheduleType = Enum(Object.keys(SCHEDULE_TYPE_SYNONYMS));
const AppointmentStatus = Enum(APPOINTMENT_STATUSES);

export const Lead = Type.Object(
  {
    lead_id: Uuid(),
    agent_id: Uuid(),
    source_id: Uuid(),
    ...Fields(),
    status: Enum(LEAD_STATUSES),
    name: Type.String(),
    idempotency_key: Nullable(Type.String()),
    custom_fields: Type.Object({}, { additionalProperties: true }),
    consent: Type.Optional(
      Nullable(
        Type.Object({
          sms_consent: Type.Boolean(),
          consent_cert_url: Nullable(Type.String()),
          consent_token: Type.Optional(Nullable(Type.String())),
          ip_address: Nullable(Type.String()),
          user_agent: Nullable(Type.String()),
          source_id: Uuid(),
          received_at: Timestamp(),
        }),
        {
          description:
            'Texting consent as the latest delivery that stated `sms_consent` gave it, with its evidence and arrival time; null until one does.',
        },
      ),
    ),
    opt_out: Type.Optional(
      Nullable(
        Type.Object({
          at: Timestamp(),
          keyword: Type.String({
            description: 'The keyword or phrase that revoked (`STOP`, `STOP TEXTING`), or `DO NOT CONTACT`.',
          }),
          words: Nullable(Type.String(), { description: 'The prospect’s own text, word for word.' }),
          texts_resumed_at: Nullable(Timestamp(), {
            description:
              'When the prospect texted START, UNSTOP or YES after an opt-out by keyword: texts go again, calls stay stopped. null: not resumed.',
          }),
        }),
        {
          description:
            'The lead’s number opted out, or the agent marked it do not contact: no texts, no calls (texts again once `texts_resumed_at` is set). null: neither.',
        },
      ),
    ),
    consent_check: Type.Optional(
      Nullable(
        Type.Object({
          provider: Enum(['trustedform', 'jornaya', 'none'] as const),
          status: Enum(['pending', 'present', 'verified', 'failed'] as const),
          reason: Nullable(
            Type.String({ description: 'Why it failed: `timeout`, `lead_not_matched`, `http_404` …' }),
          ),
          checked_at: Nullable(Timestamp()),
          expires_at: Nullable(
            Timestamp('Until when the provider keeps the certificate; null when it did not say.'),
          ),
        }),
        {
          description:
            'The check of the lead’s consent evidence its source asks for (`consent: "present"` or `"verified"`, docs/consent-and-revocation.md): automatic texts and calls wait while `pending` and are blocked when `failed`. null: its source asks none.',
        },
      ),
    ),
    screening: Type.Optional(
      Type.Array(
        Type.Object({
          list: Enum(SUPPRESSION_LISTS),
          matched: Enum(['phone', 'email'] as const),
          since: Timestamp('When the matching entry was added to the list.'),
        }),
        {
          description:
            'The suppression lists the lead’s phone or email was on when its latest delivery came in (docs/compliance.md); [] when none.',
        },
      ),
    ),
    body_format: Type.Optional(
      Nullable(Type.String(), {
        description:
          'How the latest delivery’s body was read: `flat`, `field_list`, or the envelope adapter (`meta_lead_ads`, `typeform` …); null for leads stored before it was recorded.',
      }),
    ),
    created_at: Timestamp(),
    updated_at: Timestamp(),
  },
  {
    $id: 'Lead',
    description:
      'A lead record: every canonical field by its name (null when the lead has none), then the record’s own attributes.',
    additionalProperties: true,
  },
);

/** The lead as lists and details refer to it: one component of the document (app.ts registers it). */
const LeadRef = Type.Unsafe<Static<typeof Lead>>({ $ref: 'Lead#' });

export const Appointment = Type.Object({
  appointment_id: Uuid(),
  lead_id: Uuid(),
  scheduled_at: Timestamp(),
  appointment_timezone: Type.String(),
  schedule_type: ScheduleType,
  status: AppointmentStatus,
  setter_dialer_name: Nullable(Type.String()),
  join_url: Nullable(Type.String()),
  cancel_url: Nullable(Type.String()),
  reschedule_url: Nullable(Type.String()),
  external_id: Nullable(Type.String()),
});

export const HistoryEntry = Type.Object({
  history_id: Uuid(),
  event: Type.String({ examples: ['created'] }),
  source_id: Nullable(Uuid()),
  changes: Type.Unknown({ description: 'Older values a merge replaced, by field.' }),
  details: Type.Unknown(),
  created_at: Timestamp(),
});

export const Purchase = Type.Object(
  {
    source_id: Uuid(),
    at: Timestamp('When the delivery was accepted.'),
    billable: Type.Boolean({
      description: 'false: a repeat contact within the source’s duplicate_days of its last billed delivery.',
    }),
    price_cents: Type.Integer({ description: 'The source’s price when the lead was delivered.' }),
    reason: Nullable(Type.String({ examples: ['duplicate'] }), {
      description: 'Why it is not billable (`duplicate`); null when it is.',
    }),
  },
  { description: 'An accepted live delivery of the lead, as its vendor may bill it.' },
);

export const LeadDetail = Type.Unsafe<
  Static<typeof Lead> & {
    appointments: Static<typeof Appointment>[];
    history: Static<typeof HistoryEntry>[];
    routing: Static<typeof Routing> | null;
    purchases: Static<typeof Purchase>[];
    returns: Static<typeof Return>[];
    sales: Static<typeof LeadSale>[];
    cadence: Static<typeof LeadCadence> | null;
    reminders: Static<typeof LeadReminder>[];
  }
>({
  allOf: [
    LeadRef,
    Type.Object({
      appointments: Type.Array(Appointment),
      history: Type.Array(HistoryEntry),
      routing: Nullable(Routing, {
        description: 'A lead of an agency: how it came to its producer. null otherwise.',
      }),
      purchases: Type.Array(Purchase, {
        description: 'One per accepted live delivery (never Listen, refused or replayed ones), oldest first.',
      }),
      returns: Type.Array(Return, {
        description:
          'Each return asked of a vendor, as `POST /leads/{lead_id}/returns` answered it, with the vendor’s answer (`status`, `decided_at`) once recorded; oldest first.',
      }),
      sales: Type.Array(LeadSale, {
        description:
          'Each policy sold to the lead, as `POST /leads/{lead_id}/sales` recorded it; by `sold_at`, oldest first.',
      }),
      cadence: Nullable(LeadCadence, { description: 'null: the lead follows no cadence.' }),
      reminders: Type.Array(LeadReminder, {
        description: 'The reminder texts of its appointments (docs/reminders.md), in the order they go.',
      }),
    }),
  ],
});

export const LeadList = Type.Object({
  leads: Type.Array(LeadRef),
  next_cursor: Nullable(Type.String(), {
    description: `Pass as cursor for the next page (at most ${LIMITS.leadsPageMax} leads a page).`,
  }),
});

const { external_id: _external, ...agendaProperties } = Appointment.properties;
export const AgendaItem = Type.Object({
  ...agendaProperties,
  name: Type.String({ description: 'The lead’s name.' }),
});

export const Agenda = ListOf('appointments', AgendaItem);

/** Query values arrive as text; the handler reads them (a repeated one is refused). */
export const LeadListQuery = Type.Object({
  status: Type.Optional(
    Type.String({
      description: `Only leads with this status (case-insensitive): ${LEAD_STATUSES.join(', ')}.`,
    }),
  ),
  q: Type.Optional(
    Type.String({
      maxLength: LIMITS.searchMaxLength,
      pattern: STORABLE,
      description:
        'Free text matched against name, email and phone; written like a phone (at least 3 digits), the phone only, by its digits.',
    }),
  ),
  limit: Type.Optional(
    Type.String({
      pattern: DIGITS,
      description: `Page size from 1, default ${LIMITS.leadsPageDefault}; larger than ${LIMITS.leadsPageMax} is read as ${LIMITS.leadsPageMax}.`,
    }),
  ),
  cursor: Type.Optional(Type.String({ description: 'The `next_cursor` of the previous page.' })),
});

export const AgendaQuery = Type.Object({
  from: Type.Optional(
    Type.String({
      description:
        'ISO-8601 instant, inclusive; without an offset it is read in the agent’s time zone. Default: start of today there.',
      examples: ['2027-01-15T00:00:00Z'],
    }),
  ),
  to: Type.Optional(
    Type.String({
      description: `ISO-8601 instant, exclusive. Default: ${LIMITS.agendaDefaultDays} days after \`from\`; at most ${LIMITS.agendaMaxDays} days after it.`,
      examples: ['2027-02-15T00:00:00Z'],
    }),
  ),
});

export const LeadParams = Type.Object({
  lead_id: UuidParam('The lead. Not a UUID or unknown: 404 LEAD_NOT_FOUND.'),
});
