import type { AuthenticatedSource } from '../sources/source-repository.ts';
import { isWellFormedToken } from '../sources/tokens.ts';
import type { RateLimiter } from './rate-limit.ts';
import { rejected, type Rejected } from './result.ts';
import type { SourceClaim, SourceDirectory } from './source-directory.ts';

/** The tokens a request presents: the `/v/<TOKEN>` path segment (undefined on the header route) and the header. */
export interface PresentedTokens {
  path: string | undefined;
  header: string | string[] | undefined;
}

export interface Authenticated {
  kind: 'authenticated';
  token: string;
  claim: SourceClaim;
}

/**
 * The first step of a delivery, run before the body is read: token present → token names an
 * active source → rate limit. The source may come from memory (source-directory.ts); the write
 * confirms it. A refusal that no write follows is only given on the database's word: a revoked
 * token over its rate limit is told 401, not 429.
 */
export async function authenticate(
  guards: { directory: SourceDirectory; limiter: RateLimiter },
  presented: PresentedTokens,
): Promise<Authenticated | Rejected> {
  const token = chooseToken(presented);
  if (typeof token !== 'string') return token;
  if (!isWellFormedToken(token)) return rejected('INVALID_SOURCE_TOKEN');
  let claim = await guards.directory.find(token);
  if (!claim) return rejected('INVALID_SOURCE_TOKEN');
  const take = (source: AuthenticatedSource) =>
    guards.limiter.take(source.source_id, Date.now(), {
      rps: source.rate_limit_rps,
      burst: source.rate_limit_burst,
    });
  let wait = take(claim.source);
  if (wait > 0 && !claim.confirmed) {
    // Only the database refuses: a revoked token is told 401, and a limit raised since memory
    // took the source (a big import's) counts at once.
    const fresh = await guards.directory.confirm(token);
    if (!fresh) return rejected('INVALID_SOURCE_TOKEN');
    if (fresh.source.revision !== claim.source.revision) wait = take(fresh.source);
    claim = fresh;
  }
  if (wait > 0) {
    return rejected('RATE_LIMITED', `Over the limit for this source token; retry in ${wait} s`, {
      retryAfterSeconds: wait,
    });
  }
  return { kind: 'authenticated', token, claim };
}

/** The token of the header or of the path; when both are sent they must agree. */
function chooseToken({ path, header }: PresentedTokens): string | Rejected {
  const pathToken = path?.trim();
  const headerToken = (Array.isArray(header) ? header.join(',') : (header ?? '')).trim() || undefined;
  if (pathToken === '') return rejected('MISSING_SOURCE_TOKEN', 'The /v/ path segment is empty');
  if (pathToken && headerToken && pathToken.toLowerCase() !== headerToken.toLowerCase()) {
    return rejected('INVALID_SOURCE_TOKEN', 'The x-source-token header and the /v/ path token differ');
  }
  return pathToken ?? headerToken ?? rejected('MISSING_SOURCE_TOKEN');
}
