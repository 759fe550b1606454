import { createHash } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { bodyDigest } from './body-digest.ts';

/** The digest as keys stored before it was taken in one call: Content-Type, a NUL, the body. */
const streamed = (contentType: string | undefined, body: Buffer | undefined) =>
  createHash('sha256')
    .update(contentType ?? '')
    .update('\0')
    .update(body ?? Buffer.alloc(0))
    .digest('base64');

describe('bodyDigest', () => {
  it('is the SHA-256 of the Content-Type, a NUL and the body: digests already stored still match', () => {
    fc.assert(
      fc.property(
        fc.option(fc.string(), { nil: undefined }),
        fc.option(fc.uint8Array(), { nil: undefined }),
        (type, bytes) => {
          const body = bytes && Buffer.from(bytes);
          expect(bodyDigest(type, body)).toBe(streamed(type, body));
        },
      ),
    );
  });
});
