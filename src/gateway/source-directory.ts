import { LIMITS } from '../limits.ts';
import { gathered } from '../db/gathered.ts';
import type { Queryable } from '../db/index.ts';
import {
  findSourcesByTokenHash,
  type AuthenticatedSource,
  type TokenOwner,
} from '../sources/source-repository.ts';
import { LOOK_UP_EVERY_TOKEN, type TokenChecks } from '../sources/token-checks.ts';
import { hashToken } from '../sources/tokens.ts';
import { createUnknownTokens, type UnknownTokens } from './unknown-tokens.ts';

/** The sender's source as one request knows it. */
export interface SourceClaim {
  source: AuthenticatedSource;
  /** SHA-256 of the token: what the database knows the token by. */
  tokenHash: string;
  /**
   * true when this request read the source from the database; false when it came from this
   * process's memory, so the database must still confirm the token (active, same revision) before
   * anything is written or answered — in the write itself where the path has one.
   */
  confirmed: boolean;
}

/**
 * A step that needs the database's word on a source the request took from memory, or whose write
 * found the token revoked or the source changed: nothing was written. The gateway asks the
 * database (`confirm`) and delivers again with what it says — or answers 401.
 */
export const UNCONFIRMED = { kind: 'unconfirmed' } as const;
export type Unconfirmed = typeof UNCONFIRMED;

/** A step whose writes or answer do not check the token themselves: run only on the database's word. */
export function onDatabaseWord<T>(claim: SourceClaim, step: () => Promise<T>): Promise<T | Unconfirmed> {
  return claim.confirmed ? step() : Promise.resolve(UNCONFIRMED);
}

/**
 * Which source a token names, for the gateway. A token seen lately is answered from memory
 * (provisionally: every write checks the token and the source's revision in its own statement, so a
 * revoked token fails on its very next request). Tokens that name no source at all are refused from
 * memory for a few seconds, and a token that fails the installation's check (`checks`: one the
 * gateway never issued) without a lookup at all; a disabled source's token is refused only on the
 * database's word, since the agent may enable it again at any moment. Every other lookup goes to the database with the others made in
 * the same turn of the event loop or while the previous lookup was under way: one query for a burst
 * of requests, and a flood of unknown tokens that pass the check (while sources have tokens from
 * before the checks) costs a query per round trip, not per request.
 */
export interface SourceDirectory {
  /**
   * What this process's memory alone says, at once: the source remembered for the token, null
   * when the token names none for certain (named no source a moment ago, or failing the check), and
   * `undefined` when only the database can tell (`confirm` asks it).
   */
  recall(token: string): SourceClaim | null | undefined;
  /** The database's word now, whatever memory holds; memory follows it. */
  confirm(token: string): Promise<SourceClaim | null>;
}

export function createSourceDirectory(
  db: Queryable,
  opts: {
    knownTtlMs?: number;
    max?: number;
    now?: () => number;
    unknown?: UnknownTokens;
    checks?: TokenChecks;
  } = {},
): SourceDirectory {
  const ttlMs = opts.knownTtlMs ?? LIMITS.knownTokenCacheMs;
  const max = opts.max ?? LIMITS.knownTokenCacheSize;
  const now = opts.now ?? Date.now;
  const unknown = opts.unknown ?? createUnknownTokens({ now });
  const checks = opts.checks ?? LOOK_UP_EVERY_TOKEN;
  const known = new Map<string, { claim: SourceClaim; until: number }>();
  const lookup = batchedLookup(db);

  const confirm = async (token: string): Promise<SourceClaim | null> => {
    const key = token.toLowerCase();
    const tokenHash = hashToken(key);
    const owner = await lookup(tokenHash);
    if (!owner?.active) {
      known.delete(key);
      // Only a token that names no source can never become valid: a disabled source's token is
      // asked about again, so the request after the agent enables it lands, in every process.
      if (!owner) unknown.add(key);
      return null;
    }
    const { source } = owner;
    if (known.size >= max && !known.has(key)) known.clear();
    known.set(key, { claim: { source, tokenHash, confirmed: false }, until: now() + ttlMs });
    return { source, tokenHash, confirmed: true };
  };

  const recall = (token: string): SourceClaim | null | undefined => {
    const key = token.toLowerCase();
    if (unknown.has(key)) return null;
    const remembered = known.get(key);
    if (remembered && remembered.until > now()) return remembered.claim;
    return checks.mayName(key) ? undefined : null;
  };

  return { recall, confirm };
}

/**
 * Lookups by token hash, gathered: the lookups made in one turn of the event loop, or while the
 * previous query is under way, go in one query (at most LIMITS.tokenLookupBatch hashes each). With
 * one query in flight, a flood of made-up tokens costs the database a query per round trip however
 * many arrive, and the gateway one write to the database's socket per batch instead of per turn.
 */
function batchedLookup(db: Queryable): (tokenHash: string) => Promise<TokenOwner | null> {
  return gathered(async (hashes: string[]) => {
    const unique = [...new Set(hashes)];
    const found = new Map<string, TokenOwner>();
    for (let i = 0; i < unique.length; i += LIMITS.tokenLookupBatch) {
      const part = await findSourcesByTokenHash(db, unique.slice(i, i + LIMITS.tokenLookupBatch));
      for (const [hash, source] of part) found.set(hash, source);
    }
    return hashes.map((hash) => found.get(hash) ?? null);
  });
}
