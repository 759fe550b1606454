import { newId } from '../db/ids.ts';
import type { Queryable } from '../db/index.ts';
import {
  SOURCE_COLUMNS,
  toSource,
  type SourceColumns,
  type SourceConsent,
  type SourceRow,
} from './source-row.ts';
import { run, sql } from '../db/statement.ts';
import type { AcceptRules, Caps, DeliveryTerms } from './terms.ts';
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
  /** Meta's app secret, sealed (secrets.ts): an envelope to this source must be signed with it. */
  meta_app_secret: string | null;
  /** SHA-256 hex of the verify token Meta's subscription handshake must present. */
  meta_verify_token_hash: string | null;
  /** SHA-256 hex of the key a Google Ads lead form webhook to this source must carry. */
  google_key_hash: string | null;
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
  /** Price, duplicate days, acceptance rules and caps (terms.ts). */
  terms: DeliveryTerms;
}

/** The source as a delivery sees it, with its agent's zone and whether it syncs to a partner. */
const DELIVERY_SOURCE_SELECT = `
  SELECT s.agent_id, s.source_id, s.name AS source_name, a.timezone AS agent_timezone, s.signing_key,
         s.meta_app_secret, s.meta_verify_token_hash, s.google_key_hash, s.mapping_rules, s.revision, s.rate_limit_rps, s.rate_limit_burst,
         s.agency_id,
         json_build_object('price_cents', s.price_cents, 'duplicate_days', s.duplicate_days,
                           'accept', s.accept, 'caps', s.caps, 'timezone', COALESCE(g.timezone, a.timezone)) AS terms,
         EXISTS (SELECT 1 FROM sync_destinations d
                  WHERE d.agent_id = s.agent_id AND d.source_id = s.source_id AND d.active
                    AND d.kind = 'partner_sync') AS auto_sync_enabled
    FROM sources s JOIN agents a ON a.agent_id = s.agent_id LEFT JOIN agencies g ON g.agency_id = s.agency_id`;

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

/** A source as the Meta fetcher needs it: as a delivery sees it, its token's hash, its page token. */
export interface MetaSource {
  source: AuthenticatedSource;
  token_hash: string;
  active: boolean;
  /** Sealed (secrets.ts); null: none set. */
  meta_page_access_token: string | null;
  meta_listen: boolean;
}

export async function findMetaSource(
  db: Queryable,
  agentId: string,
  sourceId: string,
): Promise<MetaSource | null> {
  const { rows } = await db.query<AuthenticatedSource & Omit<MetaSource, 'source'>>(
    `${DELIVERY_SOURCE_SELECT.replace('SELECT', 'SELECT s.token_hash, s.active, s.meta_page_access_token, s.meta_listen,')}
      WHERE s.agent_id = $1 AND s.source_id = $2`,
    [agentId, sourceId],
  );
  const row = rows[0];
  if (!row) return null;
  const { token_hash, active, meta_page_access_token, meta_listen, ...source } = row;
  return { source, token_hash, active, meta_page_access_token, meta_listen };
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

/** A new source of the agent; of an agency (`agencyId`), it is listed under the agency's fallback producer. */
export async function createSource(
  db: Queryable,
  agentId: string,
  name: string,
  agencyId: string | null = null,
): Promise<{ source: SourceRow; token: string }> {
  const token = newSourceToken(await tokenKey(db));
  const { rows } = await db.query<SourceColumns>(
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
  const { rows } = await db.query<SourceColumns>(
    `UPDATE sources SET token_hash = $2, token_checked = true, updated_at = now()
      WHERE source_id = $1 RETURNING ${SOURCE_COLUMNS}`,
    [sourceId, hashToken(token)],
  );
  return rows[0] ? { source: toSource(rows[0]), token } : null;
}

export async function getSource(db: Queryable, sourceId: string): Promise<SourceRow | null> {
  const { rows } = await db.query<SourceColumns>(
    `SELECT ${SOURCE_COLUMNS} FROM sources WHERE source_id = $1`,
    [sourceId],
  );
  return rows[0] ? toSource(rows[0]) : null;
}

export async function listSources(db: Queryable, agentId: string): Promise<SourceRow[]> {
  const { rows } = await db.query<SourceColumns>(
    `SELECT ${SOURCE_COLUMNS} FROM sources WHERE agent_id = $1 ORDER BY created_at, source_id`,
    [agentId],
  );
  return rows.map(toSource);
}

/**
 * What a change to a source sets; a member left out is left as it is. The Meta secrets come sealed
 * and the verify token and Google key as hashes: this module never sees them in clear.
 */
export interface SourcePatch {
  active?: boolean;
  name?: string;
  signing_key?: string | null;
  rate_limit_rps?: number | null;
  rate_limit_burst?: number | null;
  meta_page_access_token?: string | null;
  meta_app_secret?: string | null;
  meta_verify_token_hash?: string | null;
  meta_listen?: boolean;
  google_key_hash?: string | null;
  price_cents?: number;
  return_window_hours?: number;
  duplicate_days?: number;
  /** The whole set of rules (or caps) the source has from now on. */
  accept?: AcceptRules;
  caps?: Caps;
  consent?: SourceConsent;
  cadence_id?: string | null;
}

const NULLABLE_SETTINGS = [
  ['signing_key', 'text'],
  ['rate_limit_rps', 'integer'],
  ['rate_limit_burst', 'integer'],
  ['meta_page_access_token', 'text'],
  ['meta_app_secret', 'text'],
  ['meta_verify_token_hash', 'text'],
  ['google_key_hash', 'text'],
  ['cadence_id', 'uuid'],
] as const;

// Each nullable setting is written when its flag says it was given (null then removes it). A new
// page access token clears the Graph API's refusal of the old one.
const UPDATE_SOURCE = sql(
  (p) => `UPDATE sources SET
        active = COALESCE(${p('active', 'boolean')}, active),
        name = COALESCE(${p('name', 'text')}, name),
        meta_listen = COALESCE(${p('meta_listen', 'boolean')}, meta_listen),
        price_cents = COALESCE(${p('price_cents', 'integer')}, price_cents),
        return_window_hours = COALESCE(${p('return_window_hours', 'integer')}, return_window_hours),
        duplicate_days = COALESCE(${p('duplicate_days', 'integer')}, duplicate_days),
        accept = COALESCE(${p('accept', 'jsonb')}, accept),
        caps = COALESCE(${p('caps', 'jsonb')}, caps),
        consent = COALESCE(${p('consent', 'text')}, consent),
        ${NULLABLE_SETTINGS.map(
          ([column, type]) =>
            `${column} = CASE WHEN ${p(`set_${column}`, 'boolean')} THEN ${p(column, type)} ELSE ${column} END`,
        ).join(',\n        ')},
        meta_reconnect_since = CASE WHEN ${p('set_meta_page_access_token', 'boolean')} THEN NULL
                                    ELSE meta_reconnect_since END,
        updated_at = now()
      WHERE source_id = ${p('source_id', 'uuid')} RETURNING ${SOURCE_COLUMNS}`,
);

export async function updateSource(
  db: Queryable,
  sourceId: string,
  patch: SourcePatch,
): Promise<SourceRow | null> {
  const record: Record<string, unknown> = {
    source_id: sourceId,
    active: patch.active,
    name: patch.name,
    meta_listen: patch.meta_listen,
    price_cents: patch.price_cents,
    return_window_hours: patch.return_window_hours,
    duplicate_days: patch.duplicate_days,
    accept: patch.accept === undefined ? undefined : JSON.stringify(patch.accept),
    caps: patch.caps === undefined ? undefined : JSON.stringify(patch.caps),
    consent: patch.consent,
  };
  for (const [column] of NULLABLE_SETTINGS) {
    record[`set_${column}`] = patch[column] !== undefined;
    record[column] = patch[column];
  }
  const { rows } = await run<SourceColumns, string>(db, UPDATE_SOURCE, record);
  return rows[0] ? toSource(rows[0]) : null;
}
