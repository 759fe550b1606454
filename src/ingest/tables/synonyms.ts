/**
 * Accepted spellings of enum values, by the value they mean. Data, not logic: add a row here and in
 * docs/field-mapping.md. Spellings are in wordKey form (lowercase, punctuation as single spaces), so
 * `Final_Expense`, `final-expense` and `FINAL EXPENSE` all meet the row `final expense`. The value
 * itself always matches and need not be listed.
 */
export const GENDER_SYNONYMS = {
  Male: ['m', 'man', 'boy', 'masculine', 'hombre', 'masculino'],
  Female: ['f', 'woman', 'girl', 'feminine', 'mujer', 'femenino'],
};

export const LEAD_CATEGORY_SYNONYMS = {
  veterans: ['veteran', 'vet', 'vets', 'va', 'military', 'military veterans', 'armed forces'],
  'final-expense': ['fe', 'fex', 'finalexpense', 'burial', 'burial insurance', 'funeral'],
  'mortgage-protection': ['mp', 'mpi', 'mortgage', 'mortgage protection insurance', 'mortgage life'],
  nurses: ['nurse', 'nursing', 'rn'],
  truckers: ['trucker', 'trucking', 'truck driver', 'truck drivers', 'cdl'],
  iul: ['indexed universal life'],
  'first-responder': [
    'first responders',
    'police',
    'law enforcement',
    'firefighter',
    'firefighters',
    'fire fighter',
    'emt',
    'paramedic',
  ],
  'federal-employee': ['fed', 'feds', 'federal', 'federal employees', 'federal worker', 'fegli'],
  senior: ['seniors', 'retiree', 'retirees'],
  teacher: ['teachers', 'educator', 'educators'],
  generic: ['general', 'other', 'standard'],
};

export const HOUSING_TYPE_SYNONYMS = {
  Own: ['owner', 'homeowner', 'home owner', 'owns', 'owned', 'own home'],
  Rent: ['renter', 'renting', 'rents', 'rented', 'tenant', 'rental'],
  Other: [],
};

export const MORTGAGE_TYPE_SYNONYMS = {
  Conventional: ['conv'],
  FHA: [],
  VA: [],
  Fixed: ['fixed rate'],
  ARM: ['adjustable', 'adjustable rate', 'adjustable rate mortgage'],
  USDA: [],
  Jumbo: [],
  Reverse: ['reverse mortgage'],
};

export const SCHEDULE_TYPE_SYNONYMS = {
  appointment: ['appt', 'appointments', 'meeting', 'booked'],
  follow_up: ['followup', 'follow up call', 'callback', 'call back'],
};

export const BOOLEAN_SYNONYMS = {
  true: ['yes', 'y', 't', '1', 'on'],
  false: ['no', 'n', 'f', '0', 'off'],
};
