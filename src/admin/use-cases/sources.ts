import type { Queryable } from '../../db/index.ts';
import {
  createSource,
  regenerateSourceToken,
  updateSource,
  type SourceRow,
} from '../../sources/source-repository.ts';
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
}

/**
 * Enables, disables, renames a source, or sets its rate limit or signing key: what is given
 * changes, the rest stays. Null: the source is gone.
 */
export async function changeLeadSource(
  db: Queryable,
  current: SourceRow,
  change: SourceChange,
): Promise<SourceRow | null> {
  const patch = Object.fromEntries(
    Object.entries({ ...change, name: change.name?.trim() }).filter(([, value]) => value !== undefined),
  ) as SourceChange;
  if (Object.keys(patch).length === 0) return current;
  return updateSource(db, current.source_id, patch);
}
