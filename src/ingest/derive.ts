import { LIMITS } from '../limits.ts';
import { isAdultAge } from './normalize/age.ts';
import { ageOn } from './normalize/date-of-birth.ts';
import type { FieldWarning, LeadFields } from './types.ts';

/**
 * When no usable age was sent but a valid date of birth was, the age is worked out from it. An age
 * outside 18–120 is not stored (the date of birth stays) and a warning says why.
 */
export function deriveAge(lead: LeadFields, now: Date, warnings: FieldWarning[]): void {
  if (lead.age !== undefined || typeof lead.date_of_birth !== 'string') return;
  const age = ageOn(lead.date_of_birth, now);
  if (age === undefined) return;
  if (isAdultAge(age)) {
    lead.age = age;
    return;
  }
  warnings.push({
    field: 'age',
    code: 'INVALID_AGE',
    message: `Age from date_of_birth is ${age}, outside ${LIMITS.minAge}–${LIMITS.maxAge}; age left empty`,
  });
}

/** `name` alone splits at the first space into first/last; first (+ last) alone give `name`. */
export function completeName(lead: LeadFields): void {
  const name = typeof lead.name === 'string' ? lead.name : undefined;
  const first = typeof lead.first_name === 'string' ? lead.first_name : undefined;
  const last = typeof lead.last_name === 'string' ? lead.last_name : undefined;
  if (name && !first && !last) {
    const at = name.indexOf(' ');
    lead.first_name = at < 0 ? name : name.slice(0, at);
    if (at >= 0) lead.last_name = name.slice(at + 1).trim();
  } else if (!name && first) {
    lead.name = last ? `${first} ${last}` : first;
  }
}
