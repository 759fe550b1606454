/**
 * How form builders label a field with the question they ask, as data: field-names.ts drops the
 * lead-in words from the front of a folded label and one or more tails from its end, and reads what
 * is left as a field name (a canonical name, an alias, or a phrasing below). docs/field-mapping.md
 * shows these tables (a test keeps the two in step); field-names.test.ts holds real labels, and the
 * unrelated questions that must stay unknown ("Who referred you by name?").
 *
 * Every entry is folded (snake_case, lowercase): `What's` folds to `what_s`.
 */
import type { LeadFieldName } from '../fields.ts';

/**
 * Words a question may open with before it names the field (`And your`, `What's the`, `Please
 * enter your`, `Can you tell us your`). Only whole words, only at the front; at least one word is
 * always left.
 */
export const QUESTION_LEAD_INS: readonly string[] = [
  ...['and', 'also', 'so', 'now', 'next', 'lastly', 'finally', 'ok', 'okay', 'great', 'thanks'],
  ...['what', 'whats', 's', 'which', 'is', 'are', 'please', 'kindly'],
  ...['enter', 'provide', 'type', 'give', 'share', 'tell', 'confirm', 'add', 'fill', 'in', 'write'],
  ...['can', 'could', 'would', 'may', 'we', 'i', 'us', 'me', 'let', 'know', 'have', 'get'],
  ...['you', 'your', 'the', 'a', 'an'],
];

/** Endings after the field's name: a courtesy, where to reach or find the prospect, a format hint. */
export const QUESTION_TAILS: readonly string[] = [
  ...['please', 'here', 'below', 'only'],
  ...['to_reach_you', 'to_reach_you_at', 'we_can_reach_you_at', 'where_we_can_reach_you', 'to_call'],
  ...['where_you_live', 'you_live_in', 'do_you_live_in', 'are_you_in', 'you_are_in'],
  ...['are_you_looking_for', 'do_you_need', 'do_you_want', 'would_you_like'],
  ...['first_and_last', 'mobile_preferred', 'mm_dd_yyyy', 'mm_dd_yy'],
];

/** Phrasings only questions use, by the field they name (the alias table's names count as well). */
export const QUESTION_PHRASES = {
  name: ['first_and_last_name', 'full_legal_name', 'legal_name', 'complete_name'],
  first_name: ['forename', 'first_given_name'],
  last_name: ['last_family_name'],
  phone: [
    'best_phone',
    'best_phone_number',
    'best_number',
    'contact_number',
    'contact_phone',
    'contact_phone_number',
    'callback_number',
    'call_back_number',
    'telephone_number',
    'cell_phone_number',
  ],
  email: ['best_email', 'e_mail_address', 'best_email_address'],
  zipcode: ['zip_code', 'home_zip', 'home_zip_code', 'postal_code'],
  state: ['state_of_residence', 'home_state', 'resident_state', 'state_you_live_in'],
  date_of_birth: ['birthdate', 'when_were_you_born', 'birth_day'],
  age: ['current_age', 'how_old_are_you', 'how_old'],
  coverage_amount: [
    'how_much_coverage',
    'desired_coverage',
    'desired_coverage_amount',
    'amount_of_coverage',
    'coverage_desired',
    'coverage_amount_desired',
    'death_benefit',
  ],
} as const satisfies Partial<Record<LeadFieldName, readonly string[]>>;
