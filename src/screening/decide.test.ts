import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { consentOf, decideContact, type ContactFacts } from './decide.ts';
import {
  REGISTRY_MAX_AGE_MS,
  SUPPRESSION_LISTS,
  type ScreeningEntry,
  type SuppressionList,
} from './lists.ts';

const NOW = new Date('2027-03-01T15:00:00Z');
const DAY = 86_400_000;
const on = (...lists: SuppressionList[]): ScreeningEntry[] =>
  lists.map((list) => ({ list, matched: 'phone', since: '2027-01-01T00:00:00.000Z' }));
const facts = (over: Partial<ContactFacts> = {}): ContactFacts => ({
  screening: [],
  opted_out: false,
  registry_loaded_at: null,
  consent_evidence: false,
  sms_consent: false,
  now: NOW,
  ...over,
});
const fresh = new Date(NOW.getTime() - 30 * DAY);
const stale = new Date(NOW.getTime() - 32 * DAY);

describe('decideContact: what each list blocks, and nothing else', () => {
  it.each([
    ['on no list', facts(), null, null],
    ['on the customer list', facts({ screening: on('customer') }), null, null],
    ['on the dnc list', facts({ screening: on('dnc') }), 'dnc', 'dnc'],
    [
      'on the dnc list, with every consent',
      facts({ screening: on('dnc'), consent_evidence: true, sms_consent: true }),
      'dnc',
      'dnc',
    ],
    ['on the litigator list', facts({ screening: on('litigator') }), 'litigator', 'litigator'],
    ['opted out', facts({ opted_out: true }), 'opted_out', 'opted_out'],
    ['opted out and on dnc', facts({ opted_out: true, screening: on('dnc') }), 'opted_out', 'opted_out'],
    ['opted out, texts resumed by START', facts({ opted_out: true, texts_resumed: true }), null, 'opted_out'],
    [
      'opted out, texts resumed, on dnc',
      facts({ opted_out: true, texts_resumed: true, screening: on('dnc') }),
      'dnc',
      'opted_out',
    ],
    [
      'opted out, texts resumed, on the registry with texting consent only',
      facts({ opted_out: true, texts_resumed: true, screening: on('registry'), sms_consent: true }),
      null,
      'opted_out',
    ],
    [
      'opted out, texts resumed, on the registry without consent',
      facts({ opted_out: true, texts_resumed: true, screening: on('registry') }),
      'registry_without_consent',
      'opted_out',
    ],
    ['on dnc and litigator', facts({ screening: on('litigator', 'dnc') }), 'dnc', 'dnc'],
    [
      'on the registry, no consent',
      facts({ screening: on('registry') }),
      'registry_without_consent',
      'registry_without_consent',
    ],
    [
      'on the registry, texting consent only',
      facts({ screening: on('registry'), sms_consent: true }),
      null,
      'registry_without_consent',
    ],
    [
      'on the registry, a certificate',
      facts({ screening: on('registry'), consent_evidence: true }),
      null,
      null,
    ],
    ['registry fresh, not on it', facts({ registry_loaded_at: fresh }), null, null],
    ['registry stale, no consent', facts({ registry_loaded_at: stale }), 'registry_stale', 'registry_stale'],
    [
      'registry stale, texting consent',
      facts({ registry_loaded_at: stale, sms_consent: true }),
      null,
      'registry_stale',
    ],
    [
      'registry stale, a certificate',
      facts({ registry_loaded_at: stale, consent_evidence: true }),
      null,
      null,
    ],
    [
      'registry stale and on it',
      facts({ registry_loaded_at: stale, screening: on('registry') }),
      'registry_without_consent',
      'registry_without_consent',
    ],
    [
      'registry stale, on the customer list',
      facts({ registry_loaded_at: stale, screening: on('customer') }),
      'registry_stale',
      'registry_stale',
    ],
  ] as const)('When the lead is %s, then text %s and call %s', (_label, f, text, call) => {
    expect(decideContact(f)).toEqual({ text, call });
  });

  it('When the registry is exactly 31 days old, then it is not stale yet; a moment later it is', () => {
    const at = (ms: number) =>
      decideContact(facts({ registry_loaded_at: new Date(NOW.getTime() - ms) })).call;
    expect(at(REGISTRY_MAX_AGE_MS)).toBeNull();
    expect(at(REGISTRY_MAX_AGE_MS + 1)).toBe('registry_stale');
  });
});

const anyFacts = fc.record({
  screening: fc.uniqueArray(fc.constantFrom(...SUPPRESSION_LISTS)).map((lists) => on(...lists)),
  opted_out: fc.boolean(),
  registry_loaded_at: fc.option(
    fc.integer({ min: 0, max: 90 }).map((d) => new Date(NOW.getTime() - d * DAY)),
  ),
  consent_evidence: fc.boolean(),
  sms_consent: fc.boolean(),
  now: fc.constant(NOW),
});

describe('decideContact: properties', () => {
  it('When a lead may be called, then it may be texted too (a call needs the stronger consent)', () => {
    fc.assert(
      fc.property(
        anyFacts,
        (f) => void (decideContact(f).call === null && expect(decideContact(f).text).toBeNull()),
      ),
    );
  });

  it('When the customer list is added to or taken from a lead, then nothing changes', () => {
    fc.assert(
      fc.property(anyFacts, (f) => {
        const without = { ...f, screening: f.screening.filter((s) => s.list !== 'customer') };
        expect(decideContact({ ...without, screening: [...without.screening, ...on('customer')] })).toEqual(
          decideContact(without),
        );
      }),
    );
  });

  it('When an opt-out, dnc or litigator applies, then neither a text nor a call goes, whatever the consent; else neither is blocked for one of them', () => {
    const HARD = ['opted_out', 'dnc', 'litigator'];
    fc.assert(
      fc.property(anyFacts, (f) => {
        const hard = f.opted_out || f.screening.some((s) => s.list === 'dnc' || s.list === 'litigator');
        const d = decideContact(f);
        expect(HARD.includes(d.text ?? '') && d.text === d.call).toBe(hard);
        if (!hard) expect(HARD.includes(d.call ?? '')).toBe(false);
      }),
    );
  });

  it('When a lead carries a consent certificate and no opt-out, dnc or litigator, then it is never blocked', () => {
    fc.assert(
      fc.property(anyFacts, (f) => {
        const clean = { ...f, opted_out: false, consent_evidence: true };
        clean.screening = f.screening.filter((s) => s.list !== 'dnc' && s.list !== 'litigator');
        expect(decideContact(clean)).toEqual({ text: null, call: null });
      }),
    );
  });
});

describe('consentOf', () => {
  it.each([
    [{}, false, false],
    [{ sms_consent: true }, false, true],
    [{ sms_consent: 'true' }, false, false],
    [{ consent_cert_url: 'https://cert.trustedform.com/abc' }, true, false],
    [{ consent_token: 'LEADID-123' }, true, false],
    [{ consent_cert_url: '  ', consent_token: null }, false, false],
  ])('When the lead has %j, then evidence is %s and texting consent %s', (lead, evidence, sms) => {
    expect(consentOf(lead)).toEqual({ consent_evidence: evidence, sms_consent: sms });
  });
});
