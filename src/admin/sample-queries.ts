import { iso, type Queryable } from '../db/index.ts';

/** A Listen-mode delivery as stored: what came in and what the mapping made of it. */
export interface SampleView {
  sample_id: string;
  received_at: string;
  body: unknown;
  mapped: unknown;
  custom_fields: unknown;
  warnings: unknown;
  error_code: string | null;
}

export const SAMPLE_LIMIT = 100;

/** The newest Listen samples of one source. */
export async function listSamples(
  db: Queryable,
  source: { agent_id: string; source_id: string },
  limit = SAMPLE_LIMIT,
): Promise<SampleView[]> {
  const { rows } = await db.query<SampleView & { received_at: Date | string }>(
    `SELECT sample_id, received_at, body, mapped, custom_fields, warnings, error_code
       FROM listen_samples WHERE agent_id = $1 AND source_id = $2
      ORDER BY received_at DESC, sample_id DESC LIMIT $3`,
    [source.agent_id, source.source_id, limit],
  );
  return rows.map((r) => ({ ...r, received_at: iso(r.received_at) }));
}
