import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { bookingFixtureText } from '../../test/fixtures/booking/load.ts';
import { signSchedulerPayload, verifySchedulerSignature } from './signature.ts';

const KEY = 'whsec_2b7e151628aed2a6abf7158809cf4f3c';
const BODY = bookingFixtureText('invitee-created');
const T = 1_800_000_000; // 2027-01-15T08:00:00Z
const NOW = T * 1000;
const hmac = (key: string, t: number, body: string) =>
  createHmac('sha256', key).update(`${t}.${body}`).digest('hex');

const verify = (header: string | string[] | undefined, nowMs = NOW, rawBody: string | Buffer = BODY) =>
  verifySchedulerSignature({ header, rawBody, signingKey: KEY, nowMs });

describe('signSchedulerPayload', () => {
  it('When a body is signed, then the header is t=<seconds>,v1=<HMAC-SHA256 of "t.body">', () => {
    expect(signSchedulerPayload(BODY, KEY, T)).toBe(`t=${T},v1=${hmac(KEY, T, BODY)}`);
  });
});

describe('verifySchedulerSignature', () => {
  it('When the signature is valid, then it passes, for a string or the same bytes', () => {
    expect(verify(signSchedulerPayload(BODY, KEY, T))).toEqual({ ok: true });
    expect(verify(signSchedulerPayload(BODY, KEY, T), NOW, Buffer.from(BODY))).toEqual({ ok: true });
  });

  it('When parts come in another order with whitespace, then it passes', () => {
    expect(verify(` v1 = ${hmac(KEY, T, BODY)} ,  t=${T} `)).toEqual({ ok: true });
  });

  it('When several v1 values are sent, then any match passes', () => {
    expect(verify(`t=${T},v1=${hmac('old-key', T, BODY)},v1=${hmac(KEY, T, BODY)}`)).toEqual({ ok: true });
    expect(verify([`t=${T},v1=${'0'.repeat(64)}`, `v1=${hmac(KEY, T, BODY)}`])).toEqual({ ok: true });
  });

  it('When the body or the key differ, then it is a mismatch', () => {
    expect(verify(signSchedulerPayload(BODY, KEY, T), NOW, `${BODY} `)).toEqual({
      ok: false,
      reason: 'mismatch',
    });
    expect(verify(signSchedulerPayload(BODY, 'another key', T))).toEqual({ ok: false, reason: 'mismatch' });
    expect(
      verifySchedulerSignature({
        header: `t=${T},v1=${hmac('', T, BODY)}`,
        rawBody: BODY,
        signingKey: '',
        nowMs: NOW,
      }),
    ).toEqual({
      ok: false,
      reason: 'mismatch',
    });
  });

  it('When the timestamp is more than 5 minutes old or ahead, then it is stale; at 5 minutes it passes', () => {
    const header = signSchedulerPayload(BODY, KEY, T);
    expect(verify(header, NOW + 300_000)).toEqual({ ok: true });
    expect(verify(header, NOW - 300_000)).toEqual({ ok: true });
    expect(verify(header, NOW + 301_000)).toEqual({ ok: false, reason: 'stale' });
    expect(verify(header, NOW - 301_000)).toEqual({ ok: false, reason: 'stale' });
    expect(verify(header, Number.NaN)).toEqual({ ok: false, reason: 'stale' });
  });

  it('When a tolerance is given, then it is used', () => {
    const input = { header: signSchedulerPayload(BODY, KEY, T), rawBody: BODY, signingKey: KEY };
    expect(verifySchedulerSignature({ ...input, nowMs: NOW + 61_000, toleranceSeconds: 60 })).toEqual({
      ok: false,
      reason: 'stale',
    });
  });

  it.each([undefined, '', '   ', []])('When the header is %j, then it is missing', (header) => {
    expect(verify(header)).toEqual({ ok: false, reason: 'missing' });
  });

  it.each([
    ['no timestamp', `v1=${hmac(KEY, T, BODY)}`],
    ['no v1', `t=${T}`],
    ['a v1 that is no SHA-256 hex', `t=${T},v1=abc123`],
    ['a timestamp that is no number', `t=soon,v1=${hmac(KEY, T, BODY)}`],
    ['two different timestamps', `t=${T},t=${T + 1},v1=${hmac(KEY, T, BODY)}`],
    ['only a v0 value', `t=${T},v0=${hmac(KEY, T, BODY)}`],
    ['garbage', 'sha256=deadbeef'],
  ])('When the header has %s, then it is malformed', (_label, header) => {
    expect(verify(header)).toEqual({ ok: false, reason: 'malformed' });
  });
});
