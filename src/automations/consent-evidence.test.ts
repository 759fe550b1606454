import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { consentRequest, matchHash, readConsentAnswer, trustedFormCertId } from './consent-evidence.ts';

const BASE = 'https://cert.trustedform.com';
const ID = '0123456789abcdef0123456789abcdef01234567';
const PROVIDERS = {
  trustedform: { apiKey: 'the-key', baseUrl: BASE },
  jornaya: { accountCode: 'LAC', auditKey: 'LAK', providerCode: 'LPC', baseUrl: 'https://api.leadid.com' },
};
const LEAD = { lead_id: 'lead-1', phone: '3125550101', email: 'pat@example.com' };

describe('consent evidence: the certificate URL', () => {
  it.each([
    [`${BASE}/${ID}`, ID],
    [`${BASE}/${ID}/`, ID],
    [`https://CERT.trustedform.com/${ID}`, ID],
    [`http://cert.trustedform.com/${ID}`, null],
    [`https://cert.trustedform.com.evil.example/${ID}`, null],
    [`https://evil.example/${ID}`, null],
    [`https://evil.example/?u=${BASE}/${ID}`, null],
    [`https://user:pw@cert.trustedform.com/${ID}`, null],
    [`https://cert.trustedform.com:8443/${ID}`, null],
    [`${BASE}/${ID}/extra`, null],
    [`${BASE}/short`, null],
    ['not a url', null],
    ['', null],
  ])('When the certificate URL is %j, then its id is %j', (url, id) => {
    expect(trustedFormCertId(url, BASE)).toBe(id);
  });

  it('When a certificate URL is on any other host, then no request is made and the key is in nothing returned', () => {
    fc.assert(
      fc.property(fc.webUrl({ withQueryParameters: true, withFragments: true }), (url) => {
        fc.pre(new URL(url).host !== 'cert.trustedform.com');
        const request = consentRequest('trustedform', url, LEAD, PROVIDERS);
        expect(request).toEqual({ refused: 'certificate_not_on_trustedform' });
        expect(JSON.stringify(request)).not.toContain('the-key');
      }),
    );
  });

  it('When the certificate is on TrustedForm, then the request goes to the configured base with the key and the contact hashed', () => {
    const request = consentRequest('trustedform', `${BASE}/${ID}`, LEAD, PROVIDERS);
    expect(request).toEqual({
      url: `${BASE}/${ID}`,
      headers: expect.objectContaining({
        'api-version': '4.0',
        authorization: `Basic ${Buffer.from('API:the-key').toString('base64')}`,
      }),
      body: JSON.stringify({
        retain: { reference: 'lead-1' },
        match_lead: { email: matchHash('pat@example.com'), phone: matchHash('3125550101') },
      }),
    });
  });

  it('When the lead has neither phone nor email, or no provider is configured, then the check is refused with the reason', () => {
    expect(
      consentRequest('trustedform', `${BASE}/${ID}`, { lead_id: 'x', phone: null, email: null }, PROVIDERS),
    ).toEqual({
      refused: 'no_contact_to_match',
    });
    expect(consentRequest('trustedform', `${BASE}/${ID}`, LEAD, {})).toEqual({
      refused: 'trustedform_not_configured',
    });
    expect(consentRequest('jornaya', 'x', LEAD, {})).toEqual({ refused: 'jornaya_not_configured' });
    expect(consentRequest('jornaya', 'bad token!', LEAD, PROVIDERS)).toEqual({ refused: 'token_malformed' });
  });
});

describe('consent evidence: the answer', () => {
  const tf = (body: unknown, status = 200) => readConsentAnswer('trustedform', status, JSON.stringify(body));
  const matched = { match_lead: { result: { success: true } } };
  it.each([
    [
      tf({ outcome: 'success', ...matched, retain: { results: { expires_at: '2031-01-01T00:00:00Z' } } }),
      { status: 'verified', expires_at: '2031-01-01T00:00:00Z' },
    ],
    [tf({ outcome: 'success', ...matched }), { status: 'verified', expires_at: null }],
    [tf({ outcome: 'failure', ...matched }), { status: 'failed', reason: 'not_retained' }],
    [
      tf({ outcome: 'success', match_lead: { result: { success: false } } }),
      { status: 'failed', reason: 'lead_not_matched' },
    ],
    [tf({}, 404), { status: 'failed', reason: 'http_404' }],
    [tf({}, 401), { status: 'failed', reason: 'http_401' }],
    [tf({}, 503), { status: 'retry', reason: 'http_503' }],
    [tf({}, 429), { status: 'retry', reason: 'http_429' }],
    [readConsentAnswer('trustedform', 200, 'not json'), { status: 'failed', reason: 'lead_not_matched' }],
    [
      readConsentAnswer('jornaya', 200, '{"authenticate":{"authentic":1}}'),
      { status: 'verified', expires_at: null },
    ],
    [
      readConsentAnswer('jornaya', 200, '{"authenticate":{"authentic":0}}'),
      { status: 'failed', reason: 'token_not_authentic' },
    ],
  ])('When the provider answers (case %#), then the outcome is %j', (outcome, expected) => {
    expect(outcome).toEqual(expected);
  });

  it('When any answer comes, then reading it never throws and a success needs a 2xx', () => {
    fc.assert(
      fc.property(
        fc.constantFrom('trustedform' as const, 'jornaya' as const),
        fc.integer({ min: 100, max: 599 }),
        fc.string(),
        (p, status, body) => {
          const outcome = readConsentAnswer(p, status, body);
          if (outcome.status === 'verified') expect(status >= 200 && status < 300).toBe(true);
        },
      ),
    );
  });
});
