import { foldKey } from './field-names.ts';
import { isLeadField, type LeadFieldName } from './fields.ts';
import { isJsonObject } from '../json.ts';

/**
 * One source's own mapping rules, set by its agent: a sent key → the canonical field it fills, or
 * null to ignore the key (it is not stored at all). Rules apply before the alias table.
 */
export type MappingRules = Readonly<Record<string, LeadFieldName | null>>;

/** Most rules one source may have, and the longest key a rule may name. */
export const MAPPING_RULE_LIMITS = { maxRules: 500, maxKeyLength: 200 } as const;

export type RulesCheck = { ok: true; rules: MappingRules } | { ok: false; details: string };

/** Checks `{"rules": {...}}` as an agent sends it: keys are non-blank, targets lead fields or null. */
export function parseMappingRules(value: unknown): RulesCheck {
  if (!isJsonObject(value)) return { ok: false, details: 'rules must be an object of key → field or null' };
  const keys = Object.keys(value);
  if (keys.length > MAPPING_RULE_LIMITS.maxRules)
    return { ok: false, details: `At most ${MAPPING_RULE_LIMITS.maxRules} rules per source` };
  const rules: Record<string, LeadFieldName | null> = {};
  for (const key of keys) {
    const target = value[key];
    if (key.trim() === '' || key.length > MAPPING_RULE_LIMITS.maxKeyLength)
      return { ok: false, details: `A rule's key must be 1–${MAPPING_RULE_LIMITS.maxKeyLength} characters` };
    if (target !== null && !(typeof target === 'string' && isLeadField(target)))
      return {
        ok: false,
        details: `Unknown field ${JSON.stringify(target)} for rule ${JSON.stringify(key)}: use a lead field name (docs/field-mapping.md) or null to ignore the key`,
      };
    Object.defineProperty(rules, key, {
      value: target,
      enumerable: true,
      writable: true,
      configurable: true,
    });
  }
  return { ok: true, rules };
}

export type RuleMatch = { target: LeadFieldName } | { ignore: true } | undefined;

/**
 * The rules as a lookup: a key matches a rule written exactly as sent, or else one that folds to
 * the same name (`Q Coverage` and `q_coverage` are one rule).
 */
export function ruleMatcher(rules: MappingRules | undefined): (key: string) => RuleMatch {
  const entries = rules ? Object.entries(rules) : [];
  if (entries.length === 0) return () => undefined;
  const exact = new Map(entries);
  const folded = new Map(entries.map(([key, target]) => [foldKey(key), target]));
  return (key) => {
    const target = exact.has(key) ? exact.get(key) : folded.get(foldKey(key));
    if (target === undefined) return undefined;
    return target === null ? { ignore: true } : { target };
  };
}
