import { describe, expect, it } from 'vitest';
import { routeLead, type Member, type RouteInput } from './route.ts';

const member = (agent_id: string, over: Partial<Member> = {}): Member => ({
  agent_id,
  licensed_states: ['TX', 'OH'],
  weight: 1,
  daily_cap: null,
  active: true,
  credit: 0,
  assigned_today: 0,
  ...over,
});

const input = (over: Partial<RouteInput> = {}): RouteInput => ({
  agency_id: 'agency',
  fallback_agent_id: 'boss',
  members: [member('ann'), member('bob', { licensed_states: ['OH'] })],
  state: 'TX',
  owner: null,
  at: new Date('2027-01-15T15:00:00Z'),
  ...over,
});

describe('routeLead: the chain', () => {
  it('When the contact is a producer’s already, then it stays with that producer and no rotation runs', () => {
    const d = routeLead(input({ owner: 'bob' }));
    expect(d).toMatchObject({ agent_id: 'bob', routing: { rule: 'owner', skipped: [] }, counts: false });
    expect(d.credits.size).toBe(0);
  });

  it.each<[string, Partial<RouteInput>, string, string, Array<[string, string]>]>([
    ['only one is licensed in the state', {}, 'ann', 'rotation', [['bob', 'not_licensed']]],
    [
      'nobody is licensed in the state',
      { state: 'CA' },
      'boss',
      'fallback',
      [
        ['ann', 'not_licensed'],
        ['bob', 'not_licensed'],
      ],
    ],
    ['the state is unknown', { state: null }, 'boss', 'fallback', []],
    [
      'the licensed one is paused',
      { members: [member('ann', { active: false }), member('bob', { licensed_states: ['OH'] })] },
      'boss',
      'fallback',
      [
        ['ann', 'inactive'],
        ['bob', 'not_licensed'],
      ],
    ],
    [
      'the licensed one has reached its daily cap',
      { members: [member('ann', { daily_cap: 2, assigned_today: 2 }), member('cy')] },
      'cy',
      'rotation',
      [['ann', 'daily_cap']],
    ],
    [
      'a producer has room under its cap',
      { members: [member('ann', { daily_cap: 2, assigned_today: 1 })] },
      'ann',
      'rotation',
      [],
    ],
    [
      'the lead was with the only eligible producer already',
      { tried: ['ann'] },
      'boss',
      'fallback',
      [['bob', 'not_licensed']],
    ],
    [
      'the lead moves on from one producer to another',
      { tried: ['cy'], members: [member('cy'), member('ann')] },
      'ann',
      'reassigned',
      [],
    ],
  ])(
    'When %s, then the lead goes to the right producer with the reasons',
    (_, over, agent, rule, skipped) => {
      const d = routeLead(input(over));
      expect(d.agent_id).toBe(agent);
      expect(d.routing.rule).toBe(rule);
      expect(d.routing.skipped.map((s) => [s.agent_id, s.reason])).toEqual(skipped);
      expect(d.counts).toBe(true);
    },
  );

  it('When the claim timer has moved a lead twice, then the third move is to the fallback producer', () => {
    const members = [member('ann'), member('cy'), member('dee')];
    expect(routeLead(input({ members, tried: ['ann', 'cy'] }))).toMatchObject({
      agent_id: 'dee',
      routing: { rule: 'reassigned' },
    });
    expect(routeLead(input({ members, tried: ['ann', 'cy', 'dee'] }))).toMatchObject({
      agent_id: 'boss',
      routing: { rule: 'fallback', tried: ['ann', 'cy', 'dee', 'boss'] },
    });
  });

  it('When a producer is excluded for holding the contact already, then it is passed over and not recorded', () => {
    const d = routeLead(input({ members: [member('ann'), member('cy')], tried: ['zed'], exclude: ['ann'] }));
    expect(d.agent_id).toBe('cy');
    expect(d.routing.tried).toEqual(['zed', 'cy']);
    expect(d.routing.assigned_at).toBe('2027-01-15T15:00:00.000Z');
  });

  it('When a lead is routed, then the producers it was given to are recorded in order', () => {
    expect(routeLead(input()).routing.tried).toEqual(['ann']);
    expect(routeLead(input({ tried: ['cy'], members: [member('cy'), member('ann')] })).routing.tried).toEqual(
      ['cy', 'ann'],
    );
  });

  it('When the rotation runs, then only the eligible producers’ credits change', () => {
    const d = routeLead(
      input({ members: [member('ann'), member('cy'), member('bob', { licensed_states: ['OH'] })] }),
    );
    expect([...d.credits.keys()].sort()).toEqual(['ann', 'cy']);
    expect(d.credits.get(d.agent_id)).toBeCloseTo(-0.5);
  });
});
