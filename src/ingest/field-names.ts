import { FIELD_ALIASES } from './tables/aliases.ts';
import { CONTROL_FIELDS, LEAD_FIELDS } from './fields.ts';
import type { LeadFieldName } from './fields.ts';

export type ControlFieldName = (typeof CONTROL_FIELDS)[number];
export type TargetName = LeadFieldName | ControlFieldName;

/**
 * How closely a sent name matched its target; lower wins when several keys name one field.
 * 0: the exact canonical name. 1: a spelling of it (`First Name`, `FIRSTNAME`). 2: an alias.
 */
export type MatchRank = 0 | 1 | 2;

export interface ResolvedName {
  target: TargetName;
  rank: MatchRank;
}

/**
 * `First Name`, `firstName`, `first-name`, `FIRST_NAME` → `first_name`. camelCase boundaries become
 * underscores, then every run of characters that is not a letter or digit does too (a vendor's
 * `Phone #` or `E-mail:` means the same as `phone`/`e_mail`), and the result is lowercased.
 */
export function foldKey(key: string): string {
  return key
    .replace(/([\p{Ll}\p{N}])(\p{Lu})/gu, '$1_$2')
    .replace(/(\p{Lu})(\p{Lu}\p{Ll})/gu, '$1_$2')
    .toLowerCase()
    .replace(/[^\p{L}\p{M}\p{N}]+/gu, '_')
    .replace(/^_+|_+$/g, '');
}

/** The folded name without underscores: `cellphone` and `cell_phone` are one name. */
export function compactKey(folded: string): string {
  return folded.replaceAll('_', '');
}

interface NameIndex {
  targets: ReadonlyMap<string, TargetName>;
  aliases: ReadonlyMap<string, TargetName>;
  /** compact spelling → target and whether it came from an alias (rank 2) or a canonical name (1). */
  compact: ReadonlyMap<string, ResolvedName>;
  /** Aliases that would point at two targets, or rows whose target is no field; a unit test keeps this empty. */
  conflicts: string[];
}

export function buildNameIndex(aliasTable: Readonly<Record<string, readonly string[]>>): NameIndex {
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
  for (const [target, names] of Object.entries(aliasTable)) {
    const canonical = targets.get(target);
    if (!canonical) {
      conflicts.add(target);
      continue;
    }
    for (const alias of names) {
      if (targets.has(alias) || (aliases.has(alias) && aliases.get(alias) !== canonical))
        conflicts.add(alias);
      else aliases.set(alias, canonical);
      addCompact(alias, canonical, 2);
    }
  }
  return { targets, aliases, compact, conflicts: [...conflicts] };
}

const INDEX = buildNameIndex(FIELD_ALIASES);

/** Which canonical or control field a sent key names, if any. Unknown keys give undefined. */
export function resolveFieldName(key: string): ResolvedName | undefined {
  const exact = INDEX.targets.get(key);
  if (exact) return { target: exact, rank: 0 };
  const folded = foldKey(key);
  const spelled = INDEX.targets.get(folded);
  if (spelled) return { target: spelled, rank: 1 };
  const compact = INDEX.compact.get(compactKey(folded));
  if (compact?.rank === 1) return compact;
  const alias = INDEX.aliases.get(folded);
  return alias ? { target: alias, rank: 2 } : compact;
}
