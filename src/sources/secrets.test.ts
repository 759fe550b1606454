import { describe, expect, it } from 'vitest';
import { createSecretBox, hashSecret, matchesHash, newSecretsKey } from './secrets.ts';

const box = createSecretBox(newSecretsKey());
const token = {
  source_id: '0b5f2c1e-8a7d-4f3e-9c2b-1a2b3c4d5e6f',
  purpose: 'meta_page_access_token',
} as const;

describe('sealed secrets', () => {
  it('When a value is sealed, then it opens to itself and shows nothing of it', () => {
    const sealed = box.seal('EAAG-page-token', token);
    expect(sealed).toMatch(/^v1:[\w-]+$/);
    expect(sealed).not.toContain('EAAG');
    expect(box.open(sealed, token)).toBe('EAAG-page-token');
    expect(box.seal('EAAG-page-token', token)).not.toBe(sealed); // a fresh IV each time
  });

  it.each([
    ['another installation’s key', createSecretBox(newSecretsKey()), token],
    ['another source', box, { ...token, source_id: '9d1e2f3a-4b5c-4d6e-8f70-8192a3b4c5d6' }],
    ['another purpose', box, { ...token, purpose: 'meta_app_secret' as const }],
  ])('When a sealed value is opened with %s, then it does not open', (_what, other, context) => {
    expect(other.open(box.seal('secret', token), context)).toBeNull();
  });

  it('When a sealed value is altered or not sealed at all, then it does not open', () => {
    const sealed = box.seal('secret', token);
    // One bit of the ciphertext changed: the tag no longer matches.
    const bytes = Buffer.from(sealed.slice(3), 'base64url');
    bytes[bytes.length - 1] = (bytes[bytes.length - 1] ?? 0) ^ 1;
    const flipped = `v1:${bytes.toString('base64url')}`;
    for (const bad of [flipped, 'v1:', 'v2:abc', 'plain text', ''])
      expect(box.open(bad, token), bad).toBeNull();
  });

  it('When the installation key is shorter than 32 characters, then no box is made', () => {
    expect(() => createSecretBox('short')).toThrow(/32 characters/);
  });

  it('When a credential is kept as a hash, then only the same value matches it', () => {
    const stored = hashSecret('verify-me');
    expect(matchesHash('verify-me', stored)).toBe(true);
    expect(matchesHash('Verify-me', stored)).toBe(false);
    expect(matchesHash(undefined, stored)).toBe(false);
    expect(matchesHash('verify-me', null)).toBe(false);
  });
});
