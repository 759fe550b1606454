import { isPgError } from '../db/database.ts';
import type { Queryable } from '../db/index.ts';
import { resumeStoppedMetaLeads } from '../gateway/meta-lead-repository.ts';
import { hashSecret, type SecretBox } from '../sources/secrets.ts';
import {
  createSource,
  regenerateSourceToken,
  updateSource,
  type SourcePatch,
} from '../sources/source-repository.ts';
import type { SourceRow } from '../sources/source-row.ts';
import type { AcceptRules, Caps } from '../sources/terms.ts';
import { appError } from '../errors.ts';
import { webhookUrl } from './webhook-url.ts';

/** A source with its token in full: shown once, when it is created or its token regenerated. */
export type IssuedSource = SourceRow & { token: string; webhook_url: string };

/** A new lead source for the agent (or the agency it is the fallback producer of), and its token. */
export async function createLeadSource(
  db: Queryable,
  publicBaseUrl: string,
  agentId: string,
  name: string,
  agencyId: string | null = null,
): Promise<IssuedSource> {
  const { source, token } = await createSource(db, agentId, name.trim(), agencyId);
  return { ...source, token, webhook_url: webhookUrl(publicBaseUrl, token) };
}

/** A new token for the source; the old one is refused from now on. Null: the source is gone. */
export async function regenerateLeadSourceToken(
  db: Queryable,
  publicBaseUrl: string,
  sourceId: string,
): Promise<IssuedSource | null> {
  const regenerated = await regenerateSourceToken(db, sourceId);
  if (!regenerated) return null;
  return {
    ...regenerated.source,
    token: regenerated.token,
    webhook_url: webhookUrl(publicBaseUrl, regenerated.token),
  };
}

export interface SourceChange {
  active?: boolean;
  name?: string;
  rate_limit_rps?: number | null;
  rate_limit_burst?: number | null;
  signing_key?: string | null;
  /** Meta Lead Ads: each secret given is set (null removes it); what is left out stays. */
  meta?: {
    page_access_token?: string | null;
    app_secret?: string | null;
    verify_token?: string | null;
    listen?: boolean;
  };
  google_key?: string | null;
  price_cents?: number;
  return_window_hours?: number;
  duplicate_days?: number;
  /** Each rule given is set, null removes it; the rules left out stay. */
  accept?: { [K in keyof AcceptRules]?: AcceptRules[K] | null };
  caps?: { [K in keyof Caps]?: Caps[K] | null };
  /** The cadence its new leads follow, the source's agent's; null: the agent's default. */
  cadence_id?: string | null;
}

/**
 * Enables, disables, renames a source, or sets its rate limit, signing key, Meta settings, Google
 * key, terms (price, return window, duplicate days, acceptance rules, caps) or cadence: what is given
 * changes, the rest stays; ages that contradict each other change nothing (VALIDATION_ERROR). The Meta secrets are sealed with the installation's
 * key and the verify token and Google key hashed before they reach the database; a new page access
 * token sends the leads the old one could not fetch to be fetched again. Null: the source is gone.
 */
export async function changeLeadSource(
  db: Queryable,
  secrets: SecretBox,
  current: SourceRow,
  change: SourceChange,
): Promise<SourceRow | null> {
  const { meta, google_key, accept, caps, ...plain } = change;
  const rules = accept ? merged(current.accept, accept) : undefined;
  if (rules?.min_age !== undefined && rules.max_age !== undefined && rules.min_age > rules.max_age)
    throw appError(
      'VALIDATION_ERROR',
      `accept.min_age ${rules.min_age} is over accept.max_age ${rules.max_age}`,
    );
  const seal = (value: string | null | undefined, purpose: 'meta_page_access_token' | 'meta_app_secret') =>
    value === undefined || value === null
      ? value
      : secrets.seal(value, { source_id: current.source_id, purpose });
  const hashed = (value: string | null | undefined) =>
    value === undefined || value === null ? value : hashSecret(value);
  const patch: SourcePatch = withoutUndefined({
    ...plain,
    name: plain.name?.trim(),
    meta_page_access_token: seal(meta?.page_access_token, 'meta_page_access_token'),
    meta_app_secret: seal(meta?.app_secret, 'meta_app_secret'),
    meta_verify_token_hash: hashed(meta?.verify_token),
    meta_listen: meta?.listen,
    google_key_hash: hashed(google_key),
    accept: rules,
    caps: caps ? merged(current.caps, caps) : undefined,
  });
  if (Object.keys(patch).length === 0) return current;
  const updated = await updateSource(db, current.source_id, patch).catch((err: unknown) => {
    // The database holds a source to its own agent's cadences.
    if (isPgError(err) && err.code === '23503') throw appError('CADENCE_NOT_FOUND');
    throw err;
  });
  if (updated && typeof patch.meta_page_access_token === 'string')
    await resumeStoppedMetaLeads(db, updated.agent_id, updated.source_id);
  return updated;
}

/** The rules (or caps) a source has after a change: the given ones set, the null ones gone. */
function merged<T extends object>(current: T, change: { [K in keyof T]?: T[K] | null }): T {
  const given = Object.entries(change).filter(([, value]) => value !== undefined);
  const kept = Object.entries(current).filter(([key]) => !given.some(([k]) => k === key));
  return Object.fromEntries([...kept, ...given.filter(([, value]) => value !== null)]) as T;
}

function withoutUndefined<T extends object>(value: T): T {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as T;
}
