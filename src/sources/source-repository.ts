import { newId } from '../db/ids.ts';
import { iso, type Queryable } from '../db/index.ts';
import { run, sql } from '../db/statement.ts';
import { hashToken, newSourceToken, tokenKey } from './tokens.ts';

/**
 * A source's mapping rules as stored: a sent key → the lead field it fills, or null to ignore the
 * key. The admin API checks them when they are set (`parseMappingRules` of ingest).
 */
export type StoredMappingRules = Readonly<Record<string, string | null>>;

/** What a valid token resolves to: the receiving agent and the lead source. */
export interface AuthenticatedSource {
  agent_id: string;
  source_id: string;
  source_name: string;
  agent_timezone: string;
  signing_key: string | null;
  auto_sync_enabled: boolean;
  mapping_rules: StoredMappingRules;
  /**
   * Bumped by the database on every change a delivery reads (the source, its agent's time zone, its
   * destinations): a copy kept in memory is current while its revision is.
   */
  revision: number;
  /** The source's own rate limit; null: the server's. */
  rate_limit_rps: number | null;
  rate_limit_burst: number | null;
  /** The agency whose producers the source's leads are routed to; null: they are the agent's. */
  agency_id: string | null;
}

export interface SourceRow {
  source_id: string;
  agent_id: string;
  name: string;
  active: boolean;
  created_at: string;
  updated_at: string;
  has_signing_key: boolean;
  /** The source's own rate limit (requests per second, burst); null: the server's default. */
  rate_limit_rps: number | null;
  rate_limit_burst: number | null;
  /** The agency whose producers its leads are routed to; null: its agent's own source. */
  agency_id: string | null;
}

/** The source as a delivery sees it, with its agent's zone and whether it syncs to a partner. */
const DELIVERY_SOURCE_SELECT = `
  SELECT s.agent_id, s.source_id, s.name AS source_name, a.timezone AS agent_timezone, s.signing_key,
         s.mapping_rules, s.revision, s.rate_limit_rps, s.rate_limit_burst, s.agency_id,
         EXISTS (SELECT 1 FROM sync_destinations d
                  WHERE d.agent_id = s.agent_id AND d.source_id = s.source_id AND d.active
                    AND d.kind = 'partner_sync') AS auto_sync_enabled
    FROM sources s JOIN agents a ON a.agent_id = s.agent_id`;

const SOURCES_BY_TOKEN_HASH = `${DELIVERY_SOURCE_SELECT.replace('SELECT', 'SELECT s.token_hash, s.active,')}
  WHERE s.token_hash = ANY($1::text[])`;

/** A token's source, active or not: a disabled source can be enabled again, a token named by none cannot. */
export interface TokenOwner {
  source: AuthenticatedSource;
  active: boolean;
}

/** The sources some token hashes name, active or not, by hash, in one query; a hash not found names none. */
export async function findSourcesByTokenHash(
  db: Queryable,
  hashes: readonly string[],
): Promise<Map<string, TokenOwner>> {
  const { rows } = await db.query<AuthenticatedSource & { token_hash: string; active: boolean }>(
    SOURCES_BY_TOKEN_HASH,
    [hashes],
  );
  return new Map(rows.map(({ token_hash, active, ...source }) => [token_hash, { source, active }]));
}

/** Whether any source, active or not, still has a token issued without a check (before checks were). */
export async function hasUncheckedTokens(db: Queryable): Promise<boolean> {
  const { rows } = await db.query<{ unchecked: boolean }>(
    'SELECT EXISTS (SELECT 1 FROM sources WHERE NOT token_checked) AS unchecked',
  );
  return rows[0]?.unchecked ?? true;
}

/**
 * The condition that the sources row `s` is the one a request took from memory: its token still
 * names it, active, at the revision read. Every write of a delivery checks it in its own statement
 * (`p` reads the parameters `token_hash`, `source_id` and `revision`), so a revoked token or a
 * changed source writes nothing and the gateway asks the database again.
 */
export function currentSourceSql(
  s: string,
  p: (name: 'token_hash' | 'source_id' | 'revision', type: string) => string,
): string {
  return `${s}.token_hash = ${p('token_hash', 'text')} AND ${s}.source_id = ${p('source_id', 'uuid')}
     AND ${s}.revision = ${p('revision', 'integer')} AND ${s}.active`;
}

/** The token's hash and the source as a request knows them: the values `currentSourceSql` checks. */
export function currentSourceValues(
  tokenHash: string,
  source: Pick<AuthenticatedSource, 'source_id' | 'revision'>,
) {
  return { token_hash: tokenHash, source_id: source.source_id, revision: source.revision };
}

const IS_SOURCE_CURRENT = sql<'token_hash' | 'source_id' | 'revision'>(
  (p) => `SELECT 1 FROM sources s WHERE ${currentSourceSql('s', p)}`,
);

/** Whether the token still names this source, active, at this revision (`currentSourceSql`). */
export async function isSourceCurrent(
  db: Queryable,
  tokenHash: string,
  source: Pick<AuthenticatedSource, 'source_id' | 'revision'>,
): Promise<boolean> {
  const { rowCount } = await run(db, IS_SOURCE_CURRENT, currentSourceValues(tokenHash, source));
  return rowCount > 0;
}

/** A source as a delivery to it sees it (active or not), by id: what a re-mapped sample is mapped with. */
export async function findDeliverySource(
  db: Queryable,
  sourceId: string,
): Promise<AuthenticatedSource | null> {
  const { rows } = await db.query<AuthenticatedSource>(`${DELIVERY_SOURCE_SELECT} WHERE s.source_id = $1`, [
    sourceId,
  ]);
  return rows[0] ?? null;
}

/** A source's mapping rules, as the admin API shows them. */
export interface SourceMappingRules {
  source_id: string;
  rules: StoredMappingRules;
}

export async function getMappingRules(db: Queryable, sourceId: string): Promise<SourceMappingRules | null> {
  const { rows } = await db.query<SourceMappingRules>(
    'SELECT source_id, mapping_rules AS rules FROM sources WHERE source_id = $1',
    [sourceId],
  );
  return rows[0] ?? null;
}

/** Replaces a source's mapping rules (already checked); they apply from the next delivery on. */
export async function setMappingRules(
  db: Queryable,
  sourceId: string,
  rules: StoredMappingRules,
): Promise<SourceMappingRules | null> {
  const { rows } = await db.query<SourceMappingRules>(
    `UPDATE sources SET mapping_rules = $2::jsonb, updated_at = now()
      WHERE source_id = $1 RETURNING source_id, mapping_rules AS rules`,
    [sourceId, JSON.stringify(rules)],
  );
  return rows[0] ?? null;
}

const SOURCE_COLUMNS = `source_id, agent_id, name, active, created_at, updated_at, signing_key IS NOT NULL AS has_signing_key,
  rate_limit_rps, rate_limit_burst, agency_id`;

/** A new source of the agent; of an agency (`agencyId`), it is listed under the agency's fallback producer. */
export async function createSource(
  db: Queryable,
  agentId: string,
  name: string,
  agencyId: string | null = null,
): Promise<{ source: SourceRow; token: string }> {
  const token = newSourceToken(await tokenKey(db));
  const { rows } = await db.query<SourceRow>(
    `INSERT INTO sources (agent_id, source_id, name, token_hash, token_checked, agency_id)
     VALUES ($1, $2, $3, $4, true, $5) RETURNING ${SOURCE_COLUMNS}`,
    [agentId, newId(), name, hashToken(token), agencyId],
  );
  return { source: toSource(rows[0]), token };
}

export async function regenerateSourceToken(
  db: Queryable,
  sourceId: string,
): Promise<{ source: SourceRow; token: string } | null> {
  const token = newSourceToken(await tokenKey(db));
  const { rows } = await db.query<SourceRow>(
    `UPDATE sources SET token_hash = $2, token_checked = true, updated_at = now()
      WHERE source_id = $1 RETURNING ${SOURCE_COLUMNS}`,
    [sourceId, hashToken(token)],
  );
  return rows[0] ? { source: toSource(rows[0]), token } : null;
}

export async function getSource(db: Queryable, sourceId: string): Promise<SourceRow | null> {
  const { rows } = await db.query<SourceRow>(`SELECT ${SOURCE_COLUMNS} FROM sources WHERE source_id = $1`, [
    sourceId,
  ]);
  return rows[0] ? toSource(rows[0]) : null;
}

export async function listSources(db: Queryable, agentId: string): Promise<SourceRow[]> {
  const { rows } = await db.query<SourceRow>(
    `SELECT ${SOURCE_COLUMNS} FROM sources WHERE agent_id = $1 ORDER BY created_at, source_id`,
    [agentId],
  );
  return rows.map(toSource);
}

export async function updateSource(
  db: Queryable,
  sourceId: string,
  patch: {
    active?: boolean;
    name?: string;
    signing_key?: string | null;
    rate_limit_rps?: number | null;
    rate_limit_burst?: number | null;
  },
): Promise<SourceRow | null> {
  const { rows } = await db.query<SourceRow>(
    `UPDATE sources SET
        active = COALESCE($2, active),
        name = COALESCE($3, name),
        signing_key = CASE WHEN $4::boolean THEN $5 ELSE signing_key END,
        rate_limit_rps = CASE WHEN $6::boolean THEN $7::integer ELSE rate_limit_rps END,
        rate_limit_burst = CASE WHEN $8::boolean THEN $9::integer ELSE rate_limit_burst END,
        updated_at = now()
      WHERE source_id = $1 RETURNING ${SOURCE_COLUMNS}`,
    [
      sourceId,
      patch.active ?? null,
      patch.name ?? null,
      patch.signing_key !== undefined,
      patch.signing_key ?? null,
      patch.rate_limit_rps !== undefined,
      patch.rate_limit_rps ?? null,
      patch.rate_limit_burst !== undefined,
      patch.rate_limit_burst ?? null,
    ],
  );
  return rows[0] ? toSource(rows[0]) : null;
}

function toSource(row: SourceRow | undefined): SourceRow {
  if (!row) throw new Error('expected a source row');
  return { ...row, created_at: iso(row.created_at), updated_at: iso(row.updated_at) };
}
