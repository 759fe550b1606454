import { APPENDED_ALIASES, FALLBACK_ALIASES, FIELD_ALIASES } from './tables/aliases.ts';
import { QUESTION_LEAD_INS, QUESTION_PHRASES, QUESTION_TAILS } from './tables/questions.ts';
import { CONTROL_FIELDS, LEAD_FIELDS } from './fields.ts';
import type { LeadFieldName } from './fields.ts';

export type ControlFieldName = (typeof CONTROL_FIELDS)[number];
export type TargetName = LeadFieldName | ControlFieldName;

/**
 * How closely a sent name matched its target; lower wins when several keys name one field.
 * -1: the source's own mapping rule. 0: the exact canonical name. 1: a spelling of it
 * (`First Name`, `FIRSTNAME`). 2: an alias (or what an envelope adapter knows a key means).
 * 3: a fallback name (`home_phone`), used only when nothing better names the field.
 */
export type MatchRank = -1 | 0 | 1 | 2 | 3;

export interface ResolvedName {
  target: TargetName;
  rank: MatchRank;
}

/**
 * `fn` remembered by the key as sent: a vendor sends the same keys with every lead, and folding
 * them is most of the mapper's work. Bounded twice: only keys of a field name's length are kept
 * (at most 100 characters), and the memory is emptied when it holds 10,000, so a flood of unique or
 * huge keys holds a few MB at most.
 */
function remembered<T>(fn: (key: string) => T): (key: string) => T {
  const known = new Map<string, T>();
  return (key) => {
    const hit = known.get(key);
    if (hit !== undefined || known.has(key)) return hit as T;
    const value = fn(key);
    if (key.length <= 100) {
      if (known.size >= 10_000) known.clear();
      known.set(key, value);
    }
    return value;
  };
}

/**
 * `First Name`, `firstName`, `first-name`, `FIRST_NAME` → `first_name`. camelCase boundaries become
 * underscores, then every run of characters that is not a letter or digit does too (a vendor's
 * `Phone #` or `E-mail:` means the same as `phone`/`e_mail`), and the result is lowercased.
 */
export const foldKey = remembered((key: string): string =>
  key
    .replace(/([\p{Ll}\p{N}])(\p{Lu})/gu, '$1_$2')
    .replace(/(\p{Lu})(\p{Lu}\p{Ll})/gu, '$1_$2')
    .toLowerCase()
    .replace(/[^\p{L}\p{M}\p{N}]+/gu, '_')
    .replace(/^_+|_+$/g, ''),
);

/** The folded name without underscores: `cellphone` and `cell_phone` are one name. */
export function compactKey(folded: string): string {
  return folded.replaceAll('_', '');
}

interface NameIndex {
  targets: ReadonlyMap<string, TargetName>;
  aliases: ReadonlyMap<string, TargetName>;
  fallbacks: ReadonlyMap<string, TargetName>;
  /** compact spelling → target and whether it came from a canonical name (1), an alias (2) or a fallback (3). */
  compact: ReadonlyMap<string, ResolvedName>;
  /** Aliases that would point at two targets, or rows whose target is no field; a unit test keeps this empty. */
  conflicts: string[];
}

type AliasTable = Readonly<Record<string, readonly string[]>>;

export function buildNameIndex(aliasTable: AliasTable, fallbackTable: AliasTable = {}): NameIndex {
  const targets = new Map<string, TargetName>();
  const aliases = new Map<string, TargetName>();
  const compact = new Map<string, ResolvedName>();
  const conflicts = new Set<string>();
  const addCompact = (name: string, target: TargetName, rank: MatchRank) => {
    const key = compactKey(name);
    const seen = compact.get(key);
    if (seen && seen.target !== target) conflicts.add(name);
    else if (!seen || seen.rank > rank) compact.set(key, { target, rank });
  };
  for (const name of [...(Object.keys(LEAD_FIELDS) as LeadFieldName[]), ...CONTROL_FIELDS]) {
    targets.set(name, name);
    addCompact(name, name, 1);
  }
  const fallbacks = new Map<string, TargetName>();
  const addAliases = (table: AliasTable, into: Map<string, TargetName>, rank: MatchRank) => {
    for (const [target, names] of Object.entries(table)) {
      const canonical = targets.get(target);
      if (!canonical) {
        conflicts.add(target);
        continue;
      }
      for (const alias of names) {
        if (targets.has(alias) || aliases.has(alias) || (into.has(alias) && into.get(alias) !== canonical))
          conflicts.add(alias);
        else into.set(alias, canonical);
        addCompact(alias, canonical, rank);
      }
    }
  };
  addAliases(aliasTable, aliases, 2);
  addAliases(fallbackTable, fallbacks, 3);
  return { targets, aliases, fallbacks, compact, conflicts: [...conflicts] };
}

const INDEX = buildNameIndex(FIELD_ALIASES, FALLBACK_ALIASES);

/** Which canonical or control field a sent key names, if any. Unknown keys give undefined. */
export const resolveFieldName = remembered(resolveUncached);

function resolveUncached(key: string): ResolvedName | undefined {
  const exact = INDEX.targets.get(key);
  if (exact) return { target: exact, rank: 0 };
  const folded = foldKey(key);
  const spelled = INDEX.targets.get(folded);
  if (spelled) return { target: spelled, rank: 1 };
  const compact = INDEX.compact.get(compactKey(folded));
  if (compact?.rank === 1) return compact;
  const alias = INDEX.aliases.get(folded);
  if (alias) return { target: alias, rank: 2 };
  const fallback = INDEX.fallbacks.get(folded);
  if (fallback) return { target: fallback, rank: 3 };
  if (compact) return compact;
  return resolveQuestion(folded);
}

const LEAD_INS = new Set(QUESTION_LEAD_INS);
// Longest first: `do_you_live_in` before `you_live_in`.
const TAILS = QUESTION_TAILS.map((tail) => `_${tail}`).sort((a, b) => b.length - a.length);
const PHRASES = new Map<string, TargetName>(
  Object.entries(QUESTION_PHRASES).flatMap(([field, names]) =>
    names.map((name) => [name, field as LeadFieldName] as const),
  ),
);

/**
 * A field named inside a question (`And your last name?`, `Surname please`, `Best phone to reach
 * you?`): the lead-in words dropped from the front, tails from the end, and what is left must be a
 * field's whole name. A question about something else keeps words that name no field (`Who
 * referred you by name?`). The words: tables/questions.ts.
 */
function resolveQuestion(folded: string): ResolvedName | undefined {
  const words = folded.split('_');
  let start = 0;
  while (start < words.length - 1 && LEAD_INS.has(words[start] ?? '')) start++;
  let asked = words.slice(start).join('_');
  for (;;) {
    const target = phraseTarget(asked);
    if (target) return { target, rank: 2 };
    const tail = TAILS.find((t) => asked.endsWith(t) && asked.length > t.length);
    if (tail === undefined) return undefined;
    asked = asked.slice(0, -tail.length);
  }
}

function phraseTarget(asked: string): TargetName | undefined {
  return (
    PHRASES.get(asked) ??
    INDEX.targets.get(asked) ??
    INDEX.aliases.get(asked) ??
    INDEX.compact.get(compactKey(asked))?.target
  );
}

const APPENDED = new Map(
  Object.entries(APPENDED_ALIASES).flatMap(([field, names]) =>
    names.map((name) => [compactKey(name), field as LeadFieldName] as const),
  ),
);

/** The field a second line (`address_2`, `Address Line 2`) is appended to, if the key is one. */
export function resolveAppendedField(key: string): LeadFieldName | undefined {
  // Every second-line name has a digit: most keys are ruled out without folding them.
  return /\d/.test(key) ? APPENDED.get(compactKey(foldKey(key))) : undefined;
}
