import type { FastifyInstance } from 'fastify';
import { appError } from '../errors.ts';
import { parseMappingRules, type MappingRules } from '../ingest/mapping-rules.ts';
import { getMappingRules, setMappingRules } from '../sources/source-repository.ts';
import type { AdminDeps } from './deps.ts';
import { assertStorable, requireObjectBody } from './input.ts';
import { ownerOf } from './auth.ts';
import { requireSource } from './lookups.ts';

interface SourceParams {
  source_id?: string;
}

/** A source's own mapping rules: read them, or replace them all at once. */
export function registerMappingRoutes(app: FastifyInstance, deps: AdminDeps): void {
  app.get<{ Params: SourceParams }>('/sources/:source_id/mapping', async (request) => {
    const { source_id } = await requireSource(deps.db, request.params.source_id, ownerOf(request));
    const found = await getMappingRules(deps.db, source_id);
    if (!found) throw appError('SOURCE_NOT_FOUND');
    return found;
  });

  app.put<{ Params: SourceParams }>('/sources/:source_id/mapping', async (request) => {
    const { source_id } = await requireSource(deps.db, request.params.source_id, ownerOf(request));
    const saved = await setMappingRules(deps.db, source_id, parseRulesBody(request.body));
    if (!saved) throw appError('SOURCE_NOT_FOUND');
    return saved;
  });

  const missingSourceId = async () => {
    throw appError('MISSING_SOURCE_ID');
  };
  app.get('/sources//mapping', missingSourceId);
  app.put('/sources//mapping', missingSourceId);
}

/** `{"rules": {"sent key": "lead field" | null}}`, checked the way the gateway will apply it. */
function parseRulesBody(body: unknown): MappingRules {
  const value = requireObjectBody(body).rules;
  if (value === undefined) {
    throw appError('VALIDATION_ERROR', 'rules is required: {"rules": {"sent key": "lead field" or null}}');
  }
  const check = parseMappingRules(value);
  if (!check.ok) throw appError('VALIDATION_ERROR', check.details);
  for (const key of Object.keys(check.rules)) assertStorable(key, `The rule key ${JSON.stringify(key)}`);
  return check.rules;
}
