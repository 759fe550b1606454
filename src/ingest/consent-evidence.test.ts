import { describe, expect, it } from 'vitest';
import { hasConsentEvidence } from './consent-evidence.ts';

describe('hasConsentEvidence', () => {
  it.each([
    [{ consent_cert_url: 'https://cert.trustedform.com/abc' }, true],
    [{ consent_token: 'LEADID-123' }, true],
    [{ consent_cert_url: 'https://cert.trustedform.com/abc', consent_token: 'LEADID-123' }, true],
    [{ consent_cert_url: '   ', consent_token: '' }, false],
    [{ consent_token: 42 }, false],
    [{ consent_cert_url: null }, false],
    [{ sms_consent: true }, false],
    [{}, false],
  ])('When the lead holds %j, then its consent evidence is %s', (lead, evidenced) => {
    expect(hasConsentEvidence(lead)).toBe(evidenced);
  });
});
