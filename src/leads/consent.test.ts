import { describe, expect, it } from 'vitest';
import { consentEvidence } from './consent.ts';

describe('consentEvidence', () => {
  it.each([
    [{ name: 'A' }, null],
    [{ name: 'A', ip_address: '203.0.113.7' }, null],
    [
      { name: 'A', sms_consent: true, ip_address: '203.0.113.7', consent_cert_url: '' },
      {
        sms_consent: true,
        consent_cert_url: null,
        consent_token: null,
        ip_address: '203.0.113.7',
        user_agent: null,
        source_id: 's',
      },
    ],
    [
      { name: 'A', sms_consent: false, user_agent: 'UA' },
      {
        sms_consent: false,
        consent_cert_url: null,
        consent_token: null,
        ip_address: null,
        user_agent: 'UA',
        source_id: 's',
      },
    ],
    [
      { name: 'A', sms_consent: true, consent_token: 'LEADID-1' },
      {
        sms_consent: true,
        consent_cert_url: null,
        consent_token: 'LEADID-1',
        ip_address: null,
        user_agent: null,
        source_id: 's',
      },
    ],
  ])('When the fields are %j, then the evidence is %j', (fields, expected) => {
    expect(consentEvidence(fields, 's')).toEqual(expected);
  });
});
