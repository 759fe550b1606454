import { randomUUID } from 'node:crypto';
import type { Queryable } from '../db/index.ts';
import type { FieldWarning, JsonObject, JsonValue } from '../ingest/types.ts';

export interface NewListenSample {
  agent_id: string;
  source_id: string;
  body: JsonValue;
  mapped: JsonObject;
  custom_fields: JsonObject;
  warnings: FieldWarning[];
  error_code: string | null;
}

export async function insertListenSample(db: Queryable, s: NewListenSample): Promise<string> {
  const sampleId = randomUUID();
  await db.query(
    `INSERT INTO listen_samples (agent_id, sample_id, source_id, body, mapped, custom_fields, warnings, error_code)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`,
    [
      s.agent_id,
      sampleId,
      s.source_id,
      JSON.stringify(s.body),
      JSON.stringify(s.mapped),
      JSON.stringify(s.custom_fields),
      JSON.stringify(s.warnings),
      s.error_code,
    ],
  );
  return sampleId;
}
