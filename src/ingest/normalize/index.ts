import { normalizeAge } from './age.ts';
import { normalizeBoolean } from './boolean.ts';
import { normalizeDateOfBirth } from './date-of-birth.ts';
import { normalizeEmail } from './email.ts';
import {
  normalizeGender,
  normalizeHousingType,
  normalizeLeadCategory,
  normalizeMortgageType,
  normalizeScheduleType,
} from './enums.ts';
import { normalizePhone } from './phone.ts';
import { normalizeState } from './state.ts';
import { normalizeTags } from './tags.ts';
import { normalizePersonName, normalizeText } from './text.ts';
import { normalizeZip } from './zip.ts';
import type { Normalizer } from './result.ts';
import type { LeadFieldName } from '../fields.ts';

/**
 * Fields whose values are more than trimmed text. Every other lead field is free text
 * (normalizeText); that includes scheduled_at, appointment_date, appointment_time and
 * appointment_timezone, which src/appointments resolves, and status.
 */
const SPECIAL: Partial<Record<LeadFieldName, Normalizer>> = {
  name: normalizePersonName,
  first_name: normalizePersonName,
  last_name: normalizePersonName,
  phone: normalizePhone,
  email: normalizeEmail,
  state: normalizeState,
  zipcode: normalizeZip,
  age: normalizeAge,
  date_of_birth: (value, { now }) => normalizeDateOfBirth(value, now),
  gender: normalizeGender,
  schedule_type: normalizeScheduleType,
  tags: normalizeTags,
  housing_type: normalizeHousingType,
  mortgage_type: normalizeMortgageType,
  smoker: normalizeBoolean,
  lead_category: normalizeLeadCategory,
  sms_consent: normalizeBoolean,
};

export function normalizerFor(field: LeadFieldName): Normalizer {
  return SPECIAL[field] ?? normalizeText;
}
