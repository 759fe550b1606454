import { iso } from '../db/index.ts';
import type { AcceptRules, Caps } from './terms.ts';

// A source as the admin API, the console and the CLI see it: its settings, never its secrets.

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
  /** Which Meta settings are set (never their values), and whether the Graph API refused the token. */
  meta: MetaStatus;
  has_google_key: boolean;
  /** The agency whose producers its leads are routed to; null: its agent's own source. */
  agency_id: string | null;
  /** Its terms (terms.ts): price, return window, duplicate days, acceptance rules, caps. */
  price_cents: number;
  return_window_hours: number;
  duplicate_days: number;
  accept: AcceptRules;
  caps: Caps;
  /** The consent evidence its leads must bring before automatic contact (docs/consent-and-revocation.md). */
  consent: SourceConsent;
  /** The cadence its new leads follow (docs/cadences.md); null: the agent's default, if any. */
  cadence_id: string | null;
}

export const SOURCE_CONSENT = ['none', 'present', 'verified'] as const;
export type SourceConsent = (typeof SOURCE_CONSENT)[number];

export interface MetaStatus {
  page_access_token_set: boolean;
  app_secret_set: boolean;
  verify_token_set: boolean;
  listen: boolean;
  /** When the Graph API said the page access token is no good (error 190); null: it has not. */
  reconnect_needed_since: string | null;
}

export const SOURCE_COLUMNS = `source_id, agent_id, name, active, created_at, updated_at, signing_key IS NOT NULL AS has_signing_key,
  rate_limit_rps, rate_limit_burst, meta_page_access_token IS NOT NULL AS meta_page_access_token_set,
  meta_app_secret IS NOT NULL AS meta_app_secret_set, meta_verify_token_hash IS NOT NULL AS meta_verify_token_set,
  meta_listen, meta_reconnect_since, google_key_hash IS NOT NULL AS has_google_key, agency_id,
  price_cents, return_window_hours, duplicate_days, accept, caps, consent, cadence_id`;

/** A sources row as SOURCE_COLUMNS reads it. */
export type SourceColumns = Omit<SourceRow, 'meta'> & {
  meta_page_access_token_set: boolean;
  meta_app_secret_set: boolean;
  meta_verify_token_set: boolean;
  meta_listen: boolean;
  meta_reconnect_since: Date | string | null;
};

export function toSource(row: SourceColumns | undefined): SourceRow {
  if (!row) throw new Error('expected a source row');
  const {
    meta_page_access_token_set,
    meta_app_secret_set,
    meta_verify_token_set,
    meta_listen,
    meta_reconnect_since,
    ...rest
  } = row;
  return {
    ...rest,
    created_at: iso(rest.created_at),
    updated_at: iso(rest.updated_at),
    meta: {
      page_access_token_set: meta_page_access_token_set,
      app_secret_set: meta_app_secret_set,
      verify_token_set: meta_verify_token_set,
      listen: meta_listen,
      reconnect_needed_since: meta_reconnect_since === null ? null : iso(meta_reconnect_since),
    },
  };
}
