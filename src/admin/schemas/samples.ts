import { Type } from 'typebox';
import { ERRORS } from '../../errors.ts';
import { LEAD_FIELDS } from '../../ingest/fields.ts';
import { MAPPING_RULE_LIMITS } from '../../ingest/mapping-rules.ts';
import { ListOf, Nullable, Timestamp, Uuid, UuidParam } from './common.ts';

const AnyObject = (description?: string) =>
  Type.Object({}, { additionalProperties: true, ...(description ? { description } : {}) });

const Warning = Type.Object(
  {
    field: Type.String({ description: 'The field as sent.' }),
    code: Type.String({ description: 'Machine-readable reason: INVALID_PHONE, INVALID_AGE, …' }),
    message: Type.String(),
  },
  { additionalProperties: true },
);

/** What a sample and a re-map both show: the mapping of a body, its error, what it would fire. */
const content = {
  body_format: Nullable(Type.String(), {
    description: 'Which envelope adapter read the body; null when no body could be read.',
  }),
  mapped: Type.Unknown({ description: 'The lead as it would land.' }),
  custom_fields: Type.Unknown(),
  warnings: Type.Array(Warning),
  error_code: Nullable(Type.Unsafe<string>({ type: 'string', enum: Object.keys(ERRORS) }), {
    description:
      'Listen sample or re-map: the error a live delivery would get (MISSING_NAME, LEAD_NOT_ACCEPTED), else null. Refused delivery: the error it got.',
  }),
  error_details: Type.Optional(
    Nullable(Type.String(), {
      description:
        'What the error said beyond its code: the acceptance rule a lead breaks ("state OH is not accepted by this source"); null when nothing.',
    }),
  ),
  would_fire: Type.Optional(
    Type.Unknown({
      description:
        'What a live delivery would have triggered (outcome, events, call task, text, the cadence it would enroll in as `would_enroll`, destinations); null for refused deliveries and bodies without a name.',
    }),
  ),
  would_route: Type.Optional(
    Nullable(
      Type.Object({
        agent_id: Uuid('The producer a live delivery would go to.'),
        rule: Type.Unsafe<string>({ type: 'string', enum: ['owner', 'rotation', 'fallback'] }),
      }),
      {
        description:
          'An agency’s source: who a live delivery would be routed to now (docs/routing.md); the rotation is not moved. null otherwise.',
      },
    ),
  ),
};

export const Sample = Type.Object(
  {
    sample_id: Uuid(),
    received_at: Timestamp(),
    listen: Type.Boolean({ description: 'true: a Listen-mode delivery; false: a refused live one.' }),
    body: Type.Unknown({
      description: 'The body as a JSON object (a form is read into one); null when none.',
    }),
    raw_body: Nullable(Type.String(), {
      description: 'Refused deliveries: the text received, cut at 64 KiB. Null for Listen samples.',
    }),
    ...content,
  },
  {
    description:
      'A delivery kept for the agent: a Listen-mode one, or a live one the gateway refused with 400, or with 422 by the source’s terms (with its error_code and raw_body).',
  },
);

export const SampleList = ListOf('samples', Sample);

export const SampleQuery = Type.Object({
  listen: Type.Optional(
    Type.Unsafe<'true' | 'false'>({
      type: 'string',
      enum: ['true', 'false'],
      description: '`true`: Listen-mode samples only; `false`: refused live deliveries only. Default: both.',
    }),
  ),
});

export const SampleRemap = Type.Object(
  { sample_id: Uuid(), source_id: Uuid(), ...content },
  { description: 'A stored sample’s body mapped again with the rules in force. Nothing is written.' },
);

export const SampleParams = Type.Object({
  source_id: UuidParam('The lead source. Not a UUID or unknown: 404 SOURCE_NOT_FOUND.'),
  sample_id: UuidParam('A sample of the source. Not a UUID or unknown: 404 NOT_FOUND.'),
});

const RULES_WORDS = `Sent key → lead field or null (the key is ignored). Applied before the alias table; a key matches as sent, or else by its folded name. At most ${MAPPING_RULE_LIMITS.maxRules} rules, keys of 1–${MAPPING_RULE_LIMITS.maxKeyLength} characters.`;

export const MappingRules = Type.Object({
  source_id: Uuid(),
  rules: Type.Record(
    Type.String(),
    Type.Unsafe<string | null>({ type: ['string', 'null'], enum: [...Object.keys(LEAD_FIELDS), null] }),
    {
      description: RULES_WORDS,
      examples: [{ '1.3': 'first_name', q_coverage: 'coverage_amount', debug: null }],
    },
  ),
});

/** The rules' keys and targets are checked as the gateway applies them (ingest/mapping-rules.ts). */
export const SetMappingRulesBody = Type.Object({
  rules: AnyObject(`The source’s whole set of rules; it replaces the old one. ${RULES_WORDS}`),
});
