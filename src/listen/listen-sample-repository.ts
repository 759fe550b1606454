import { LIMITS } from '../limits.ts';
import { newId } from '../db/ids.ts';
import { iso, type Database, type Queryable } from '../db/index.ts';
import { columnList, rowValues, sqlForOneOrMany, type RowShape, type TwoForms } from '../db/statement.ts';
import { together } from '../db/together.ts';
import { currentSourceSql, type currentSourceValues } from '../sources/source-repository.ts';
import type { FieldWarning } from '../ingest/types.ts';
import type { JsonObject, JsonValue } from '../json.ts';
import { SAMPLE_LIMITS } from './sample-limits.ts';

/** A sample to store: a Listen-mode delivery, or a live one the gateway refused. */
export interface NewListenSample {
  agent_id: string;
  source_id: string;
  /** true: a Listen-mode delivery; false: a live delivery refused with `error_code`. */
  listen: boolean;
  /** The body as a JSON object, or null when it was none (a refused INVALID_JSON). */
  body: JsonValue | null;
  /** The exact text received, kept for refused deliveries only (null for Listen samples). */
  raw_body: string | null;
  /** Which envelope adapter read the body (`flat`, `meta_lead_ads` …); null when none did. */
  body_format: string | null;
  mapped: JsonObject;
  custom_fields: JsonObject;
  warnings: FieldWarning[];
  error_code: string | null;
  /** What the refusal said beyond its code (the acceptance rule a lead breaks); null: nothing. */
  error_details?: string | null;
  /** What a live delivery would have triggered (automations, destinations, create or merge). */
  would_fire?: JsonObject | null;
  /** For an agency's source: the producer a live delivery would go to, and by which rule. */
  would_route?: JsonObject | null;
}

/** A sample's row: the columns a stored sample is written with, each with its type. */
const SAMPLE_ROW: RowShape = {
  table: 'listen_samples',
  columns: [
    { name: 'agent_id', type: 'uuid' },
    { name: 'sample_id', type: 'uuid' },
    { name: 'source_id', type: 'uuid' },
    { name: 'listen', type: 'boolean' },
    { name: 'body', type: 'jsonb' },
    { name: 'raw_body', type: 'text' },
    { name: 'body_format', type: 'text' },
    { name: 'mapped', type: 'jsonb' },
    { name: 'custom_fields', type: 'jsonb' },
    { name: 'warnings', type: 'jsonb' },
    { name: 'error_code', type: 'text' },
    { name: 'error_details', type: 'text' },
    { name: 'would_fire', type: 'jsonb' },
    { name: 'would_route', type: 'jsonb' },
  ],
};

/** A sample's values, by column (SAMPLE_ROW). */
function sampleRow(s: NewListenSample, sampleId: string): Record<string, unknown> {
  return {
    agent_id: s.agent_id,
    sample_id: sampleId,
    source_id: s.source_id,
    listen: s.listen,
    body: s.body === null ? null : JSON.stringify(s.body),
    raw_body: s.raw_body,
    body_format: s.body_format,
    mapped: JSON.stringify(s.mapped),
    custom_fields: JSON.stringify(s.custom_fields),
    warnings: JSON.stringify(s.warnings),
    error_code: s.error_code,
    error_details: s.error_details ?? null,
    would_fire: s.would_fire ? JSON.stringify(s.would_fire) : null,
    would_route: s.would_route ? JSON.stringify(s.would_route) : null,
  };
}

/**
 * The statement that stores a sample only while its token is current (`currentSourceSql`: a source
 * taken from a process's memory needs no lookup first), for one sample or the samples of one moment.
 * With `trimRefused`, the source's refused samples beyond the newest SAMPLE_LIMITS.refusedPerSource
 * are forgotten by the same statement, so a sender stuck in a loop of bad requests cannot fill the
 * table; the statement does not see the rows it inserts, so of the older ones it keeps the limit
 * less those it stored.
 */
function storeSql(trimRefused: boolean) {
  return sqlForOneOrMany((p, rows) => {
    const trim = `, cut AS (
  SELECT k.agent_id, k.source_id, c.received_at, c.sample_id
    FROM (SELECT agent_id, source_id, count(*) AS n FROM stored GROUP BY agent_id, source_id) k
   CROSS JOIN LATERAL (
     SELECT x.received_at, x.sample_id FROM listen_samples x
      WHERE x.agent_id = k.agent_id AND x.source_id = k.source_id AND NOT x.listen
      ORDER BY x.received_at DESC, x.sample_id DESC
     OFFSET greatest(${SAMPLE_LIMITS.refusedPerSource} - k.n, 0) LIMIT 1) c
), trimmed AS (
  DELETE FROM listen_samples d USING cut
   WHERE d.agent_id = cut.agent_id AND d.source_id = cut.source_id AND NOT d.listen
     AND (d.received_at, d.sample_id) <= (cut.received_at, cut.sample_id)
)`;
    return `WITH r AS (${rows}), stored AS (
  INSERT INTO listen_samples (${columnList(SAMPLE_ROW)})
  SELECT ${rowValues(SAMPLE_ROW, p).join(', ')} FROM r
   WHERE EXISTS (SELECT FROM sources s WHERE ${currentSourceSql('s', p)})
   ORDER BY r.n
  RETURNING agent_id, source_id, sample_id
)${trimRefused ? trim : ''}
SELECT r.n FROM r JOIN stored ON stored.sample_id = ${p('sample_id', 'uuid')}`;
  });
}

const STORE_SAMPLE = storeSql(false);
const STORE_REFUSED = storeSql(true);

/** The source a sample is stored for, as the request knows it (`currentSourceValues`). */
export type CurrentSource = ReturnType<typeof currentSourceValues>;

/**
 * Stores samples, each with the samples stored at the same moment (db/together.ts): one statement
 * and one commit for all of them; when that statement fails, each is stored by itself, so one
 * sample's fault is only its own. Each returns its id, or null when the token no longer names the
 * source at the revision given (nothing stored: the caller asks the database for the source again).
 */
export interface SampleStore {
  /** A Listen sample. */
  listen(s: NewListenSample, source: CurrentSource): Promise<string | null>;
  /** A refused live delivery; the source's older refused ones beyond the limit are forgotten. */
  refused(s: NewListenSample & { listen: false }, source: CurrentSource): Promise<string | null>;
}

export function createSampleStore(db: Database): SampleStore {
  const stored = (statement: TwoForms) => {
    const write = together(db, statement);
    return async (s: NewListenSample, source: CurrentSource) => {
      const sampleId = newId();
      const params = statement.one.values({ ...sampleRow(s, sampleId), ...source });
      return (await write({ params, claims: [] })) ? sampleId : null;
    };
  };
  return { listen: stored(STORE_SAMPLE), refused: stored(STORE_REFUSED) };
}

/** Forgets samples older than SAMPLE_LIMITS.retentionDays. Returns how many were removed. */
export async function purgeExpiredSamples(db: Queryable): Promise<number> {
  const { rowCount } = await db.query(
    `DELETE FROM listen_samples WHERE received_at < now() - make_interval(days => $1)`,
    [SAMPLE_LIMITS.retentionDays],
  );
  return rowCount;
}

/** A sample as stored: what came in and what the mapping made of it. */
export interface SampleView {
  sample_id: string;
  received_at: string;
  listen: boolean;
  body: unknown;
  raw_body: string | null;
  body_format: string | null;
  mapped: unknown;
  custom_fields: unknown;
  warnings: unknown;
  error_code: string | null;
  error_details: string | null;
  would_fire: unknown;
  would_route: unknown;
}

const SAMPLE_COLUMNS = `sample_id, received_at, listen, body, raw_body, body_format, mapped, custom_fields, warnings,
       error_code, error_details, would_fire, would_route`;

type SampleSource = { agent_id: string; source_id: string };

/** The newest samples of one source; `listen` keeps only Listen samples (true) or refused ones (false). */
export async function listSamples(
  db: Queryable,
  source: SampleSource,
  filter: { listen?: boolean } = {},
  limit: number = LIMITS.samplesListed,
): Promise<SampleView[]> {
  const { rows } = await db.query<SampleView & { received_at: Date | string }>(
    `SELECT ${SAMPLE_COLUMNS}
       FROM listen_samples WHERE agent_id = $1 AND source_id = $2 AND ($3::boolean IS NULL OR listen = $3)
      ORDER BY received_at DESC, sample_id DESC LIMIT $4`,
    [source.agent_id, source.source_id, filter.listen ?? null, limit],
  );
  return rows.map(toView);
}

/** One sample of a source, or null. */
export async function getSample(
  db: Queryable,
  source: SampleSource,
  sampleId: string,
): Promise<SampleView | null> {
  const { rows } = await db.query<SampleView & { received_at: Date | string }>(
    `SELECT ${SAMPLE_COLUMNS} FROM listen_samples WHERE agent_id = $1 AND source_id = $2 AND sample_id = $3`,
    [source.agent_id, source.source_id, sampleId],
  );
  return rows[0] ? toView(rows[0]) : null;
}

function toView(row: SampleView & { received_at: Date | string }): SampleView {
  return { ...row, received_at: iso(row.received_at) };
}
