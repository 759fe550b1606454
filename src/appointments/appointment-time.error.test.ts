import { describe, expect, it } from 'vitest';
import type { LeadFields } from '../ingest/types.ts';
import { resolveSchedule } from './schedule.ts';

const AGENT = 'America/New_York';

describe('values that book no appointment', () => {
  const INVALID: [string, LeadFields, Record<string, string>, string[]][] = [
    [
      'a day/month date',
      { appointment_date: '31/02/2027', appointment_time: '2:30 PM' },
      { appointment_date: '31/02/2027', appointment_time: '2:30 PM' },
      ['INVALID_DATE'],
    ],
    [
      'February 30',
      { appointment_date: '2027-02-30', appointment_time: '2:30 PM' },
      { appointment_date: '2027-02-30', appointment_time: '2:30 PM' },
      ['INVALID_DATE'],
    ],
    [
      'Feb 29 of a common year',
      { appointment_date: '2027-02-29', appointment_time: '2:30 PM' },
      { appointment_date: '2027-02-29', appointment_time: '2:30 PM' },
      ['INVALID_DATE'],
    ],
    [
      'hour 25',
      { appointment_date: '2027-01-15', appointment_time: '25:00' },
      { appointment_date: '2027-01-15', appointment_time: '25:00' },
      ['INVALID_TIME'],
    ],
    [
      '13 PM',
      { appointment_date: '2027-01-15', appointment_time: '13:00 PM' },
      { appointment_date: '2027-01-15', appointment_time: '13:00 PM' },
      ['INVALID_TIME'],
    ],
    [
      'minute 60',
      { appointment_date: '2027-01-15', appointment_time: '2:60 PM' },
      { appointment_date: '2027-01-15', appointment_time: '2:60 PM' },
      ['INVALID_TIME'],
    ],
    [
      '"tomorrow"',
      { appointment_date: 'tomorrow', appointment_time: 'afternoon' },
      { appointment_date: 'tomorrow', appointment_time: 'afternoon' },
      ['INVALID_DATE', 'INVALID_TIME'],
    ],
    [
      'a date alone',
      { appointment_date: '2027-01-15' },
      { appointment_date: '2027-01-15' },
      ['APPOINTMENT_INCOMPLETE'],
    ],
    [
      'a time alone',
      { appointment_time: '2:30 PM' },
      { appointment_time: '2:30 PM' },
      ['APPOINTMENT_INCOMPLETE'],
    ],
    [
      'scheduled_at "tomorrow"',
      { scheduled_at: 'tomorrow' },
      { scheduled_at: 'tomorrow' },
      ['INVALID_DATETIME'],
    ],
    [
      'scheduled_at without a time',
      { scheduled_at: '2027-01-15' },
      { scheduled_at: '2027-01-15' },
      ['INVALID_DATETIME'],
    ],
    [
      'scheduled_at on Feb 30',
      { scheduled_at: '2027-02-30T10:00:00Z' },
      { scheduled_at: '2027-02-30T10:00:00Z' },
      ['INVALID_DATETIME'],
    ],
  ];
  it.each(INVALID)(
    'when the lead has %s, then no appointment, the raw values are kept and a warning says why',
    (_what, lead, rejected, warned) => {
      const r = resolveSchedule(lead, AGENT);
      expect(r.appointment).toBeNull();
      expect(r.rejected).toEqual(rejected);
      expect(r.warnings.map((w) => w.code)).toEqual(warned);
    },
  );
});

describe('schedule_type', () => {
  const TYPES: [string | undefined, string][] = [
    [undefined, 'appointment'],
    ['appointment', 'appointment'],
    ['follow_up', 'follow_up'],
    ['Follow-Up', 'follow_up'],
    ['followup', 'follow_up'],
  ];
  it.each(TYPES)('when it is %s, then the type is %s', (type, expected) => {
    const lead: LeadFields = {
      scheduled_at: '2027-01-15T19:30:00Z',
      ...(type === undefined ? {} : { schedule_type: type }),
    };
    const r = resolveSchedule(lead, AGENT);
    expect(r.appointment?.schedule_type).toBe(expected);
    expect(r.warnings).toEqual([]);
  });

  it('when it is unknown, then the default is used, the raw value kept and a warning raised', () => {
    const r = resolveSchedule({ scheduled_at: '2027-01-15T19:30:00Z', schedule_type: 'callback' }, AGENT);
    expect(r.appointment?.schedule_type).toBe('appointment');
    expect(r.rejected).toEqual({ schedule_type: 'callback' });
    expect(r.warnings.map((w) => w.code)).toEqual(['INVALID_SCHEDULE_TYPE']);
  });
});
