import { LIMITS } from '../config.ts';
import { newId } from '../db/ids.ts';
import { iso, type Database, type Queryable } from '../db/index.ts';
import {
  columnList,
  recordColumns,
  placeholder,
  recordField,
  valueExpressions,
  type ParamRef,
  type RowShape,
} from '../db/row-shape.ts';
import { together } from '../db/together.ts';
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
  /** What a live delivery would have triggered (automations, destinations, create or merge). */
  would_fire?: JsonObject | null;
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
    { name: 'would_fire', type: 'jsonb' },
  ],
};

function sampleParams(s: NewListenSample, sampleId: string): unknown[] {
  return [
    s.agent_id,
    sampleId,
    s.source_id,
    s.listen,
    s.body === null ? null : JSON.stringify(s.body),
    s.raw_body,
    s.body_format,
    JSON.stringify(s.mapped),
    JSON.stringify(s.custom_fields),
    JSON.stringify(s.warnings),
    s.error_code,
    s.would_fire ? JSON.stringify(s.would_fire) : null,
  ];
}

/**
 * The source a Listen sample is stored for, as the request knows it: the sample is written only
 * while the token still names this source, active, at this revision (the check a live lead's write
 * makes in its own statement), so a source taken from a process's memory needs no lookup first.
 */
export interface CurrentSource {
  token_hash: string;
  revision: number;
}

// Parameters 13 and 14, after the row's twelve: the token's hash and the source's revision.
const current = (ref: ParamRef) =>
  `EXISTS (SELECT FROM sources s WHERE s.token_hash = ${ref(13, 'text')} AND s.source_id = ${ref(3, 'uuid')}
              AND s.revision = ${ref(14, 'integer')} AND s.active)`;
/**
 * The statement that stores a sample only while its token is current (one sample's parameters, or
 * with `many` each a `recordsJson` record of `$1`, answering `n` for each stored). With
 * `trimRefused`, the source's refused samples beyond the newest SAMPLE_LIMITS.refusedPerSource are
 * forgotten by the same statement, so a sender stuck in a loop of bad requests cannot fill the
 * table; the statement does not see the rows it inserts, so of the older ones it keeps the limit
 * less those it stored.
 */
function storeSql(o: { many: boolean; trimRefused: boolean }): string {
  const ref = o.many ? recordField('r') : placeholder;
  const records = `r AS (SELECT * FROM json_to_recordset($1::json) AS r (${recordColumns(SAMPLE_ROW.columns.length + 2)})),`;
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
  return `WITH ${o.many ? records : ''} stored AS (
  INSERT INTO listen_samples (${columnList(SAMPLE_ROW)})
  SELECT ${valueExpressions(SAMPLE_ROW, 1, ref).join(', ')}${o.many ? ' FROM r' : ''}
   WHERE ${current(ref)}${o.many ? ' ORDER BY r.n' : ''}
  RETURNING agent_id, source_id, sample_id
)${o.trimRefused ? trim : ''}
SELECT ${o.many ? 'r.n FROM r JOIN stored ON stored.sample_id = r.p2::uuid' : 'sample_id FROM stored'}`;
}

// A row back for each sample stored; none for one whose token is no longer current.
const writeSamples = together<{ sample_id?: string }>({
  one: storeSql({ many: false, trimRefused: false }),
  many: storeSql({ many: true, trimRefused: false }),
});
const writeRefused = together<{ sample_id?: string }>({
  one: storeSql({ many: false, trimRefused: true }),
  many: storeSql({ many: true, trimRefused: true }),
});

/**
 * Stores a Listen sample, together with the samples stored at the same moment (db/together.ts): one
 * statement and one commit for all of them; when that statement fails, each is stored by itself, so
 * one sample's fault is only its own. Returns its id, or null when the token no longer names the
 * source at the revision given (nothing stored: the caller asks the database for the source again).
 */
export function storeListenSample(
  db: Database,
  s: NewListenSample,
  source: CurrentSource,
): Promise<string | null> {
  return storeChecked(writeSamples, db, s, source);
}

/**
 * Stores a refused live delivery and forgets the source's older refused ones beyond the limit,
 * together with the refused deliveries of the same moment (db/together.ts). Returns its id, or null
 * when the token no longer names the source at the revision given (nothing stored or forgotten).
 */
export function storeRefusedSample(
  db: Database,
  s: NewListenSample & { listen: false },
  source: CurrentSource,
): Promise<string | null> {
  return storeChecked(writeRefused, db, s, source);
}

/** A sample by a statement that stores it only while the token is current: its id, or null. */
async function storeChecked(
  write: typeof writeSamples,
  db: Database,
  s: NewListenSample,
  source: CurrentSource,
): Promise<string | null> {
  const sampleId = newId();
  const params = [...sampleParams(s, sampleId), source.token_hash, source.revision];
  const row = await write(db, { params, claims: [] });
  return row ? sampleId : null;
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
  would_fire: unknown;
}

const SAMPLE_COLUMNS = `sample_id, received_at, listen, body, raw_body, body_format, mapped, custom_fields, warnings,
       error_code, would_fire`;

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
