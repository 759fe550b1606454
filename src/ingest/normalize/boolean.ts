import { BOOLEAN_SYNONYMS } from '../tables/synonyms.ts';
import { synonymIndex } from './enums.ts';
import { invalid, valid, wordKey } from './result.ts';
import type { Normalized } from './result.ts';
import type { JsonValue } from '../../json.ts';

const EXPECTED_BOOLEAN = 'true or false (also yes/no, y/n, 1/0)';
const INDEX = synonymIndex(BOOLEAN_SYNONYMS);

/** JSON booleans, 1/0, and the yes/no spellings of BOOLEAN_SYNONYMS in any case. */
export function normalizeBoolean(value: JsonValue): Normalized<boolean> {
  if (typeof value === 'boolean') return valid(value);
  if (value === 1 || value === 0) return valid(value === 1);
  const match = typeof value === 'string' ? INDEX.get(wordKey(value)) : undefined;
  return match === undefined ? invalid('INVALID_BOOLEAN', EXPECTED_BOOLEAN) : valid(match === 'true');
}
