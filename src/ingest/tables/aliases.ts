/**
 * Alias field names, by the canonical field they stand for. This is data, not logic: add a row here
 * and docs/field-mapping.md (a test keeps the two in step).
 *
 * Every alias is written in its folded form (snake_case, lowercase), because incoming names are folded
 * before they are looked up. A run-together spelling (`cellphone` for `cell_phone`) is matched by the
 * compact rule in field-names.ts, so only spellings that differ by more than underscores are listed.
 * Deliberately absent: `source`, `province`, `region`, `contact` (ambiguous); they are kept in
 * custom_fields like any unknown name. A second number (`home_phone`) is a FALLBACK_ALIASES name: it
 * fills `phone` only when no better name does, and is kept in custom_fields otherwise.
 */
import type { LeadFieldName } from '../fields.ts';

export const FIELD_ALIASES = {
  name: ['full_name', 'contact_name'],
  first_name: ['fname', 'first', 'given_name'],
  last_name: ['lname', 'last', 'surname', 'family_name'],
  phone: [
    'cell',
    'cell_phone',
    'cell_number',
    'mobile',
    'mobile_phone',
    'mobile_number',
    'phone_number',
    'cell_phone_number',
    'phone_1',
    'primary_phone',
    'telephone',
    'tel',
  ],
  email: ['email_address'],
  address: ['street', 'street_address', 'address_1', 'address_line_1', 'addr_line_1'],
  city: ['town'],
  state: ['state_code'],
  zipcode: ['zip', 'zip5', 'postal_code', 'postcode', 'postal'],
  date_of_birth: ['dob', 'birth_date', 'birthday'],
  gender: ['sex'],
  scheduled_at: ['appointment_at', 'appointment_datetime'],
  appointment_date: ['appt_date'],
  appointment_time: ['appt_time'],
  appointment_timezone: ['tz', 'timezone', 'time_zone'],
  setter_dialer_name: ['setter', 'setter_name', 'dialer_name'],
  tags: ['tag'],
  notes: ['note', 'comments', 'comment'],
  coverage_type: ['policy_type', 'insurance_type'],
  coverage_amount: ['coverage_requested', 'face_amount'],
  monthly_budget: ['budget'],
  annual_income: ['income', 'household_income'],
  occupation: ['job_title'],
  housing_type: ['housing', 'residence_type'],
  mortgage_type: ['loan_type'],
  monthly_payment: ['mortgage_payment'],
  smoker: [
    'tobacco',
    'tobacco_use',
    'tobacco_user',
    'do_you_use_tobacco',
    'smokes',
    'smoking',
    'do_you_smoke',
  ],
  health_conditions: ['medical_conditions'],
  language: ['preferred_language'],
  branch_of_service: ['military_branch'],
  lead_category: ['category', 'lead_type'],
  beneficiary: ['beneficiary_name'],
  consent_cert_url: ['xx_trusted_form_cert_url', 'trustedform_cert_url', 'trusted_form_url'],
  consent_token: ['leadid_token', 'universal_leadid', 'jornaya_lead_id'],
  socialclid: ['fbclid'],
  socialc: ['fbc'],
  socialp: ['fbp'],
  ip_address: ['ip'],
  sms_consent: ['sms_opt_in', 'text_opt_in'],
  campaign_name: ['campaign'],
} satisfies Partial<Record<LeadFieldName, readonly string[]>>;

/**
 * Names that fill a field only when no other name does (a home number beside a cell): they rank
 * after every alias, and a value they lose with is kept in custom_fields under its own name.
 */
export const FALLBACK_ALIASES = {
  phone: ['home_phone', 'work_phone', 'phone_2', 'alternate_phone', 'alt_phone', 'secondary_phone'],
  email: ['work_email', 'alternate_email', 'email_2'],
} satisfies Partial<Record<LeadFieldName, readonly string[]>>;

/** Second lines appended to a field's value (`address`, then `, Apt 4`), never stored on their own. */
export const APPENDED_ALIASES = {
  address: ['address_2', 'address_line_2', 'addr_line_2', 'street_2', 'street_address_2'],
} satisfies Partial<Record<LeadFieldName, readonly string[]>>;
