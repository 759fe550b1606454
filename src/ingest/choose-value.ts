import { resolveFieldName } from './field-names.ts';
import { isBlank } from './normalize/result.ts';
import type { MatchRank, TargetName } from './field-names.ts';
import type { InvalidCode, Normalized, NormalizeContext, Normalizer } from './normalize/result.ts';
import type { JsonObject, JsonValue } from '../json.ts';

/** One top-level key of the body, as sent (after sanitizing). */
export interface Entry {
  key: string;
  value: JsonValue;
  /** Position in the body: ties between equally good names go to the earlier key. */
  index: number;
  rank: MatchRank;
}

/** An entry bound for custom_fields under its original key, with the warning to raise if invalid. */
export interface Pending {
  entry: Entry;
  invalid?: { field: string; code: InvalidCode; expected: string };
}

export interface GroupedEntries {
  /** Candidates per target field, best first: exact name, then spellings, then aliases; body order within. */
  byTarget: Map<TargetName, Entry[]>;
  unknown: Entry[];
}

export function groupEntries(body: JsonObject): GroupedEntries {
  const byTarget = new Map<TargetName, Entry[]>();
  const unknown: Entry[] = [];
  Object.keys(body).forEach((key, index) => {
    const value = body[key] as JsonValue;
    const resolved = resolveFieldName(key);
    if (!resolved) {
      unknown.push({ key, value, index, rank: 2 });
      return;
    }
    const list = byTarget.get(resolved.target) ?? [];
    list.push({ key, value, index, rank: resolved.rank });
    byTarget.set(resolved.target, list);
  });
  for (const list of byTarget.values()) list.sort((a, b) => a.rank - b.rank || a.index - b.index);
  return { byTarget, unknown };
}

export type Accepted = Extract<Normalized, { ok: true }>;

/**
 * The value a field takes from its candidates: the best-ranked one that is not blank and normalizes.
 * An invalid candidate does not block a valid one behind it (`phone: "123"` with a good `cell` still
 * gives the lead a phone); it goes to custom_fields with a warning. Valid candidates after the winner
 * go to custom_fields without one. Blank values (null, "", whitespace, no tags) are dropped.
 */
export function chooseValue(
  field: string,
  candidates: readonly Entry[],
  normalize: Normalizer,
  context: NormalizeContext,
): { accepted?: Accepted; acceptedKey?: string; rest: Pending[] } {
  let accepted: Accepted | undefined;
  let acceptedKey: string | undefined;
  const rest: Pending[] = [];
  for (const entry of candidates) {
    if (isBlank(entry.value)) continue;
    if (accepted) {
      rest.push({ entry });
      continue;
    }
    const result = normalize(entry.value, context);
    if (!result.ok) rest.push({ entry, invalid: { field, code: result.code, expected: result.expected } });
    else if (!isEmptyValue(result.value)) {
      accepted = result;
      acceptedKey = entry.key;
    }
  }
  return accepted ? { accepted, acceptedKey, rest } : { rest };
}

function isEmptyValue(value: Accepted['value']): boolean {
  return value === '' || (Array.isArray(value) && value.length === 0);
}
