import { sanitizeJson } from '../ingest/sanitize.ts';
import type { JsonObject } from '../json.ts';
import type { SampleStore } from '../listen/listen-sample-repository.ts';
import { keptRawBody } from '../listen/raw-body.ts';
import { currentSourceValues } from '../sources/source-repository.ts';
import { mappedContent, type MappedContent } from './listen.ts';
import type { PreparedLead } from './prepare-lead.ts';
import type { Rejected } from './result.ts';
import { UNCONFIRMED, type SourceClaim, type Unconfirmed } from './source-directory.ts';

/** Where a sample that could not be kept is reported (the request's logger). */
export interface WarningLog {
  warn(details: object, message: string): void;
}

const NOTHING_MAPPED: MappedContent = { body_format: null, mapped: {}, custom_fields: {}, warnings: [] };

/**
 * A live lead delivery refused with 400 (INVALID_JSON, MISSING_NAME, INVALID_IDEMPOTENCY_KEY), or
 * with 422 by its source's terms (LEAD_NOT_ACCEPTED, SOURCE_CAP_REACHED), is kept as a sample
 * (`listen: false`), so the agent sees what a broken integration sends: the raw
 * text, the body when it was a JSON object or a form, and what the mapping made of it. Returns the
 * refusal unchanged: the sender's answer never depends on the sample, and a sample that cannot be
 * stored is only logged. The sample's insert checks the token itself, as a Listen sample's does: a
 * claim from this process's memory needs no lookup first, and one that is no longer current (or
 * whose insert failed) comes back UNCONFIRMED, for the gateway to ask the database — a revoked token
 * is answered 401, not 400.
 */
export async function keepRefused(
  samples: SampleStore,
  { source, tokenHash, confirmed }: SourceClaim,
  delivery: { rawBody: Buffer | undefined; log: WarningLog },
  refusal: Rejected,
  parsed?: { body: JsonObject; lead: PreparedLead },
): Promise<Rejected | Unconfirmed> {
  try {
    const raw = keptRawBody(delivery.rawBody);
    const content = parsed ? mappedContent(parsed.lead) : NOTHING_MAPPED;
    const stored = await samples.refused(
      {
        agent_id: source.agent_id,
        source_id: source.source_id,
        listen: false,
        error_code: refusal.code,
        error_details: refusal.details ?? null,
        raw_body: raw.text,
        body: parsed ? sanitizeJson(parsed.body) : null,
        ...content,
        warnings: [...content.warnings, ...raw.warnings],
        would_fire: null,
      },
      currentSourceValues(tokenHash, source),
    );
    if (stored === null) return UNCONFIRMED;
  } catch (err) {
    if (!confirmed) return UNCONFIRMED;
    delivery.log.warn({ err, error_code: refusal.code }, 'refused delivery not kept as a sample');
  }
  return refusal;
}
