import { parseMappingRules, type MappingRules } from '../ingest/mapping-rules.ts';
import type { JsonObject } from '../json.ts';
import type { AuthenticatedSource } from '../sources/source-repository.ts';
import { prepareLead, type PreparedLead } from './prepare-lead.ts';

/**
 * The source's mapping rules as the map step takes them. They passed this same check when the
 * agent set them; a set that no longer passes (a field since renamed) is not applied at all rather
 * than half applied.
 */
function mappingRulesOf(source: Pick<AuthenticatedSource, 'mapping_rules'>): MappingRules | undefined {
  const check = parseMappingRules(source.mapping_rules);
  return check.ok ? check.rules : undefined;
}

/**
 * A lead body mapped as a delivery to this source maps it: its rules first, its agent's zone last;
 * `receivedAt` is when it arrived (an appointment before it is warned of).
 */
export function prepareSourceLead(
  body: JsonObject,
  source: Pick<AuthenticatedSource, 'agent_timezone' | 'mapping_rules'>,
  receivedAt: number,
): PreparedLead {
  return prepareLead(body, source.agent_timezone, mappingRulesOf(source), receivedAt);
}
