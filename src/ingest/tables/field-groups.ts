/**
 * Keys that name a group of the prospect's own fields: only an object under one of these gives its
 * members to the lead (envelopes/generic.ts); any other object (`vendor_meta: {campaign: …}`) is
 * kept whole under its key, as sent. Data, not logic: written in folded form (snake_case); a
 * spelling without underscores (`policyholder`) matches too. docs/field-mapping.md shows this table
 * (a test keeps the two in step). Deliberately absent: a second person (`co_applicant`, `spouse`,
 * `beneficiary`), whose fields are not the prospect's, and wrappers that may hold anything (`data`,
 * `payload`, `meta`, `location`).
 */
export const FIELD_GROUPS = {
  person: [
    'applicant',
    'primary_applicant',
    'person',
    'prospect',
    'lead',
    'customer',
    'client',
    'consumer',
    'insured',
    'primary_insured',
    'policy_holder',
    'borrower',
    'contact',
    'contact_info',
    'contact_information',
    'contact_details',
    'personal_info',
    'personal_information',
    'personal_details',
    'your_info',
    'your_information',
    'your_details',
    'about_you',
  ],
  name: ['name', 'full_name', 'your_name', 'legal_name', 'applicant_name', 'contact_name', 'insured_name'],
  address: [
    'address',
    'home_address',
    'mailing_address',
    'street_address',
    'residential_address',
    'physical_address',
    'current_address',
    'your_address',
    'residence',
  ],
  // Where the form was filled in: HubSpot's `context: {ipAddress, pageUri}`.
  context: ['context'],
} as const satisfies Record<string, readonly string[]>;
