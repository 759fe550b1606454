import { createHmac, randomBytes, randomUUID } from 'node:crypto';
import fc from 'fast-check';
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

  // Tokens already issued must keep passing: the check is HMAC-SHA256 as RFC 2104 defines it,
  // whatever computes it. Against node's own HMAC, for keys shorter, as long as and longer than a
  // block (which HMAC hashes first), several tokens per key (what a computation could keep per key).
  it('When a token is issued under any key, then its check is the first 4 bytes of the HMAC-SHA256 of its first 12', () => {
    fc.assert(
      fc.property(fc.uint8Array({ minLength: 1, maxLength: 100, size: 'max' }), (keyBytes) => {
        const key = Buffer.from(keyBytes);
        for (let i = 0; i < 3; i++) {
          const bytes = Buffer.from(newSourceToken(key).replaceAll('-', ''), 'hex');
          const hmac = createHmac('sha256', key).update(bytes.subarray(0, 12)).digest();
          expect(bytes.subarray(12).toString('hex')).toBe(hmac.subarray(0, 4).toString('hex'));
        }
      }),
    );
  });

  it('When a token carries the HMAC check computed by node itself, then it passes (a known token from before)', () => {
    // Its check made by node's own HMAC, as tokens already issued may have theirs (docs/decisions/0006).
    const bytes = Buffer.from('9f1c2a4e7b3d4c1a8e2f6a5b', 'hex');
    const check = createHmac('sha256', KEY).update(bytes).digest().subarray(0, 4);
    const hex = Buffer.concat([bytes, check]).toString('hex');
    const token = `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
    expect(carriesCheck(token, KEY)).toBe(true);
    expect(carriesCheck(token, randomBytes(32))).toBe(false);
  });
});
