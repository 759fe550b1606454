import { describe, expect, it } from 'vitest';
import type { Database } from '../db/index.ts';
import { authenticate } from './authenticate.ts';
import { createRateLimiter } from './rate-limit.ts';
import { createUnknownTokens } from './unknown-tokens.ts';

const TOKEN = '0b5f2c1e-8a7d-4f3e-9c2b-1a2b3c4d5e6f';

describe('createUnknownTokens', () => {
  it('When a token was found unknown, then it is remembered (any case) until its time is up', () => {
    let now = 1_000;
    const unknown = createUnknownTokens({ ttlMs: 5_000, now: () => now });
    expect(unknown.has(TOKEN)).toBe(false);
    unknown.add(TOKEN);
    expect(unknown.has(TOKEN.toUpperCase())).toBe(true);
    now += 4_999;
    expect(unknown.has(TOKEN)).toBe(true);
    now += 1;
    expect(unknown.has(TOKEN)).toBe(false);
  });

  it('When more tokens than it may hold are added, then it starts over rather than grow', () => {
    const unknown = createUnknownTokens({ max: 3 });
    for (const t of ['a', 'b', 'c']) unknown.add(t);
    expect(['a', 'b', 'c'].map((t) => unknown.has(t))).toEqual([true, true, true]);
    unknown.add('d');
    expect(['a', 'b', 'c', 'd'].map((t) => unknown.has(t))).toEqual([false, false, false, true]);
  });
});

describe('authenticate with the unknown-token memory', () => {
  /** A database that knows no token and counts the lookups. */
  function countingDb() {
    const calls = { n: 0 };
    const db = {
      query: async () => {
        calls.n += 1;
        return { rows: [] };
      },
    } as unknown as Database;
    return { db, calls };
  }

  it('When the same unknown token comes again, then it is refused without another lookup; after the memory fades, it is looked up again', async () => {
    let now = 0;
    const { db, calls } = countingDb();
    const guards = {
      limiter: createRateLimiter({ rps: 0, burst: 1 }),
      unknown: createUnknownTokens({ now: () => now }),
    };
    const present = { path: undefined, header: TOKEN };
    expect(await authenticate(db, guards, present)).toMatchObject({ code: 'INVALID_SOURCE_TOKEN' });
    expect(await authenticate(db, guards, present)).toMatchObject({ code: 'INVALID_SOURCE_TOKEN' });
    expect(calls.n).toBe(1);
    now += 60_000;
    expect(await authenticate(db, guards, present)).toMatchObject({ code: 'INVALID_SOURCE_TOKEN' });
    expect(calls.n).toBe(2);
  });

  it('When a token is not a UUID, then it is refused without any lookup', async () => {
    const { db, calls } = countingDb();
    const guards = { limiter: createRateLimiter({ rps: 0, burst: 1 }), unknown: createUnknownTokens() };
    expect(await authenticate(db, guards, { path: undefined, header: 'not-a-token' })).toMatchObject({
      code: 'INVALID_SOURCE_TOKEN',
    });
    expect(calls.n).toBe(0);
  });
});
