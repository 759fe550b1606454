import { randomUUID } from 'node:crypto';
import { LIMITS } from '../config.ts';
import { iso, type Queryable } from '../db/index.ts';
import type { FieldWarning } from '../ingest/types.ts';
import type { JsonObject, JsonValue } from '../json.ts';

export interface NewListenSample {
  agent_id: string;
  source_id: string;
  body: JsonValue;
  mapped: JsonObject;
  custom_fields: JsonObject;
  warnings: FieldWarning[];
  error_code: string | null;
  /** What a live delivery would have triggered (automations, destinations, create or merge). */
  would_fire?: JsonObject | null;
}

export async function insertListenSample(db: Queryable, s: NewListenSample): Promise<string> {
  const sampleId = randomUUID();
  await db.query(
    `INSERT INTO listen_samples (agent_id, sample_id, source_id, body, mapped, custom_fields, warnings, error_code,
                                 would_fire)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)`,
    [
      s.agent_id,
      sampleId,
      s.source_id,
      JSON.stringify(s.body),
      JSON.stringify(s.mapped),
      JSON.stringify(s.custom_fields),
      JSON.stringify(s.warnings),
      s.error_code,
      s.would_fire ? JSON.stringify(s.would_fire) : null,
    ],
  );
  return sampleId;
}

/** A Listen-mode delivery as stored: what came in and what the mapping made of it. */
export interface SampleView {
  sample_id: string;
  received_at: string;
  body: unknown;
  mapped: unknown;
  custom_fields: unknown;
  warnings: unknown;
  error_code: string | null;
  would_fire: unknown;
}

/** The newest Listen samples of one source. */
export async function listSamples(
  db: Queryable,
  source: { agent_id: string; source_id: string },
  limit: number = LIMITS.samplesListed,
): Promise<SampleView[]> {
  const { rows } = await db.query<SampleView & { received_at: Date | string }>(
    `SELECT sample_id, received_at, body, mapped, custom_fields, warnings, error_code, would_fire
       FROM listen_samples WHERE agent_id = $1 AND source_id = $2
      ORDER BY received_at DESC, sample_id DESC LIMIT $3`,
    [source.agent_id, source.source_id, limit],
  );
  return rows.map((r) => ({ ...r, received_at: iso(r.received_at) }));
}
