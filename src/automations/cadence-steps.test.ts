import { describe, expect, it } from 'vitest';
import { decideStep, type DueStep } from './cadence-steps.ts';
import type { FollowUpLead } from './follow-up-leads.ts';
import type { ContactDecision } from '../screening/decide.ts';

const step = (action: 'call' | 'text', body: string | null = null): DueStep => ({
  agent_id: 'a',
  lead_id: 'l',
  message_id: 'm',
  action,
  body,
  agent_name: 'Ann Agent',
  agent_timezone: 'America/New_York',
});
const lead = (fields: Record<string, unknown> = {}) =>
  ({
    lead_id: 'l',
    status: 'New',
    phone: '3055550100',
    first_name: 'Rita',
    sms_consent: true,
    state: 'FL',
    zipcode: '33101',
    ...fields,
  }) as unknown as FollowUpLead;
const CLEAR: ContactDecision = { text: null, call: null };
const NONE = { n: 0, oldest: null };
const NOON = new Date('2027-01-18T17:00:00Z'); // noon in Miami

describe('a cadence step as it falls due (decideStep)', () => {
  it.each([
    ['a call: a task in the dial queue', step('call'), lead(), CLEAR, { kind: 'call' }],
    [
      'a call screening forbids: skipped with why',
      step('call'),
      lead(),
      { text: null, call: 'dnc' } as ContactDecision,
      { kind: 'skipped', reason: 'dnc' },
    ],
    [
      'no phone: skipped',
      step('text', 'Hi'),
      lead({ phone: null }),
      CLEAR,
      { kind: 'skipped', reason: 'no phone' },
    ],
    [
      'a text without consent: skipped',
      step('text', 'Hi'),
      lead({ sms_consent: false }),
      CLEAR,
      { kind: 'skipped', reason: 'no SMS consent' },
    ],
    [
      'a text screening forbids: skipped',
      step('text', 'Hi'),
      lead(),
      { text: 'opted_out', call: 'opted_out' } as ContactDecision,
      { kind: 'skipped', reason: 'opted_out' },
    ],
    [
      'a lead Sold since: the plan stops',
      step('call'),
      lead({ status: 'Sold' }),
      CLEAR,
      { kind: 'stop', reason: 'status' },
    ],
    [
      'a lead booked since: the plan stops',
      step('text', 'Hi'),
      lead({ status: 'Scheduled' }),
      CLEAR,
      { kind: 'stop', reason: 'appointment' },
    ],
  ])('%s', (_, s, l, decision, expected) => {
    expect(decideStep(s, l, decision, NONE, NOON)).toMatchObject(expected);
  });

  it('A text goes at once with its placeholders filled, keyed by its step', () => {
    expect(decideStep(step('text', 'Hi {first_name}, {agent_name} here'), lead(), CLEAR, NONE, NOON)).toEqual(
      {
        kind: 'text',
        text: {
          agent_id: 'a',
          lead_id: 'l',
          message_id: 'm',
          to_phone: '3055550100',
          body: 'Hi Rita, Ann Agent here',
          send_at: NOON,
        },
      },
    );
  });

  it('A text at 8:30 p.m. in Miami moves to 8 a.m. (Florida closes at 8); a call is not held to the window again', () => {
    const late = new Date('2027-01-19T01:30:00Z');
    expect(decideStep(step('text', 'Hi'), lead(), CLEAR, NONE, late)).toEqual({
      kind: 'moved',
      due: new Date('2027-01-19T13:00:00Z'),
      reason: 'outside calling hours',
    });
    expect(decideStep(step('call'), lead(), CLEAR, NONE, late)).toMatchObject({ kind: 'call' });
  });

  it('A fourth text in 24 hours in Florida moves past the oldest; in Texas it goes', () => {
    const recent = { n: 3, oldest: new Date('2027-01-18T15:00:00Z') };
    expect(decideStep(step('text', 'Hi'), lead(), CLEAR, recent, NOON)).toEqual({
      kind: 'moved',
      due: new Date('2027-01-19T15:00:00Z'),
      reason: 'FL allows 3 texts in 24 hours',
    });
    const texan = lead({ state: 'TX', zipcode: '75201', phone: '2145550100' });
    expect(decideStep(step('text', 'Hi'), texan, CLEAR, recent, NOON)).toMatchObject({ kind: 'text' });
  });
});
