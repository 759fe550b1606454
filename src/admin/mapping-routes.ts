import { appError } from '../errors.ts';
import { getMappingRules } from '../sources/source-repository.ts';
import type { AdminApp, AdminDeps } from './deps.ts';
import { loadSource, sourceOf } from './lookups.ts';
import { answers, BODY, operation, SOURCE } from './schemas/errors.ts';
import { MappingRules, SetMappingRulesBody } from './schemas/samples.ts';
import { SourceParams } from './schemas/sources.ts';
import { replaceMappingRules } from '../use-cases/mapping-rules.ts';

/** A source's own mapping rules: read them, or replace them all at once. */
export function registerMappingRoutes(app: AdminApp, deps: AdminDeps): void {
  const withSource = loadSource(deps.db);

  app.get(
    '/sources/:source_id/mapping',
    {
      preValidation: withSource,
      schema: {
        ...operation('getMappingRules', 'A source’s mapping rules'),
        params: SourceParams,
        response: answers({ 200: MappingRules }, SOURCE),
      },
    },
    async (request) => {
      const found = await getMappingRules(deps.db, sourceOf(request).source_id);
      if (!found) throw appError('SOURCE_NOT_FOUND');
      return found;
    },
  );

  app.put(
    '/sources/:source_id/mapping',
    {
      preValidation: withSource,
      schema: {
        ...operation('setMappingRules', 'Replace a source’s mapping rules'),
        params: SourceParams,
        body: SetMappingRulesBody,
        response: answers({ 200: MappingRules }, [...SOURCE, ...BODY]),
      },
    },
    async (request) => {
      const result = await replaceMappingRules(deps.db, sourceOf(request).source_id, request.body.rules);
      if (!result.ok) throw appError('VALIDATION_ERROR', result.reason);
      if (!result.saved) throw appError('SOURCE_NOT_FOUND');
      return result.saved;
    },
  );

  const missingSourceId = async () => {
    throw appError('MISSING_SOURCE_ID');
  };
  app.get('/sources//mapping', { schema: { hide: true } }, missingSourceId);
  app.put('/sources//mapping', { schema: { hide: true } }, missingSourceId);
}
