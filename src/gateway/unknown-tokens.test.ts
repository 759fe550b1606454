import { describe, expect, it } from 'vitest';
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
