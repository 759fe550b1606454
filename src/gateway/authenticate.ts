import type { Database } from '../db/index.ts';
import { findActiveSourceByToken, type AuthenticatedSource } from '../sources/source-repository.ts';
import { isWellFormedToken } from '../sources/tokens.ts';
import type { RateLimiter } from './rate-limit.ts';
import { rejected, type Rejected } from './result.ts';
import type { UnknownTokens } from './unknown-tokens.ts';

/** The tokens a request presents: the `/v/<TOKEN>` path segment (undefined on the header route) and the header. */
export interface PresentedTokens {
  path: string | undefined;
  header: string | string[] | undefined;
}

/**
 * The first step of a delivery, run before the body is read: token present → token valid and
 * active → rate limit. A valid token is looked up on every request, so a regenerated or disabled
 * one is refused at once by every process; a token found unknown is refused from memory for a
 * few seconds (unknown-tokens.ts).
 */
export async function authenticate(
  db: Database,
  guards: { limiter: RateLimiter; unknown: UnknownTokens },
  presented: PresentedTokens,
): Promise<{ kind: 'authenticated'; source: AuthenticatedSource } | Rejected> {
  const token = chooseToken(presented);
  if (typeof token !== 'string') return token;
  if (!isWellFormedToken(token) || guards.unknown.has(token)) return rejected('INVALID_SOURCE_TOKEN');
  const source = await findActiveSourceByToken(db, token);
  if (!source) {
    guards.unknown.add(token);
    return rejected('INVALID_SOURCE_TOKEN');
  }
  const wait = guards.limiter.take(source.source_id);
  if (wait > 0) {
    return rejected('RATE_LIMITED', `Over the limit for this source token; retry in ${wait} s`, {
      retryAfterSeconds: wait,
    });
  }
  return { kind: 'authenticated', source };
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
