import { createPreviews } from '../automations/preview.ts';
import { appError } from '../errors.ts';
import { createRoutePreview, remapSample } from '../gateway/listen.ts';
import { isJsonObject } from '../json.ts';
import { getSample, listSamples } from '../listen/listen-sample-repository.ts';
import { findDeliverySource } from '../sources/source-repository.ts';
import type { AdminApp, AdminDeps } from './deps.ts';
import { loadSource, sourceOf } from './lookups.ts';
import { answers, operation, SOURCE } from './schemas/errors.ts';
import { SampleList, SampleParams, SampleQuery, SampleRemap } from './schemas/samples.ts';
import { SourceParams } from './schemas/sources.ts';

/** A source's samples (Listen-mode deliveries and refused live ones), and re-mapping one of them. */
export function registerSampleRoutes(app: AdminApp, deps: AdminDeps): void {
  const withSource = loadSource(deps.db);
  const foresight = { previews: createPreviews(deps.db), routes: createRoutePreview(deps.db) };

  app.get(
    '/sources/:source_id/samples',
    {
      preValidation: withSource,
      schema: {
        ...operation(
          'listSamples',
          'A source’s samples (Listen-mode and refused live deliveries), newest first',
        ),
        params: SourceParams,
        querystring: SampleQuery,
        response: answers({ 200: SampleList }, [...SOURCE, 'VALIDATION_ERROR']),
      },
    },
    async (request) => {
      const listen = request.query.listen === undefined ? undefined : request.query.listen === 'true';
      return { samples: await listSamples(deps.db, sourceOf(request), { listen }) };
    },
  );

  // Reads only: the answer is what a Listen delivery of the sample's body would show now.
  app.post(
    '/sources/:source_id/samples/:sample_id/remap',
    {
      preValidation: withSource,
      schema: {
        ...operation(
          'remapSample',
          'Map a stored sample again with the source’s current rules (writes nothing)',
        ),
        params: SampleParams,
        response: answers({ 200: SampleRemap }, [...SOURCE, 'NOT_FOUND', 'VALIDATION_ERROR']),
      },
    },
    async (request) => {
      const source = await findDeliverySource(deps.db, sourceOf(request).source_id);
      if (!source) throw appError('SOURCE_NOT_FOUND');
      const sampleId = request.params.sample_id.toLowerCase();
      const sample = await getSample(deps.db, source, sampleId);
      if (!sample) throw appError('NOT_FOUND', `The source has no sample ${sampleId}`);
      if (!isJsonObject(sample.body)) {
        throw appError(
          'VALIDATION_ERROR',
          'The sample has no JSON body to map (it was refused as INVALID_JSON); only its raw_body is kept',
        );
      }
      const content = remapSample(foresight, source, sample.body);
      if (!content) {
        throw appError(
          'VALIDATION_ERROR',
          'The sample is a booking-scheduler event: mapping rules do not apply',
        );
      }
      return { sample_id: sample.sample_id, source_id: source.source_id, ...(await content) };
    },
  );

  const missingSourceId = async () => {
    throw appError('MISSING_SOURCE_ID');
  };
  app.get('/sources//samples', { schema: { hide: true } }, missingSourceId);
  app.post('/sources//samples/:sample_id/remap', { schema: { hide: true } }, missingSourceId);
}
