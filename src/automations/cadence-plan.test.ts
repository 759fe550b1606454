import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { cadenceStepsProblem, orderedSteps, planDueTimes, type CadenceStep } from './cadence-plan.ts';
import { contactRule, nextAllowedInstant } from './contact-window.ts';

const call = (after_minutes: number): CadenceStep => ({ after_minutes, action: 'call' });
const text = (after_minutes: number, body = 'Hi {first_name}'): CadenceStep => ({
  after_minutes,
  action: 'text',
  body,
});
const due = (steps: CadenceStep[], delivered: string, zone: string, state: string | null = null) =>
  planDueTimes(steps, { delivered_at: new Date(delivered), zone, state }).map((d) => d.toISOString());

describe('cadence due times', () => {
  it.each([
    [
      'inside the window: the delay alone',
      [call(0), text(60)],
      '2027-01-15T15:00:00Z',
      'America/New_York',
      null,
      ['2027-01-15T15:00:00.000Z', '2027-01-15T16:00:00.000Z'],
    ],
    [
      'after 9 p.m.: the next morning at 8 there',
      [call(30)],
      '2027-01-16T01:45:00Z',
      'America/New_York',
      null,
      ['2027-01-16T13:00:00.000Z'],
    ],
    [
      'before 8 a.m. in Los Angeles: 8 a.m. Pacific',
      [call(0)],
      '2027-01-15T15:00:00Z',
      'America/Los_Angeles',
      null,
      ['2027-01-15T16:00:00.000Z'],
    ],
    [
      'the night clocks spring forward: 8 a.m. daylight time',
      [text(60)],
      '2027-03-14T01:30:00Z',
      'America/New_York',
      null,
      ['2027-03-14T12:00:00.000Z'],
    ],
    [
      'the night clocks fall back: 8 a.m. standard time',
      [call(120)],
      '2027-11-07T00:30:00Z',
      'America/Chicago',
      null,
      ['2027-11-07T14:00:00.000Z'],
    ],
    [
      'Florida closes at 8 p.m.',
      [call(60)],
      '2027-01-16T00:30:00Z',
      'America/New_York',
      'FL',
      ['2027-01-16T13:00:00.000Z'],
    ],
    [
      'days later: elapsed minutes, then the window',
      [call(0), call(1440), call(4320)],
      '2027-01-15T20:00:00Z',
      'America/New_York',
      null,
      ['2027-01-15T20:00:00.000Z', '2027-01-16T20:00:00.000Z', '2027-01-18T20:00:00.000Z'],
    ],
  ])('%s', (_, steps, delivered, zone, state, expected) => {
    expect(due(steps, delivered, zone, state)).toEqual(expected);
  });

  it('Florida: a fourth text in 24 hours moves past the oldest, never dropped; calls do not count', () => {
    const steps = [text(0), text(10), call(15), text(20), text(30), text(40)];
    expect(due(steps, '2027-01-15T14:00:00Z', 'America/New_York', 'FL')).toEqual([
      '2027-01-15T14:00:00.000Z',
      '2027-01-15T14:10:00.000Z',
      '2027-01-15T14:15:00.000Z',
      '2027-01-15T14:20:00.000Z',
      '2027-01-16T14:00:00.000Z',
      '2027-01-16T14:10:00.000Z',
    ]);
  });

  it('Texts in a state without a daily limit are not moved by it', () => {
    const steps = [text(0), text(10), text(20), text(30)];
    expect(due(steps, '2027-01-15T14:00:00Z', 'America/Chicago', 'TX')).toHaveLength(4);
    expect(due(steps, '2027-01-15T15:00:00Z', 'America/Chicago', 'TX')[3]).toBe('2027-01-15T15:30:00.000Z');
  });

  const zones = [
    'America/New_York',
    'America/Chicago',
    'America/Denver',
    'America/Los_Angeles',
    'America/Phoenix',
    'Pacific/Honolulu',
  ];
  const states = [null, 'FL', 'OK', 'MD', 'WA', 'TX', 'CA'];
  const arbitrarySteps = fc.array(
    fc.record({
      after_minutes: fc.integer({ min: 0, max: 20_160 }),
      action: fc.constantFrom('call' as const, 'text' as const),
    }),
    { minLength: 1, maxLength: 30 },
  );

  it('Every step falls due at or after its delay, inside the calling window; a state’s texts never crowd 24 hours', () => {
    fc.assert(
      fc.property(
        arbitrarySteps,
        fc.date({
          min: new Date('2026-01-01T00:00:00Z'),
          max: new Date('2028-12-31T00:00:00Z'),
          noInvalidDate: true,
        }),
        fc.constantFrom(...zones),
        fc.constantFrom(...states),
        (raw, delivered, zone, state) => {
          const steps = orderedSteps(raw.map((s) => (s.action === 'text' ? { ...s, body: 'Hi' } : s)));
          const times = planDueTimes(steps, { delivered_at: delivered, zone, state });
          const rule = contactRule(state);
          steps.forEach((s, i) => {
            const at = times[i] as Date;
            expect(at.getTime()).toBeGreaterThanOrEqual(delivered.getTime() + s.after_minutes * 60_000);
            expect(nextAllowedInstant(at, zone, rule).getTime()).toBe(at.getTime());
          });
          if (rule.maxPer24h === null) return;
          const texts = times.filter((_, i) => steps[i]?.action === 'text').map((d) => d.getTime());
          for (const t of texts)
            expect(texts.filter((u) => u > t - 86_400_000 && u <= t).length).toBeLessThanOrEqual(
              rule.maxPer24h,
            );
        },
      ),
    );
  });
});

describe('cadence steps: what is refused, naming the step', () => {
  it.each([
    ['no steps', [], 'steps must have at least one step'],
    ['31 steps', Array.from({ length: 31 }, () => call(0)), 'steps may have at most 30 steps'],
    [
      'a negative delay',
      [call(0), call(-5)],
      'steps[1].after_minutes must be a whole number of minutes, 0 or more',
    ],
    [
      'a delay in part minutes',
      [call(1.5)],
      'steps[0].after_minutes must be a whole number of minutes, 0 or more',
    ],
    [
      'a text without a body',
      [call(0), { after_minutes: 5, action: 'text' }],
      'steps[1].body is required for a text',
    ],
    [
      'a text of blanks',
      [{ after_minutes: 5, action: 'text', body: '   ' }],
      'steps[0].body is required for a text',
    ],
    [
      'an unknown placeholder',
      [text(0, 'Hi {first_name}, {policy}')],
      'steps[0].body has an unknown placeholder {policy}; known: {first_name}, {agent_name}',
    ],
    [
      'a call with words',
      [{ after_minutes: 0, action: 'call', body: 'x' }],
      'steps[0].body is only for a text',
    ],
  ] as Array<[string, CadenceStep[], string]>)('%s', (_, steps, problem) => {
    expect(cadenceStepsProblem(steps)).toBe(problem);
  });

  it('Good steps pass, and are kept in the order of their delay with texts trimmed', () => {
    const steps = [text(60, '  Hi {first_name}, it is {agent_name}. '), call(0)];
    expect(cadenceStepsProblem(steps)).toBeNull();
    expect(orderedSteps(steps)).toEqual([call(0), text(60, 'Hi {first_name}, it is {agent_name}.')]);
  });
});
