import { randomBytes, randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { carriesCheck, newSourceToken } from './tokens.ts';

const KEY = Buffer.from('6c6561646761746520746f6b656e206b657920666f722074657374732030303031', 'hex');
const V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

describe('source tokens', () => {
  it('When a token is issued, then it is a lower-case version-4 UUID carrying the check of its key, in any case', () => {
    for (let i = 0; i < 200; i++) {
      const token = newSourceToken(KEY);
      expect(token).toMatch(V4);
      expect(carriesCheck(token, KEY)).toBe(true);
      expect(carriesCheck(token.toUpperCase(), KEY)).toBe(true);
    }
  });

  it('When tokens are issued, then they differ (90 random bits each)', () => {
    const tokens = new Set(Array.from({ length: 1_000 }, () => newSourceToken(KEY)));
    expect(tokens.size).toBe(1_000);
  });

  it("When a token was issued under another installation's key, then it does not carry this one's check", () => {
    const other = randomBytes(32);
    const theirs = Array.from({ length: 100 }, () => newSourceToken(other));
    expect(theirs.filter((t) => carriesCheck(t, KEY))).toEqual([]);
  });

  it('When a token is made up (a random UUID), then it does not carry the check', () => {
    const madeUp = Array.from({ length: 1_000 }, () => randomUUID());
    expect(madeUp.filter((t) => carriesCheck(t, KEY))).toEqual([]);
  });

  it('When any one hex digit of an issued token is changed (a typo), then it no longer carries the check', () => {
    const token = newSourceToken(KEY);
    const passing: string[] = [];
    for (let i = 0; i < token.length; i++) {
      if (token[i] === '-') continue;
      for (const digit of '0123456789abcdef') {
        if (digit === token[i]) continue;
        const typo = token.slice(0, i) + digit + token.slice(i + 1);
        if (carriesCheck(typo, KEY)) passing.push(typo);
      }
    }
    expect(passing).toEqual([]);
  });

  it('When a token is not a UUID, or cut short, then it does not carry the check', () => {
    const token = newSourceToken(KEY);
    for (const bad of ['', 'not-a-token', token.slice(0, 35), `${token}0`, token.replaceAll('-', '')])
      expect(carriesCheck(bad, KEY)).toBe(false);
  });
});
