import { ADMIN_PREFIX, adminOperation, BODY, ok, SOURCE } from './paths.ts';
import type { Json } from './json-schema.ts';

/** The operations on a source's samples and mapping rules. */
export function buildSamplePaths(): Record<string, Json> {
  const a = ADMIN_PREFIX;
  return {
    [`${a}/sources/{source_id}/samples`]: {
      get: adminOperation(
        'listSamples',
        'A source’s samples (Listen-mode and refused live deliveries), newest first',
        {
          parameters: ['SourceId', 'SampleKind'],
          responses: ok('The samples.', 'SampleList'),
          errors: [...SOURCE, 'VALIDATION_ERROR'],
        },
      ),
    },
    [`${a}/sources/{source_id}/samples/{sample_id}/remap`]: {
      post: adminOperation(
        'remapSample',
        'Map a stored sample again with the source’s current rules (writes nothing)',
        {
          parameters: ['SourceId', 'SampleId'],
          responses: ok('The sample as it maps now.', 'SampleRemap'),
          errors: [...SOURCE, 'NOT_FOUND', 'VALIDATION_ERROR'],
        },
      ),
    },
    [`${a}/sources/{source_id}/mapping`]: {
      get: adminOperation('getMappingRules', 'A source’s mapping rules', {
        parameters: ['SourceId'],
        responses: ok('The rules.', 'MappingRules'),
        errors: SOURCE,
      }),
      put: adminOperation('setMappingRules', 'Replace a source’s mapping rules', {
        parameters: ['SourceId'],
        body: 'SetMappingRulesRequest',
        responses: ok('The rules now in force.', 'MappingRules'),
        errors: [...SOURCE, ...BODY],
      }),
    },
  };
}
