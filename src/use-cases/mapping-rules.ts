import type { Queryable } from '../db/index.ts';
import { stripUnstorable } from '../ingest/sanitize.ts';
import { parseMappingRules } from '../ingest/mapping-rules.ts';
import { setMappingRules, type SourceMappingRules } from '../sources/source-repository.ts';

export type SavedRules = { ok: true; saved: SourceMappingRules | null } | { ok: false; reason: string };

/**
 * Replaces a source's mapping rules, checked the way the gateway will apply them; they apply from
 * the next delivery on. `saved` is null when the source is gone.
 */
export async function replaceMappingRules(
  db: Queryable,
  sourceId: string,
  rules: unknown,
): Promise<SavedRules> {
  const check = parseMappingRules(rules);
  if (!check.ok) return { ok: false, reason: check.details };
  for (const key of Object.keys(check.rules)) {
    if (stripUnstorable(key) !== key) {
      return {
        ok: false,
        reason: `The rule key ${JSON.stringify(key)} contains NUL characters or unpaired surrogates`,
      };
    }
  }
  return { ok: true, saved: await setMappingRules(db, sourceId, check.rules) };
}
