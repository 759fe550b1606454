import {
  GENDER_SYNONYMS,
  HOUSING_TYPE_SYNONYMS,
  LEAD_CATEGORY_SYNONYMS,
  MORTGAGE_TYPE_SYNONYMS,
  SCHEDULE_TYPE_SYNONYMS,
} from './tables/synonyms.ts';
import { LEAD_FIELDS, type FieldKind, type LeadFieldName } from './fields.ts';

// The lead fields senders may send, described once for the route schemas (and so the OpenAPI
// document): types come from LEAD_FIELDS, enum values from the synonym tables, words from
// docs/sender-contract.md ("Fields").

type Json = Record<string, unknown>;

const ENUMS: Partial<Record<LeadFieldName, readonly string[]>> = {
  gender: Object.keys(GENDER_SYNONYMS),
  schedule_type: Object.keys(SCHEDULE_TYPE_SYNONYMS),
  housing_type: Object.keys(HOUSING_TYPE_SYNONYMS),
  mortgage_type: Object.keys(MORTGAGE_TYPE_SYNONYMS),
  lead_category: Object.keys(LEAD_CATEGORY_SYNONYMS),
};

/** What the contract says of each field (the kind comes from LEAD_FIELDS). */
const DESCRIPTIONS: Partial<Record<LeadFieldName, string>> = {
  name: 'Full contact name. Alternative to first_name + last_name; split at the first space into first and last.',
  first_name: 'Contact first name.',
  last_name: 'Contact last name.',
  phone: 'Normalized to a clean 10-digit form. Aliases: cell, mobile, phone_number, …',
  email: 'Lowercased and indexed.',
  address: 'Street address.',
  city: 'City.',
  state: '2-letter code or full state name. Used to detect the timezone.',
  zipcode: '5-digit postal code. Aliases: zip, postal_code.',
  county: 'County or parish.',
  age: 'Age in years, 18 to 120 inclusive.',
  date_of_birth: '`YYYY-MM-DD` or `MM/DD/YYYY`. Alias: dob.',
  gender: 'Other spellings (m, f, woman, …) are normalized to these values.',
  status:
    'Set by the gateway: `Scheduled` when an appointment is booked, else `New`. A different value sent here is kept in custom_fields with a STATUS_IGNORED warning.',
  scheduled_at:
    'Canonical UTC ISO-8601 appointment timestamp. Without an offset it is read in appointment_timezone (else UTC) and a warning says so.',
  appointment_date:
    'Split appointment date (`YYYY-MM-DD`, `MM/DD/YYYY`, `M/D/YYYY`), used when scheduled_at is absent.',
  appointment_time:
    'Split appointment local time: `2:30 PM`, `2:30pm`, `2 PM`, `02:30 PM` or 24-hour `14:30`.',
  appointment_timezone:
    'IANA timezone. If omitted, inferred from ZIP code, state, phone area code, then the agent’s default timezone.',
  schedule_type: 'Default `appointment`.',
  setter_dialer_name: 'Name or ID of the setter, dialer agent or scheduling channel.',
  scheduled_call: 'Optional human-readable local date/time text.',
  tags: 'Tags attached to the lead.',
  notes: 'Appointment notes, verification details, briefing text.',
  coverage_type: 'Requested policy type.',
  coverage_amount: 'Requested coverage amount. Alias: coverage_requested.',
  current_coverage: 'Existing coverage details.',
  monthly_budget: 'Target monthly budget.',
  annual_income: 'Household yearly income.',
  occupation: 'Job title or retirement status.',
  housing_type: 'Housing situation.',
  mortgage_type: 'Mortgage type.',
  mortgage_length_remaining: 'Remaining loan term.',
  monthly_payment: 'Monthly mortgage payment.',
  smoker: 'Tobacco usage flag.',
  health_conditions: 'High-level health summary.',
  health_conditions_detail: 'Prescriptions, hospitalizations, surgery dates.',
  language: 'Primary language preference.',
  branch_of_service: 'Military branch.',
  military_status:
    'Optional service status. For general veteran leads lead_category and branch_of_service suffice.',
  lead_category: 'Abbreviations and synonyms (fe, mp, vet, …) are mapped automatically.',
  beneficiary: 'Primary beneficiary name.',
  beneficiary_relationship: 'Relationship of beneficiary.',
  beneficiary_count: 'Number of beneficiaries.',
  dependents: 'Number or details of dependent children.',
  consent_cert_url: 'Form-consent certificate URL for telemarketing-consent verification.',
  consent_token:
    'An addition to the specification: the Jornaya LeadiD token (`leadid_token`, `universal_leadid`), kept unchanged as consent evidence.',
  ip_address: 'Client IP at submission.',
  sms_consent: 'Explicit SMS consent.',
  socialclid: 'Ad click identifier taken from the ad URL.',
  socialc: 'First-party ad click cookie.',
  socialp: 'First-party browser tracking cookie.',
  user_agent: 'Client User-Agent string.',
  leadgen_id: 'Native instant-form submission ID of the ad platform.',
  ad_id: 'Ad ID from the campaign URL.',
  utm_source: 'Marketing attribution: source.',
  utm_medium: 'Marketing attribution: medium.',
  utm_campaign: 'Marketing attribution: campaign.',
  utm_content: 'Marketing attribution: content.',
  utm_term: 'Marketing attribution: term.',
  campaign_name: 'Campaign or event-type name (for a booking event: scheduled_event.name).',
};

const FORMATS: Partial<Record<LeadFieldName, string>> = { email: 'email', consent_cert_url: 'uri' };

function kindSchema(kind: FieldKind, orNull: boolean): Json {
  const type = (t: string) => (orNull ? [t, 'null'] : t);
  switch (kind) {
    case 'string':
      return { type: type('string') };
    case 'integer':
      return { type: type('integer') };
    case 'boolean':
      return { type: type('boolean') };
    case 'datetime':
      return { type: type('string'), format: 'date-time' };
    case 'string[]':
      return { type: type('array'), items: { type: 'string' } };
  }
}

/**
 * One JSON Schema per LEAD_FIELDS entry: kind, then the contract's description, format, enum and
 * range. `orNull`: as a stored lead shows it (null when the lead has none).
 */
export function leadFieldSchemas(orNull: boolean): Record<string, Json> {
  const out: Record<string, Json> = {};
  for (const [name, kind] of Object.entries(LEAD_FIELDS) as [LeadFieldName, FieldKind][]) {
    const schema = kindSchema(kind, orNull);
    const description = DESCRIPTIONS[name];
    if (description) schema.description = description;
    const format = FORMATS[name];
    if (format) schema.format = format;
    const values = ENUMS[name];
    if (values) schema.enum = orNull ? [...values, null] : [...values];
    if (name === 'age') Object.assign(schema, { minimum: 18, maximum: 120 });
    out[name] = schema;
  }
  return out;
}
