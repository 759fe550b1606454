import { describe, expect, it } from 'vitest';
import type { LeadFields } from '../ingest/types.ts';
import { resolveSchedule } from './schedule.ts';

const AGENT = 'America/New_York';
const CHICAGO = { appointment_timezone: 'America/Chicago' };

function book(lead: LeadFields): string | undefined {
  return resolveSchedule(lead, AGENT).appointment?.scheduled_at;
}

function codes(lead: LeadFields): string[] {
  return resolveSchedule(lead, AGENT).warnings.map((w) => w.code);
}

describe('appointment_time formats', () => {
  const TIMES: [string, string][] = [
    ['2:30 PM', '2027-01-15T20:30:00.000Z'],
    ['2:30pm', '2027-01-15T20:30:00.000Z'],
    ['2 PM', '2027-01-15T20:00:00.000Z'],
    ['02:30 PM', '2027-01-15T20:30:00.000Z'],
    ['2:30 p.m.', '2027-01-15T20:30:00.000Z'],
    ['2:30 P.M.', '2027-01-15T20:30:00.000Z'],
    ['9:05 am', '2027-01-15T15:05:00.000Z'],
    ['12:00 AM', '2027-01-15T06:00:00.000Z'],
    ['12 PM', '2027-01-15T18:00:00.000Z'],
    ['14:30', '2027-01-15T20:30:00.000Z'],
    ['14:30:00', '2027-01-15T20:30:00.000Z'],
    ['00:15', '2027-01-15T06:15:00.000Z'],
  ];
  it.each(TIMES)('when the time is "%s", then it is booked at %s', (time, utc) => {
    expect(book({ ...CHICAGO, appointment_date: '2027-01-15', appointment_time: time })).toBe(utc);
  });
});

describe('appointment_date formats', () => {
  const DATES: [string, string][] = [
    ['2027-01-15', '2027-01-15T20:30:00.000Z'],
    ['01/15/2027', '2027-01-15T20:30:00.000Z'],
    ['1/15/2027', '2027-01-15T20:30:00.000Z'],
    ['1/5/2027', '2027-01-05T20:30:00.000Z'],
    ['2028-02-29', '2028-02-29T20:30:00.000Z'],
  ];
  it.each(DATES)('when the date is "%s", then it is booked at %s', (date, utc) => {
    expect(book({ ...CHICAGO, appointment_date: date, appointment_time: '2:30 PM' })).toBe(utc);
  });
});

describe('scheduled_at', () => {
  const WITH_OFFSET: [string, string][] = [
    ['2027-01-15T19:30:00Z', '2027-01-15T19:30:00.000Z'],
    ['2027-01-15T19:30:00.250Z', '2027-01-15T19:30:00.250Z'],
    ['2027-01-15T21:30:00+02:00', '2027-01-15T19:30:00.000Z'],
    ['2027-01-15T14:30:00-0500', '2027-01-15T19:30:00.000Z'],
    ['2027-01-15T21:30+02', '2027-01-15T19:30:00.000Z'],
    ['2027-01-15 19:30:00Z', '2027-01-15T19:30:00.000Z'],
    ['20270115T193000Z', '2027-01-15T19:30:00.000Z'],
  ];
  it.each(WITH_OFFSET)('when it is "%s", then it is the instant %s, whatever the zone', (raw, utc) => {
    const r = resolveSchedule({ ...CHICAGO, scheduled_at: raw }, AGENT);
    expect(r.appointment).toEqual({
      scheduled_at: utc,
      appointment_timezone: 'America/Chicago',
      schedule_type: 'appointment',
    });
    expect(r.warnings).toEqual([]);
  });

  it('when it has no offset and a zone is given, then it is local in that zone, with a warning', () => {
    const r = resolveSchedule({ ...CHICAGO, scheduled_at: '2027-01-15T13:30:00' }, AGENT);
    expect(r.appointment?.scheduled_at).toBe('2027-01-15T19:30:00.000Z');
    expect(r.warnings).toEqual([
      expect.objectContaining({ field: 'scheduled_at', code: 'SCHEDULED_AT_NO_OFFSET' }),
    ]);
    expect(r.warnings[0]?.message).toContain('America/Chicago');
  });

  it('when it has no offset and no zone is given, then it is UTC, with a warning that says so', () => {
    const r = resolveSchedule({ zipcode: '32501', scheduled_at: '2027-01-15T19:30' }, AGENT);
    expect(r.appointment).toMatchObject({
      scheduled_at: '2027-01-15T19:30:00.000Z',
      appointment_timezone: 'America/Chicago',
    });
    expect(r.warnings[0]?.message).toMatch(/read as UTC/);
  });

  it('when it and the date/time pair disagree, then scheduled_at wins with a warning', () => {
    const lead = {
      ...CHICAGO,
      scheduled_at: '2027-01-15T19:30:00Z',
      appointment_date: '2027-01-15',
      appointment_time: '3 PM',
    };
    expect(book(lead)).toBe('2027-01-15T19:30:00.000Z');
    expect(codes(lead)).toEqual(['SCHEDULE_CONFLICT']);
  });

  it('when it and the date/time pair agree, then nothing is said', () => {
    expect(
      codes({
        ...CHICAGO,
        scheduled_at: '2027-01-15T19:30:00Z',
        appointment_date: '2027-01-15',
        appointment_time: '1:30 PM',
      }),
    ).toEqual([]);
  });

  it('when it is unusable but the pair is fine, then the pair books the appointment', () => {
    const r = resolveSchedule(
      { ...CHICAGO, scheduled_at: 'next week', appointment_date: '2027-01-15', appointment_time: '1:30 PM' },
      AGENT,
    );
    expect(r.appointment?.scheduled_at).toBe('2027-01-15T19:30:00.000Z');
    expect(r.rejected).toEqual({ scheduled_at: 'next week' });
  });
});

describe('daylight saving time', () => {
  const SEASONS: [string, string, string, string][] = [
    ['America/Chicago', '2027-01-15', '2027-01-15T20:30:00.000Z', 'CST, UTC-6'],
    ['America/Chicago', '2027-07-15', '2027-07-15T19:30:00.000Z', 'CDT, UTC-5'],
    ['America/New_York', '2027-01-15', '2027-01-15T19:30:00.000Z', 'EST, UTC-5'],
    ['America/New_York', '2027-07-15', '2027-07-15T18:30:00.000Z', 'EDT, UTC-4'],
    ['America/Phoenix', '2027-01-15', '2027-01-15T21:30:00.000Z', 'MST all year'],
    ['America/Phoenix', '2027-07-15', '2027-07-15T21:30:00.000Z', 'MST all year'],
  ];
  it.each(SEASONS)('when 2:30 PM on a day in %s is %s, then it is %s (%s)', (zone, date, utc) => {
    expect(book({ appointment_timezone: zone, appointment_date: date, appointment_time: '2:30 PM' })).toBe(
      utc,
    );
  });

  it('when the time falls in the spring-forward gap, then it moves forward by the gap, with a warning', () => {
    const lead = {
      appointment_timezone: 'America/New_York',
      appointment_date: '2027-03-14',
      appointment_time: '2:30 AM',
    };
    const r = resolveSchedule(lead, AGENT);
    expect(r.appointment?.scheduled_at).toBe('2027-03-14T07:30:00.000Z'); // 03:30 EDT
    expect(r.warnings).toEqual([
      expect.objectContaining({ field: 'appointment_time', code: 'DST_GAP_SHIFTED' }),
      expect.objectContaining({ code: 'APPOINTMENT_OUTSIDE_HOURS' }), // DST changes happen at night
    ]);
    expect(r.warnings[0]?.message).toContain('03:30 EDT');
  });

  it('when the time happens twice at fall back, then the earlier instant is taken, with a warning', () => {
    const lead = {
      appointment_timezone: 'America/Chicago',
      appointment_date: '2027-11-07',
      appointment_time: '1:30 AM',
    };
    const r = resolveSchedule(lead, AGENT);
    expect(r.appointment?.scheduled_at).toBe('2027-11-07T06:30:00.000Z'); // 01:30 CDT, not 07:30Z CST
    expect(r.warnings).toEqual([
      expect.objectContaining({ field: 'appointment_time', code: 'DST_AMBIGUOUS_EARLIER' }),
      expect.objectContaining({ code: 'APPOINTMENT_OUTSIDE_HOURS' }), // DST changes happen at night
    ]);
    expect(r.warnings[0]?.message).toContain('CDT');
  });

  it('when a scheduled_at without offset happens twice, then the same rule applies', () => {
    const lead = { ...CHICAGO, scheduled_at: '2027-11-07T01:30:00' };
    expect(book(lead)).toBe('2027-11-07T06:30:00.000Z');
    expect(codes(lead)).toEqual([
      'SCHEDULED_AT_NO_OFFSET',
      'DST_AMBIGUOUS_EARLIER',
      'APPOINTMENT_OUTSIDE_HOURS',
    ]);
  });

  it('when the hour just before and after a change is booked, then nothing is moved', () => {
    const at = (time: string): string | undefined =>
      book({
        appointment_timezone: 'America/New_York',
        appointment_date: '2027-03-14',
        appointment_time: time,
      });
    expect(at('1:59 AM')).toBe('2027-03-14T06:59:00.000Z');
    expect(at('3:00 AM')).toBe('2027-03-14T07:00:00.000Z');
    expect(
      codes({
        appointment_timezone: 'America/New_York',
        appointment_date: '2027-03-14',
        appointment_time: '3:00 AM',
      }),
    ).toEqual(['APPOINTMENT_OUTSIDE_HOURS']); // not moved: only the night is said
  });
});

describe('appointments a sender probably did not mean', () => {
  const RECEIVED = Date.parse('2026-12-02T15:00:00Z');
  const warned = (lead: LeadFields, receivedAt?: number) =>
    resolveSchedule(lead, AGENT, receivedAt).warnings.map((w) => [w.field, w.code]);

  it.each([
    [
      'a date before the delivery',
      { appointment_date: '2025-01-15', appointment_time: '1:30 PM' },
      [['appointment_date', 'APPOINTMENT_IN_PAST']],
    ],
    [
      'a scheduled_at a minute before it',
      { scheduled_at: '2026-12-02T14:59:00Z' },
      [['scheduled_at', 'APPOINTMENT_IN_PAST']],
    ],
    [
      '2 a.m. where the prospect is',
      { appointment_date: '2027-01-15', appointment_time: '2:00 AM' },
      [['appointment_date', 'APPOINTMENT_OUTSIDE_HOURS']],
    ],
    [
      '9 p.m. there (the window closes at 21:00)',
      { appointment_date: '2027-01-15', appointment_time: '9:00 PM' },
      [['appointment_date', 'APPOINTMENT_OUTSIDE_HOURS']],
    ],
    [
      'both at once',
      { scheduled_at: '2025-01-15T08:00:00Z' },
      [
        ['scheduled_at', 'APPOINTMENT_IN_PAST'],
        ['scheduled_at', 'APPOINTMENT_OUTSIDE_HOURS'],
      ],
    ],
    ['8 a.m. there, in the future', { appointment_date: '2027-01-15', appointment_time: '8:00 AM' }, []],
    ['8:59 p.m. there', { appointment_date: '2027-01-15', appointment_time: '8:59 PM' }, []],
  ] as const)(
    'When the appointment is %s, then it is booked, with these warnings',
    (_what, fields, expected) => {
      const lead = { ...CHICAGO, ...fields };
      expect(resolveSchedule(lead, AGENT, RECEIVED).appointment).not.toBeNull();
      expect(warned(lead, RECEIVED)).toEqual(expected);
    },
  );

  it('When the night is judged, then it is by the prospect’s zone, not UTC nor the agent’s', () => {
    // 03:00Z is 10 p.m. in New York (the agent's) but 7 p.m. in Los Angeles (the prospect's).
    expect(
      warned({ appointment_timezone: 'America/Los_Angeles', scheduled_at: '2027-01-15T03:00:00Z' }),
    ).toEqual([]);
    expect(
      warned({ appointment_timezone: 'America/New_York', scheduled_at: '2027-01-15T03:00:00Z' }),
    ).toEqual([['scheduled_at', 'APPOINTMENT_OUTSIDE_HOURS']]);
  });

  it('When no arrival time is given (a scheduler’s event), then no appointment is called past', () => {
    expect(warned({ ...CHICAGO, appointment_date: '2020-01-15', appointment_time: '1:30 PM' })).toEqual([]);
  });

  it('When the warning is read, then it says the local time and zone it judged', () => {
    const [night] = resolveSchedule(
      { ...CHICAGO, appointment_date: '2027-01-15', appointment_time: '2:00 AM' },
      AGENT,
    ).warnings;
    expect(night?.message).toContain('2:00 AM in America/Chicago');
  });
});
