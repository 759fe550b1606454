import { describe, expect, it } from 'vitest';
import type { SourceRow } from '../../sources/source-row.ts';
import { metaForm, metaStatus } from './source-meta.ts';

const source = (meta: Partial<SourceRow['meta']>, has_google_key = false): SourceRow => ({
  source_id: 's-1',
  agent_id: 'a-1',
  name: 'Facebook lead ads',
  active: true,
  created_at: '2026-11-25T01:35:44.540Z',
  updated_at: '2026-11-25T01:35:44.540Z',
  has_signing_key: false,
  consent: 'none',
  cadence_id: null,
  rate_limit_rps: null,
  rate_limit_burst: null,
  meta: {
    page_access_token_set: false,
    app_secret_set: false,
    verify_token_set: false,
    listen: false,
    reconnect_needed_since: null,
    ...meta,
  },
  has_google_key,
  agency_id: null,
  price_cents: 0,
  return_window_hours: 72,
  duplicate_days: 30,
  accept: {},
  caps: {},
});
const text = (s: SourceRow) => metaStatus(s, 'America/Chicago').text.replace(/\s+/g, ' ');
const both = { page_access_token_set: true, app_secret_set: true };

describe('metaStatus', () => {
  it.each([
    [{}, 'Meta Lead Ads: not connected'],
    [{ verify_token_set: true }, 'partly set up'],
    [both, 'Meta Lead Ads: connected ·'],
    [{ ...both, listen: true }, 'connected, Listen'],
    [
      { ...both, reconnect_needed_since: '2026-11-25T01:35:44.540Z' },
      'The Graph API refused the page access token on',
    ],
    [
      { app_secret_set: true, reconnect_needed_since: '2026-11-25T01:35:44.540Z' },
      'no page access token is set',
    ],
  ])('When the Meta settings are %j, then the card says "%s"', (meta, words) => {
    expect(text(source(meta))).toContain(words);
  });

  it('When the Graph API refused the token, then the card says to reconnect, in the agent’s zone, as an alert', () => {
    const shown = metaStatus(
      source({ ...both, reconnect_needed_since: '2026-11-25T01:35:44.540Z' }),
      'America/Chicago',
    );
    expect(shown.text).toContain('reconnect Meta');
    expect(shown.text).toContain('class="error"');
  });
});

describe('metaForm', () => {
  it('When the form is drawn, then every secret is a password field with no value, and Disconnect only once something is set', () => {
    const empty = metaForm(source({}), 'csrf-1').text;
    expect(empty.match(/type="password"/g)).toHaveLength(4);
    expect(empty).not.toMatch(/\svalue="(?!csrf-1|live|listen|1")/);
    expect(empty).not.toContain('Disconnect Meta');
    expect(metaForm(source(both), 'csrf-1').text).toContain('Disconnect Meta');
  });
});
