import { describe, expect, it } from 'vitest';
import type { JsonObject } from '../json.ts';
import { readMetaEnvelope, signMetaPayload, verifyMetaSignature } from './meta-envelope.ts';

const change = (value: JsonObject, field = 'leadgen'): JsonObject => ({ field, value });

describe('readMetaEnvelope', () => {
  it('When the body is a page envelope, then each leadgen change is one announced lead, once, in order', () => {
    const body = {
      object: 'page',
      entry: [
        {
          id: '111',
          changes: [
            change({ leadgen_id: '1', form_id: '7', ad_id: '9', created_time: 1770829452 }),
            change({ item: 'status' }, 'feed'),
            change({ leadgen_id: 2 }),
          ],
        },
        { id: '222', changes: [change({ leadgen_id: '1' }), change({ leadgen_id: '3', page_id: '333' })] },
      ],
    };
    expect(readMetaEnvelope(body)).toEqual([
      { leadgen_id: '1', form_id: '7', ad_id: '9', page_id: '111', created_time: '1770829452' },
      { leadgen_id: '2', form_id: null, ad_id: null, page_id: '111', created_time: null },
      { leadgen_id: '3', form_id: null, ad_id: null, page_id: '333', created_time: null },
    ]);
  });

  it.each([
    [{ name: 'Jane', object: 'page' }],
    [{ object: 'user', entry: [{ changes: [] }] }],
    [{ object: 'page', entry: [] }],
    [{ object: 'page', entry: [{ id: '1' }] }],
    [{ object: 'page', entry: 'x' }],
  ])('When the body is %j, then it is no envelope', (body) => {
    expect(readMetaEnvelope(body)).toBeNull();
  });

  it('When a change has no usable leadgen id, then it announces nothing', () => {
    const body = {
      object: 'page',
      entry: [{ changes: [change({ leadgen_id: '' }), change({ leadgen_id: 1.5 }), 'x'] }],
    };
    expect(readMetaEnvelope(body)).toEqual([]);
  });
});

describe('verifyMetaSignature', () => {
  const body = Buffer.from('{"object":"page","entry":[]}');
  it('When the header is the HMAC of the bytes with the app secret, then it passes, in either case', () => {
    const header = signMetaPayload(body, 'app-secret');
    expect(verifyMetaSignature(header, body, 'app-secret')).toBe(true);
    expect(verifyMetaSignature(header.toUpperCase().replace('SHA256', 'sha256'), body, 'app-secret')).toBe(
      true,
    );
  });

  it.each([
    ['missing', undefined, 'app-secret'],
    ['another secret', signMetaPayload(body, 'other'), 'app-secret'],
    ['sha1', 'sha1=0123456789abcdef0123456789abcdef01234567', 'app-secret'],
    ['repeated', [signMetaPayload(body, 'app-secret')], 'app-secret'],
    ['an empty secret', signMetaPayload(body, ''), ''],
  ])('When the signature is %s, then it fails', (_what, header, secret) => {
    expect(verifyMetaSignature(header, body, secret)).toBe(false);
  });

  it('When one byte of the body changes, then the signature fails', () => {
    const header = signMetaPayload(body, 'app-secret');
    expect(verifyMetaSignature(header, Buffer.from('{"object":"page","entry":[ ]}'), 'app-secret')).toBe(
      false,
    );
  });
});
