import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { contactRule, nextAllowedInstant } from './contact-window.ts';
import {
  planReminders,
  REMINDER_KINDS,
  REMINDER_LEAD_MS,
  reminderTemplateProblem,
  type RemindersOn,
} from './reminder-plan.ts';

const BOTH: RemindersOn = { day_before: true, hour_before: true };
const plan = (appointment: string, now: string, zone: string, state: string | null, on = BOTH) =>
  Object.fromEntries(
    planReminders({
      appointment_at: new Date(appointment),
      now: new Date(now),
      zone,
      rule: contactRule(state),
      on,
    }).map((r) => [r.kind, r.due_at.toISOString()]),
  );

describe('reminder due times', () => {
  it.each([
    [
      'a 2 p.m. appointment in New York: a day and an hour before',
      '2027-01-20T19:00:00Z',
      '2027-01-18T15:00:00Z',
      'America/New_York',
      null,
      { day_before: '2027-01-19T19:00:00.000Z', hour_before: '2027-01-20T18:00:00.000Z' },
    ],
    [
      'an 8:30 a.m. appointment: the hour before goes the evening before, at 8:59 p.m.',
      '2027-01-20T13:30:00Z',
      '2027-01-18T15:00:00Z',
      'America/New_York',
      null,
      { day_before: '2027-01-19T13:30:00.000Z', hour_before: '2027-01-20T01:59:00.000Z' },
    ],
    [
      'the same in Florida, whose window closes at 8 p.m.: 7:59 p.m.',
      '2027-01-20T13:30:00Z',
      '2027-01-18T15:00:00Z',
      'America/New_York',
      'FL',
      { day_before: '2027-01-19T13:30:00.000Z', hour_before: '2027-01-20T00:59:00.000Z' },
    ],
    [
      'a 10:30 p.m. appointment in Los Angeles: both at 8:59 p.m. Pacific, the day before and that day',
      '2027-01-21T06:30:00Z',
      '2027-01-18T15:00:00Z',
      'America/Los_Angeles',
      null,
      { day_before: '2027-01-20T04:59:00.000Z', hour_before: '2027-01-21T04:59:00.000Z' },
    ],
    [
      'an Oklahoma 7:45 a.m. Monday appointment: Saturday 7:59 p.m., then Sunday night at 7:59 p.m.',
      '2027-01-18T13:45:00Z',
      '2027-01-15T15:00:00Z',
      'America/Chicago',
      'OK',
      { day_before: '2027-01-17T01:59:00.000Z', hour_before: '2027-01-18T01:59:00.000Z' },
    ],
    [
      'the spring-forward night: an 8:30 a.m. daylight-time appointment’s hour before is 8:59 p.m. standard time',
      '2027-03-14T12:30:00Z',
      '2027-03-12T15:00:00Z',
      'America/New_York',
      null,
      { day_before: '2027-03-13T01:59:00.000Z', hour_before: '2027-03-14T01:59:00.000Z' },
    ],
    [
      'the fall-back night: 24 elapsed hours before a 9 a.m. standard-time appointment is 10 a.m. daylight time',
      '2027-11-07T14:00:00Z',
      '2027-11-05T15:00:00Z',
      'America/New_York',
      null,
      { day_before: '2027-11-06T14:00:00.000Z', hour_before: '2027-11-07T13:00:00.000Z' },
    ],
    [
      'booked less than a day ahead: the hour before alone',
      '2027-01-20T19:00:00Z',
      '2027-01-20T15:00:00Z',
      'America/New_York',
      null,
      { hour_before: '2027-01-20T18:00:00.000Z' },
    ],
    [
      'booked at 10 p.m. for 8:30 a.m.: the last minute before has gone, so none',
      '2027-01-20T13:30:00Z',
      '2027-01-20T03:00:00Z',
      'America/New_York',
      null,
      {},
    ],
    [
      'an appointment already past: none',
      '2027-01-18T14:00:00Z',
      '2027-01-18T15:00:00Z',
      'America/New_York',
      null,
      {},
    ],
  ])('%s', (_, appointment, now, zone, state, expected) => {
    expect(plan(appointment, now, zone, state)).toEqual(expected);
  });

  it('Only the reminders the agent has on are planned', () => {
    const on = { day_before: false, hour_before: true };
    expect(
      Object.keys(plan('2027-01-20T19:00:00Z', '2027-01-18T15:00:00Z', 'America/New_York', null, on)),
    ).toEqual(['hour_before']);
  });

  const zones = [
    'America/New_York',
    'America/Chicago',
    'America/Denver',
    'America/Los_Angeles',
    'America/Phoenix',
    'Pacific/Honolulu',
    'America/Anchorage',
  ];
  const states = [null, 'FL', 'OK', 'MD', 'WA', 'TX', 'CA'];

  it('Each reminder goes after its planning, at or before its target, inside the window, and before the appointment', () => {
    fc.assert(
      fc.property(
        fc.date({
          min: new Date('2026-01-01T00:00:00Z'),
          max: new Date('2028-12-31T00:00:00Z'),
          noInvalidDate: true,
        }),
        fc.integer({ min: -120, max: 4 * 1440 }),
        fc.constantFrom(...zones),
        fc.constantFrom(...states),
        fc.boolean(),
        fc.boolean(),
        (now, minutesAhead, zone, state, day_before, hour_before) => {
          const appointment_at = new Date(now.getTime() + minutesAhead * 60_000);
          const rule = contactRule(state);
          const planned = planReminders({ appointment_at, now, zone, rule, on: { day_before, hour_before } });
          for (const r of planned) {
            const target = appointment_at.getTime() - REMINDER_LEAD_MS[r.kind];
            expect(r.due_at.getTime()).toBeGreaterThan(now.getTime());
            expect(r.due_at.getTime()).toBeLessThanOrEqual(target);
            expect(r.due_at.getTime()).toBeLessThan(appointment_at.getTime());
            expect(nextAllowedInstant(r.due_at, zone, rule).getTime()).toBe(r.due_at.getTime());
          }
          // The last allowed minute is the latest: a minute later is past the target or outside the window.
          for (const r of planned) {
            const target = appointment_at.getTime() - REMINDER_LEAD_MS[r.kind];
            const later = new Date(Math.floor(r.due_at.getTime() / 60_000) * 60_000 + 60_000);
            if (r.due_at.getTime() < target && later.getTime() <= target)
              expect(nextAllowedInstant(later, zone, rule).getTime()).not.toBe(later.getTime());
          }
          const kinds = planned.map((r) => r.kind);
          expect(kinds).toEqual(REMINDER_KINDS.filter((k) => kinds.includes(k)));
        },
      ),
    );
  });
});

describe('reminder templates', () => {
  it.each([
    ['known placeholders', 'Hi {first_name}, {agent_name} here: see you {appointment_time}.', null],
    [
      'an unknown one',
      'Hi {first_name}, about {policy}',
      'reminders.template has an unknown placeholder {policy}; known: {first_name}, {agent_name}, {appointment_time}',
    ],
    [
      'an empty one',
      'Hi {}',
      'reminders.template has an unknown placeholder {}; known: {first_name}, {agent_name}, {appointment_time}',
    ],
  ])('%s', (_, template, problem) => {
    expect(reminderTemplateProblem(template)).toBe(problem);
  });
});
