import { resolveAppendedField, resolveFieldName } from './field-names.ts';
import { ruleMatcher, type MappingRules } from './mapping-rules.ts';
import { isBlank } from './normalize/result.ts';
import type { FlatField } from './envelopes/index.ts';
import type { MatchRank, TargetName } from './field-names.ts';
import type { LeadFieldName } from './fields.ts';
import type { InvalidCode, Normalized, NormalizeContext, Normalizer } from './normalize/result.ts';
import type { JsonValue } from '../json.ts';

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
  /** Candidates per target field, best first: rule, exact name, spellings, aliases, fallbacks; body order within. */
  byTarget: Map<TargetName, Entry[]>;
  /** Second lines (`address_2`) per field they are appended to, in body order. */
  appended: Map<LeadFieldName, Entry[]>;
  unknown: Entry[];
}

/**
 * Binds each pair to the field it names: the source's rule first (a rule to null drops the pair),
 * then the name itself, then what the envelope said the value is (`hint`, at alias rank).
 */
export function groupEntries(fields: readonly FlatField[], rules?: MappingRules): GroupedEntries {
  const byTarget = new Map<TargetName, Entry[]>();
  const appended = new Map<LeadFieldName, Entry[]>();
  const unknown: Entry[] = [];
  const ruleFor = ruleMatcher(rules);
  const add = (map: Map<string, Entry[]>, target: string, entry: Entry) => {
    const list = map.get(target) ?? [];
    list.push(entry);
    map.set(target, list);
  };
  fields.forEach(({ key, value, hint }, index) => {
    const rule = ruleFor(key);
    if (rule && 'ignore' in rule) return;
    if (rule) return add(byTarget, rule.target, { key, value, index, rank: -1 });
    const resolved = resolveFieldName(key);
    if (resolved) return add(byTarget, resolved.target, { key, value, index, rank: resolved.rank });
    const line = resolveAppendedField(key);
    if (line) return add(appended, line, { key, value, index, rank: 2 });
    if (hint) return add(byTarget, hint, { key, value, index, rank: 2 });
    unknown.push({ key, value, index, rank: 2 });
  });
  for (const list of byTarget.values()) list.sort((a, b) => a.rank - b.rank || a.index - b.index);
  return { byTarget, appended, unknown };
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
