import { describe, expect, it } from 'vitest';
import { consentCheck } from './consent-check.ts';

const ZONE = 'America/Chicago';
const shown = (check: unknown) => {
  const out = consentCheck(check, ZONE);
  return (typeof out === 'string' ? out : out.text).replace(/\s+/g, ' ');
};

describe('consentCheck', () => {
  it.each([
    [
      {
        provider: 'trustedform',
        status: 'verified',
        reason: null,
        checked_at: '2026-12-02T16:00:00Z',
        expires_at: '2029-12-01T00:00:00Z',
      },
      [
        'Verified by TrustedForm',
        'Wed, Dec 2, 2026, 10:00 AM CST',
        'kept until Fri, Nov 30, 2029',
        'status ok',
      ],
    ],
    [
      {
        provider: 'jornaya',
        status: 'failed',
        reason: 'lead_not_matched',
        checked_at: '2026-12-02T16:00:00Z',
        expires_at: null,
      },
      ['Failed by Jornaya: lead_not_matched', 'no automatic texts or calls', 'status bad'],
    ],
    [
      { provider: 'trustedform', status: 'pending', reason: null, checked_at: null, expires_at: null },
      ['Being checked by TrustedForm', 'automatic texts and calls wait for it'],
    ],
    [
      {
        provider: 'none',
        status: 'present',
        reason: null,
        checked_at: '2026-12-02T16:00:00Z',
        expires_at: null,
      },
      ['Present', 'not a check'],
    ],
    [
      {
        provider: 'none',
        status: 'failed',
        reason: 'no_consent_evidence',
        checked_at: '2026-12-02T16:00:00Z',
        expires_at: null,
      },
      ['Failed: no_consent_evidence'],
    ],
  ])('When the check is %j, then the page says so', (check, parts) => {
    const out = shown(check);
    for (const part of parts) expect(out).toContain(part);
  });

  it('When the source asks no check, then nothing is shown', () => {
    expect(shown(null)).toBe('');
    expect(shown(undefined)).toBe('');
  });

  it('When a reason carries markup, then it is shown as text', () => {
    expect(shown({ provider: 'jornaya', status: 'failed', reason: '<b>x</b>' })).toContain(
      '&lt;b&gt;x&lt;/b&gt;',
    );
  });
});
