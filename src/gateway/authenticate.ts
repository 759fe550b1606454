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

/** The token names a source this process's memory cannot vouch for: only the database can tell. */
export interface AskDatabase {
  kind: 'ask-database';
  token: string;
  /** The source memory holds for the token, over its rate limit by `wait` s as memory has it. */
  overLimit?: { claim: SourceClaim; wait: number };
}

type Guards = { directory: SourceDirectory; limiter: RateLimiter };

/**
 * The first step of a delivery, run before the body is read: token present → token names an
 * active source → rate limit, as far as this process's memory takes it, without waiting. Every
 * refusal of a token made up, mistyped or naming no source a moment ago, and every sender whose
 * source is remembered, are answered here, so the gateway's hook answers them with no promise in
 * between; the rest ask the database (`authenticateWithDatabase`). A source from memory is
 * confirmed by the write; a refusal that no write follows is only given on the database's word: a
 * revoked token over its rate limit is told 401, not 429.
 */
export function authenticateFromMemory(
  guards: Guards,
  presented: PresentedTokens,
): Authenticated | Rejected | AskDatabase {
  const token = chooseToken(presented);
  if (typeof token !== 'string') return token;
  if (!isWellFormedToken(token)) return rejected('INVALID_SOURCE_TOKEN');
  const claim = guards.directory.recall(token);
  if (claim === undefined) return { kind: 'ask-database', token };
  if (!claim) return rejected('INVALID_SOURCE_TOKEN');
  const wait = take(guards.limiter, claim.source);
  // Only the database refuses: a revoked token is told 401, and a limit raised since memory took
  // the source (a big import's) counts at once.
  if (wait > 0 && !claim.confirmed) return { kind: 'ask-database', token, overLimit: { claim, wait } };
  return admitted(token, claim, wait);
}

/** The rest of the first step, on the database's word. */
export async function authenticateWithDatabase(
  guards: Guards,
  { token, overLimit }: AskDatabase,
): Promise<Authenticated | Rejected> {
  const claim = await guards.directory.confirm(token);
  if (!claim) return rejected('INVALID_SOURCE_TOKEN');
  const unchanged = overLimit && overLimit.claim.source.revision === claim.source.revision;
  return admitted(token, claim, unchanged ? overLimit.wait : take(guards.limiter, claim.source));
}

/**
 * The database's word on a sender admitted from memory whose write found the token or the source
 * changed: refused if the token no longer names an active source; a rate limit changed since
 * counts this very request (its new bucket starts full, so it would otherwise count from the next).
 */
export async function reauthenticate(
  guards: Guards,
  sender: Authenticated,
): Promise<Authenticated | Rejected> {
  const claim = await guards.directory.confirm(sender.token);
  if (!claim) return rejected('INVALID_SOURCE_TOKEN');
  const before = sender.claim.source;
  const now = claim.source;
  const sameLimit =
    before.rate_limit_rps === now.rate_limit_rps && before.rate_limit_burst === now.rate_limit_burst;
  return admitted(sender.token, claim, sameLimit ? 0 : take(guards.limiter, now));
}

/** A request from this source, `wait` s over its limit (0: within it). */
function take(limiter: RateLimiter, source: AuthenticatedSource): number {
  return limiter.take(source.source_id, Date.now(), {
    rps: source.rate_limit_rps,
    burst: source.rate_limit_burst,
  });
}

function admitted(token: string, claim: SourceClaim, wait: number): Authenticated | Rejected {
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
