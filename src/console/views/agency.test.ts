import { describe, expect, it } from 'vitest';
import type { MemberView } from '../../routing/agency-repository.ts';
import type { FallbackLead } from '../../routing/fallback-queue.ts';
import { sharesToday, whySkipped } from './agency.ts';

const member = (agent_id: string, assigned_today: number): MemberView => ({
  agent_id,
  name: agent_id.toUpperCase(),
  licensed_states: ['TX'],
  weight: 1,
  daily_cap: null,
  active: true,
  assigned_today,
});

const lead = (state: string | null, skipped: FallbackLead['skipped']): FallbackLead => ({
  lead_id: '3f0c2a9e-5b7d-4c1e-9a8f-2d6b1e4c7a90',
  name: 'Lee',
  phone: null,
  email: null,
  status: 'New',
  state,
  skipped,
  created_at: '2026-11-25T01:35:44.540Z',
  licensed: [],
});

describe('sharesToday', () => {
  it('When producers got 2, 1 and 0 leads today, then their shares of the day are 67%, 33% and 0%', () => {
    expect(sharesToday([member('a', 2), member('b', 1), member('c', 0)])).toEqual([
      { count: 2, percent: 67 },
      { count: 1, percent: 33 },
      { count: 0, percent: 0 },
    ]);
  });

  it('When nobody got a lead yet today, then no share is made up', () => {
    expect(sharesToday([member('a', 0)])).toEqual([{ count: 0, percent: null }]);
  });
});

describe('whySkipped', () => {
  const names = new Map([
    ['a', 'Ann'],
    ['b', 'Ben'],
    ['c', 'Cy'],
  ]);

  it.each<[string, FallbackLead, string]>([
    ['no state', lead(null, []), 'No state found: the lead has no state, ZIP code or US area code.'],
    ['no producer', lead('TX', []), 'The agency had no producer.'],
    [
      'nobody licensed',
      lead('CA', [
        { agent_id: 'a', reason: 'not_licensed' },
        { agent_id: 'b', reason: 'not_licensed' },
      ]),
      'No producer is licensed in CA.',
    ],
    [
      'each reason',
      lead('OK', [
        { agent_id: 'c', reason: 'inactive' },
        { agent_id: 'b', reason: 'not_licensed' },
        { agent_id: 'a', reason: 'daily_cap' },
        { agent_id: 'gone', reason: 'inactive' },
      ]),
      'Not licensed in OK: Ben. Paused: Cy, a former producer. At its daily cap: Ann.',
    ],
  ])('When the lead had %s, then the page says so in words', (_case, queued, words) => {
    expect(whySkipped(queued, names)).toBe(words);
  });
});
