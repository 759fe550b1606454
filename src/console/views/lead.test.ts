import { describe, expect, it } from 'vitest';
import { consentEvidence, noAutomations } from './lead.ts';

const names = (id: string | null) => (id === 'src-1' ? 'Facebook lead ads' : 'a removed source');

describe('consentEvidence', () => {
  it('When a lead has consent evidence, then it is labelled fields with the time in the agent’s zone, not JSON', () => {
    const shown = consentEvidence(
      {
        sms_consent: true,
        consent_cert_url: 'https://cert.example.com/abc',
        consent_token: null,
        ip_address: '203.0.113.9',
        user_agent: null,
        source_id: 'src-1',
        received_at: '2026-11-25T01:35:44.540Z',
      },
      'America/New_York',
      names,
    ).text;

    expect(shown).not.toContain('"sms_consent"');
    expect(shown).toContain('<dd>Consented</dd>');
    expect(shown).toContain('Tue, Nov 24, 2026, 8:35 PM EST');
    expect(shown).toContain('from Facebook lead ads');
    expect(shown).toContain('<a href="https://cert.example.com/abc"');
    expect(shown).toContain('203.0.113.9');
  });

  it('When the certificate is not an http(s) URL, then it is text, never a link', () => {
    const shown = consentEvidence(
      { sms_consent: false, consent_cert_url: 'javascript:alert(1)' },
      'UTC',
      names,
    ).text;

    expect(shown).toContain('<dd>Declined</dd>');
    expect(shown).not.toContain('href="javascript');
  });

  it('When there is none, then it says the sender sent none', () => {
    expect(consentEvidence(null, 'UTC', names).text).toContain('The sender sent no consent evidence.');
  });
});

describe('noAutomations', () => {
  it.each([
    [
      { phone: true, textConsent: true, destinations: 0 },
      'None fired yet: a call task and a text follow a delivery within seconds. No webhook: its source has no destination.',
    ],
    [
      { phone: true, textConsent: false, destinations: 2 },
      'None fired yet: a call task and webhooks follow a delivery within seconds. No text: it has no text consent.',
    ],
    [
      { phone: false, textConsent: true, destinations: 0 },
      'None fired for this lead. No call task or text: it has no phone and no webhook: its source has no destination.',
    ],
    [
      { phone: true, textConsent: true, destinations: 1 },
      'None fired yet: a call task, a text and webhooks follow a delivery within seconds.',
    ],
  ])('When a lead has %j and nothing fired, then the page says %j', (facts, words) => {
    expect(noAutomations(facts)).toBe(words);
  });
});
