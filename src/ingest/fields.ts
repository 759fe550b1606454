/**
 * The lead fields a sender may send (docs/sender-contract.md, "Fields"), by name, with the kind of
 * value each holds.
 * Normalizers and aliases build on this table; it is the single list of canonical names.
 */
export type FieldKind = 'string' | 'integer' | 'boolean' | 'string[]' | 'datetime';

export const LEAD_FIELDS = {
  name: 'string',
  first_name: 'string',
  last_name: 'string',
  phone: 'string',
  email: 'string',
  address: 'string',
  city: 'string',
  state: 'string',
  zipcode: 'string',
  county: 'string',
  age: 'integer',
  date_of_birth: 'string',
  gender: 'string',
  status: 'string',
  scheduled_at: 'datetime',
  appointment_date: 'string',
  appointment_time: 'string',
  appointment_timezone: 'string',
  schedule_type: 'string',
  setter_dialer_name: 'string',
  scheduled_call: 'string',
  tags: 'string[]',
  notes: 'string',
  coverage_type: 'string',
  coverage_amount: 'string',
  current_coverage: 'string',
  monthly_budget: 'string',
  annual_income: 'string',
  occupation: 'string',
  housing_type: 'string',
  mortgage_type: 'string',
  mortgage_length_remaining: 'string',
  monthly_payment: 'string',
  smoker: 'boolean',
  health_conditions: 'string',
  health_conditions_detail: 'string',
  language: 'string',
  branch_of_service: 'string',
  military_status: 'string',
  lead_category: 'string',
  beneficiary: 'string',
  beneficiary_relationship: 'string',
  beneficiary_count: 'string',
  dependents: 'string',
  consent_cert_url: 'string',
  consent_token: 'string',
  ip_address: 'string',
  sms_consent: 'boolean',
  socialclid: 'string',
  socialc: 'string',
  socialp: 'string',
  user_agent: 'string',
  leadgen_id: 'string',
  ad_id: 'string',
  utm_source: 'string',
  utm_medium: 'string',
  utm_campaign: 'string',
  utm_content: 'string',
  utm_term: 'string',
  campaign_name: 'string',
} as const satisfies Record<string, FieldKind>;

export type LeadFieldName = keyof typeof LEAD_FIELDS;

export function isLeadField(name: string): name is LeadFieldName {
  return Object.hasOwn(LEAD_FIELDS, name);
}

/** Request-level fields: they steer the delivery and are never stored on the lead. */
export const CONTROL_FIELDS = ['listen', 'idempotency_key', 'custom_fields'] as const;
