import type { FastifyInstance } from 'fastify';
import { createPreviews } from '../automations/preview.ts';
import { appError } from '../errors.ts';
import { remapSample } from '../gateway/listen.ts';
import { isJsonObject } from '../json.ts';
import { getSample, listSamples } from '../listen/listen-sample-repository.ts';
import type { AdminDeps } from './deps.ts';
import { queryValue, uuidParam } from './input.ts';
import { ownerOf } from './auth.ts';
import { requireDeliverySource, requireSource } from './lookups.ts';

interface SampleParams {
  source_id?: string;
  sample_id?: string;
}

/** A source's samples (Listen-mode deliveries and refused live ones), and re-mapping one of them. */
export function registerSampleRoutes(app: FastifyInstance, deps: AdminDeps): void {
  const previews = createPreviews(deps.db);
  app.get<{ Params: SampleParams }>('/sources/:source_id/samples', async (request) => {
    const source = await requireSource(deps.db, request.params.source_id, ownerOf(request));
    const listen = listenFilter(queryValue(request.query, 'listen'));
    return { samples: await listSamples(deps.db, source, { listen }) };
  });

  // Reads only: the answer is what a Listen delivery of the sample's body would show now.
  app.post<{ Params: SampleParams }>('/sources/:source_id/samples/:sample_id/remap', async (request) => {
    const source = await requireDeliverySource(deps.db, request.params.source_id, ownerOf(request));
    const sampleId = uuidParam(request.params.sample_id, 'NOT_FOUND');
    const sample = await getSample(deps.db, source, sampleId);
    if (!sample) throw appError('NOT_FOUND', `The source has no sample ${sampleId}`);
    if (!isJsonObject(sample.body)) {
      throw appError(
        'VALIDATION_ERROR',
        'The sample has no JSON body to map (it was refused as INVALID_JSON); only its raw_body is kept',
      );
    }
    const content = remapSample(previews, source, sample.body);
    if (!content) {
      throw appError(
        'VALIDATION_ERROR',
        'The sample is a booking-scheduler event: mapping rules do not apply',
      );
    }
    return { sample_id: sample.sample_id, source_id: source.source_id, ...(await content) };
  });

  const missingSourceId = async () => {
    throw appError('MISSING_SOURCE_ID');
  };
  app.get('/sources//samples', missingSourceId);
  app.post('/sources//samples/:sample_id/remap', missingSourceId);
}

/** `?listen=true`: Listen samples only; `?listen=false`: refused live deliveries only. */
function listenFilter(value: string | undefined): boolean | undefined {
  if (value === undefined) return undefined;
  if (value === 'true' || value === 'false') return value === 'true';
  throw appError('VALIDATION_ERROR', 'listen must be true or false');
}
