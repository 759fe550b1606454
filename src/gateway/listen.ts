import { previewAutomations } from '../automations/preview.ts';
import { isTransientDbError } from '../db/database.ts';
import type { Database } from '../db/index.ts';
import { sanitizeJson } from '../ingest/sanitize.ts';
import type { JsonObject } from '../json.ts';
import { contactKeys, findContact } from '../leads/contact-keys.ts';
import { insertListenSample, type NewListenSample } from '../listen/listen-sample-repository.ts';
import type { AuthenticatedSource } from '../sources/source-repository.ts';
import type { PreparedLead } from './prepare-lead.ts';
import { rejected, unavailable, type DeliveryResult } from './result.ts';

/**
 * Listen mode (dry run): stores the sample — raw body, the lead as it would land, what went to
 * custom_fields, warnings, the error it would get, and what a live delivery would have triggered
 * (create or merge, the call task and the text, the destinations) — and nothing else: no lead, no
 * appointment, no outbox message, no idempotency key. A sample without a name is stored (so the
 * agent sees why) and then answered with MISSING_NAME.
 */
export async function recordListenSample(
  db: Database,
  source: AuthenticatedSource,
  body: JsonObject,
  lead: PreparedLead,
): Promise<DeliveryResult> {
  const errorCode = lead.hasName ? null : 'MISSING_NAME';
  const stored = await storeSample(db, source, async () => ({
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
    would_fire: errorCode ? null : await wouldFire(db, source, lead),
  }));
  if (stored.kind === 'rejected') return stored;
  return errorCode ? rejected(errorCode) : stored;
}

/** A scheduler event other than a booking, in Listen mode: the sample says what would be done. */
export function recordListenEvent(
  db: Database,
  source: AuthenticatedSource,
  body: JsonObject,
  mapped: { event: string; action: string },
): Promise<DeliveryResult> {
  return storeSample(db, source, async () => ({
    body,
    mapped,
    custom_fields: {},
    warnings: [],
    error_code: null,
  }));
}

function wouldFire(db: Database, source: AuthenticatedSource, lead: PreparedLead) {
  return findContact(db, source.agent_id, contactKeys(lead.fields)).then((existing) =>
    previewAutomations(db, {
      agent_id: source.agent_id,
      source_id: source.source_id,
      lead: { ...lead.fields, status: lead.status },
      existingLeadId: existing,
      hasAppointment: lead.appointment !== null,
      now: new Date(),
    }),
  );
}

async function storeSample(
  db: Database,
  source: AuthenticatedSource,
  build: () => Promise<Omit<NewListenSample, 'agent_id' | 'source_id'> & { body: JsonObject }>,
): Promise<DeliveryResult> {
  try {
    const sample = await build();
    await insertListenSample(db, {
      ...sample,
      agent_id: source.agent_id,
      source_id: source.source_id,
      body: sanitizeJson(sample.body),
    });
    return { kind: 'listened' };
  } catch (err) {
    return isTransientDbError(err)
      ? unavailable(err)
      : rejected('LISTEN_INSERT_FAILED', undefined, { cause: err });
  }
}
