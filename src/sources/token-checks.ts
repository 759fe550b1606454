import { LIMITS } from '../limits.ts';
import type { Queryable } from '../db/index.ts';
import { hasUncheckedTokens } from './source-repository.ts';
import { carriesCheck, tokenKey } from './tokens.ts';

/**
 * Whether a token could name a source, told without asking the database. Every token the gateway
 * issues carries a check under the installation's key (tokens.ts), so one that fails it — made up,
 * mistyped, cut short — names none and is refused with no lookup: a flood of made-up tokens costs
 * the database nothing. Tokens issued before the checks carry none; while any source still has
 * one (active or not: a disabled source can be enabled again), every token is looked up as before.
 * The process asks at start (the gateway awaits `refresh` before its first request), then, as
 * tokens come, at most every LIMITS.uncheckedTokensRecheckMs: a token issued without a check later
 * (by a process of an older version during an upgrade, or in a database restored from before the
 * checks) is looked up again within that time.
 */
export interface TokenChecks {
  /** false: the token names no source, for certain. true: it may; look it up. */
  mayName(token: string): boolean;
  /** Asks the database now (the key, and whether unchecked tokens remain); resolves when it has answered. */
  refresh(): Promise<void>;
}

/** No checks: every well-formed token is looked up. */
export const LOOK_UP_EVERY_TOKEN: TokenChecks = { mayName: () => true, refresh: async () => {} };

export function createTokenChecks(
  db: Queryable,
  opts: { recheckMs?: number; now?: () => number } = {},
): TokenChecks {
  const recheckMs = opts.recheckMs ?? LIMITS.uncheckedTokensRecheckMs;
  const now = opts.now ?? (() => Date.now());
  let key: Uint8Array | null = null;
  // The key, once the database has said that no source has an unchecked token.
  let decisive: Uint8Array | null = null;
  let askedAt = -Infinity;
  let asking: Promise<void> | null = null;

  const refresh = (): Promise<void> => {
    askedAt = now();
    asking ??= (async () => {
      key ??= await tokenKey(db);
      decisive = (await hasUncheckedTokens(db)) ? null : key;
    })()
      // The database did not answer (down, restarting): what it said last stands (at start:
      // every token is looked up).
      .catch(() => {})
      .finally(() => {
        asking = null;
      });
    return asking;
  };

  return {
    mayName(token) {
      if (!asking && now() - askedAt >= recheckMs) void refresh();
      return decisive ? carriesCheck(token, decisive) : true;
    },
    refresh,
  };
}
