import { STATE_NAME_VARIANTS, US_STATES } from '../tables/us-states.ts';
import { invalid, valid } from './result.ts';
import type { Normalized } from './result.ts';
import type { JsonValue } from '../../json.ts';

const EXPECTED_STATE = 'a US state, DC or territory: 2-letter code or full name';

// Dots are dropped rather than spaced so that "D.C." and "N.Y." read as the codes DC and NY.
function stateKey(text: string): string {
  return text
    .toLowerCase()
    .replaceAll('.', '')
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim();
}

const BY_KEY: ReadonlyMap<string, string> = (() => {
  const map = new Map<string, string>();
  for (const [code, name] of Object.entries(US_STATES)) map.set(code.toLowerCase(), code).set(name, code);
  for (const [code, names] of Object.entries(STATE_NAME_VARIANTS)) for (const n of names) map.set(n, code);
  return map;
})();

/** Code or full name, any case (`tx`, `Texas`, `D.C.`, `Puerto Rico`) → the USPS code (`TX`). */
export function normalizeState(value: JsonValue): Normalized<string> {
  if (typeof value !== 'string') return invalid('INVALID_STATE', EXPECTED_STATE);
  const code = BY_KEY.get(stateKey(value));
  return code ? valid(code) : invalid('INVALID_STATE', EXPECTED_STATE);
}
