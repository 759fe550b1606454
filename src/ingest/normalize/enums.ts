import {
  GENDER_SYNONYMS,
  HOUSING_TYPE_SYNONYMS,
  LEAD_CATEGORY_SYNONYMS,
  MORTGAGE_TYPE_SYNONYMS,
  SCHEDULE_TYPE_SYNONYMS,
} from '../tables/synonyms.ts';
import { invalid, valid, wordKey } from './result.ts';
import type { InvalidCode, Normalized } from './result.ts';
import type { JsonValue } from '../../json.ts';

export type EnumNormalizer = (value: JsonValue) => Normalized<string>;

/** spelling (wordKey form) → value, with every value also matching itself. */
export function synonymIndex(
  table: Readonly<Record<string, readonly string[]>>,
): ReadonlyMap<string, string> {
  const index = new Map<string, string>();
  for (const [value, spellings] of Object.entries(table)) {
    index.set(wordKey(value), value);
    for (const spelling of spellings) index.set(wordKey(spelling), value);
  }
  return index;
}

/** A normalizer that accepts the table's values and synonyms in any case and punctuation. */
export function enumNormalizer(
  table: Readonly<Record<string, readonly string[]>>,
  code: InvalidCode = 'INVALID_ENUM',
): EnumNormalizer {
  const index = synonymIndex(table);
  const expected = `one of ${Object.keys(table).join(', ')}`;
  return (value) => {
    const match = typeof value === 'string' ? index.get(wordKey(value)) : undefined;
    return match === undefined ? invalid(code, expected) : valid(match);
  };
}

export const normalizeGender = enumNormalizer(GENDER_SYNONYMS, 'INVALID_GENDER');
export const normalizeLeadCategory = enumNormalizer(LEAD_CATEGORY_SYNONYMS);
export const normalizeHousingType = enumNormalizer(HOUSING_TYPE_SYNONYMS);
export const normalizeMortgageType = enumNormalizer(MORTGAGE_TYPE_SYNONYMS);
export const normalizeScheduleType = enumNormalizer(SCHEDULE_TYPE_SYNONYMS);
