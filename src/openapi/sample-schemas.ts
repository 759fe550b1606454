import { LEAD_FIELDS } from '../ingest/fields.ts';
import { MAPPING_RULE_LIMITS } from '../ingest/mapping-rules.ts';
import { dateTime, list, ref, uuid, type Json } from './json-schema.ts';
import { ERROR_CODES } from './schemas.ts';

/** What a sample and a re-map both show: the mapping of a body, its error, what it would fire. */
const contentProperties: Record<string, Json> = {
  body_format: {
    type: ['string', 'null'],
    description:
      'Which envelope adapter read the body: `flat`, `field_list`, `meta_lead_ads`, `typeform` …; null when no body could be read.',
  },
  mapped: { type: 'object', description: 'The lead as it would land.', additionalProperties: true },
  custom_fields: { type: 'object', additionalProperties: true },
  warnings: { type: 'array', items: ref('Warning') },
  error_code: {
    type: ['string', 'null'],
    enum: [...ERROR_CODES, null],
    description:
      'Listen sample or re-map: the error a live delivery would get (MISSING_NAME), else null. Refused delivery: the error it got.',
  },
  would_fire: {
    type: ['object', 'null'],
    description:
      'What a live delivery would have triggered: `outcome` (create or merge) and the matched `lead_id`, the `events`, `call_task`, the `text` (its time and body, or why none), and the `destinations` that would get each event. Null for refused deliveries and for bodies without a name.',
    additionalProperties: true,
  },
};

const ruleTarget: Json = {
  type: ['string', 'null'],
  enum: [...Object.keys(LEAD_FIELDS), null],
  description: 'The lead field the key fills, or null to ignore the key (it is not stored at all).',
};

const rules: Json = {
  type: 'object',
  description: `Sent key → lead field or null. Applied before the alias table; a key matches as sent, or else by its folded name. At most ${MAPPING_RULE_LIMITS.maxRules} rules, keys of 1–${MAPPING_RULE_LIMITS.maxKeyLength} characters.`,
  maxProperties: MAPPING_RULE_LIMITS.maxRules,
  propertyNames: { minLength: 1, maxLength: MAPPING_RULE_LIMITS.maxKeyLength },
  additionalProperties: ruleTarget,
  examples: [{ '1.3': 'first_name', '1.6': 'last_name', q_coverage: 'coverage_amount', debug: null }],
};

/** Samples (Listen-mode and refused live deliveries), their re-map, and a source's mapping rules. */
export function buildSampleSchemas(): Record<string, Json> {
  return {
    Sample: {
      type: 'object',
      description:
        'A delivery kept for the agent: a Listen-mode one (`listen: true`), or a live one the gateway refused with 400 (`listen: false`, with its `error_code` and the exact text in `raw_body`).',
      required: [
        'sample_id',
        'received_at',
        'listen',
        'body',
        'raw_body',
        'body_format',
        'mapped',
        'custom_fields',
        'warnings',
        'error_code',
      ],
      properties: {
        sample_id: uuid,
        received_at: dateTime,
        listen: { type: 'boolean', description: 'true: a Listen-mode delivery; false: a refused live one.' },
        body: { description: 'The body as a JSON object (a form is read into one); null when it was none.' },
        raw_body: {
          type: ['string', 'null'],
          description:
            'Refused deliveries: the text received, cut at 64 KiB (then a RAW_BODY_TRUNCATED warning says so). Null for Listen samples.',
        },
        ...contentProperties,
      },
    },
    SampleList: list('samples', 'Sample'),
    SampleRemap: {
      type: 'object',
      description:
        'A stored sample’s body mapped again with the source’s rules in force, as a Listen delivery of it would be now. Nothing is written.',
      required: [
        'sample_id',
        'source_id',
        'body_format',
        'mapped',
        'custom_fields',
        'warnings',
        'error_code',
      ],
      properties: { sample_id: uuid, source_id: uuid, ...contentProperties },
    },
    MappingRules: {
      type: 'object',
      required: ['source_id', 'rules'],
      properties: { source_id: uuid, rules },
    },
    SetMappingRulesRequest: {
      type: 'object',
      required: ['rules'],
      properties: {
        rules: {
          ...rules,
          description: `The source's whole set of rules; it replaces the old one. ${String(rules.description)}`,
        },
      },
    },
  };
}
