import type { Database } from '../db/index.ts';
import { sanitizeJson } from '../ingest/sanitize.ts';
import type { JsonObject } from '../json.ts';
import { keepRefusedSample } from '../listen/listen-sample-repository.ts';
import { keptRawBody } from '../listen/raw-body.ts';
import type { AuthenticatedSource } from '../sources/source-repository.ts';
import { mappedContent, type MappedContent } from './listen.ts';
import type { PreparedLead } from './prepare-lead.ts';
import type { Rejected } from './result.ts';

/** Where a sample that could not be kept is reported (the request's logger). */
export interface WarningLog {
  warn(details: object, message: string): void;
}

const NOTHING_MAPPED: MappedContent = { body_format: null, mapped: {}, custom_fields: {}, warnings: [] };

/**
 * A live lead delivery refused with 400 (INVALID_JSON, MISSING_NAME, INVALID_IDEMPOTENCY_KEY) is
 * kept as a sample (`listen: false`), so the agent sees what a broken integration sends: the raw
 * text, the body when it was a JSON object or a form, and what the mapping made of it. Returns the
 * refusal unchanged: the sender's answer never depends on the sample, and a sample that cannot be
 * stored is only logged.
 */
export async function keepRefused(
  db: Database,
  source: AuthenticatedSource,
  delivery: { rawBody: Buffer | undefined; log: WarningLog },
  refusal: Rejected,
  parsed?: { body: JsonObject; lead: PreparedLead },
): Promise<Rejected> {
  try {
    const raw = keptRawBody(delivery.rawBody);
    const content = parsed ? mappedContent(parsed.lead) : NOTHING_MAPPED;
    await keepRefusedSample(db, {
      agent_id: source.agent_id,
      source_id: source.source_id,
      listen: false,
      error_code: refusal.code,
      raw_body: raw.text,
      body: parsed ? sanitizeJson(parsed.body) : null,
      ...content,
      warnings: [...content.warnings, ...raw.warnings],
      would_fire: null,
    });
  } catch (err) {
    delivery.log.warn({ err, error_code: refusal.code }, 'refused delivery not kept as a sample');
  }
  return refusal;
}
