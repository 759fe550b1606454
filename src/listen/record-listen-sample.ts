import type { Database } from '../db/index.ts';
import { appError } from '../errors.ts';
import { sanitizeJson } from '../ingest/sanitize.ts';
import type { JsonObject } from '../ingest/types.ts';
import type { PreparedLead } from '../leads/prepare-lead.ts';
import type { AuthenticatedSource } from '../sources/source-repository.ts';
import { insertListenSample, type NewListenSample } from './listen-sample-repository.ts';

export const LISTEN_MESSAGE = 'Sample received for mapping. Check the lead source in the app.';

/**
 * Listen mode (dry run): stores the sample — raw body, the lead as it would land, what went to
 * custom_fields, warnings, the error it would get — and creates nothing else. A sample without
 * a name is stored (so the agent sees why) and then answered with MISSING_NAME.
 */
export async function recordListenSample(
  db: Database,
  source: AuthenticatedSource,
  body: JsonObject,
  lead: PreparedLead,
): Promise<typeof LISTEN_RESPONSE> {
  const errorCode = lead.hasName ? null : 'MISSING_NAME';
  await storeListenSample(db, source, {
    body,
    mapped: {
      ...lead.fields,
      status: lead.status,
      inferred_timezone: lead.timezone,
      timezone_source: lead.timezoneSource,
    },
    custom_fields: lead.custom_fields,
    warnings: lead.warnings,
    error_code: errorCode,
  });
  if (errorCode) throw appError('MISSING_NAME');
  return LISTEN_RESPONSE;
}

export const LISTEN_RESPONSE = { success: true, listen: true, message: LISTEN_MESSAGE } as const;

/** Stores one sample; a failure is LISTEN_INSERT_FAILED. */
export async function storeListenSample(
  db: Database,
  source: AuthenticatedSource,
  sample: Omit<NewListenSample, 'agent_id' | 'source_id'> & { body: JsonObject },
): Promise<void> {
  try {
    await insertListenSample(db, {
      ...sample,
      agent_id: source.agent_id,
      source_id: source.source_id,
      body: sanitizeJson(sample.body),
    });
  } catch (err) {
    throw Object.assign(appError('LISTEN_INSERT_FAILED'), { cause: err });
  }
}
