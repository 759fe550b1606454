import { describe, expect, it } from 'vitest';
import { resolveLocalTime } from './local-time.ts';
import type { WallTime } from './parse-appointment.ts';

function wall(iso: string): WallTime {
  const [date = '', time = ''] = iso.split('T');
  const [year = 0, month = 0, day = 0] = date.split('-').map(Number);
  const [hour = 0, minute = 0] = time.split(':').map(Number);
  return { year, month, day, hour, minute, second: 0, millisecond: 0 };
}

const utc = (millis: number): string => new Date(millis).toISOString();

describe('resolveLocalTime', () => {
  // [zone, wall time, kind, UTC instant, gap minutes]
  const CASES: [string, string, string, string, number | null][] = [
    ['America/New_York', '2027-03-14T02:30', 'gap-shifted', '2027-03-14T07:30:00.000Z', 60],
    ['America/New_York', '2027-03-14T02:00', 'gap-shifted', '2027-03-14T07:00:00.000Z', 60],
    ['America/New_York', '2027-11-07T01:30', 'ambiguous-earlier', '2027-11-07T05:30:00.000Z', null],
    ['America/Chicago', '2027-11-07T01:00', 'ambiguous-earlier', '2027-11-07T06:00:00.000Z', null],
    ['America/Chicago', '2027-11-07T02:00', 'exact', '2027-11-07T08:00:00.000Z', null],
    ['America/Phoenix', '2027-03-14T02:30', 'exact', '2027-03-14T09:30:00.000Z', null],
    // Southern hemisphere and a 30-minute DST: the rule is the zone's, not a US calendar.
    ['Australia/Sydney', '2027-10-03T02:30', 'gap-shifted', '2027-10-02T16:30:00.000Z', 60],
    ['Australia/Sydney', '2027-04-04T02:30', 'ambiguous-earlier', '2027-04-03T15:30:00.000Z', null],
    ['Australia/Lord_Howe', '2027-10-03T02:15', 'gap-shifted', '2027-10-02T15:45:00.000Z', 30],
    ['UTC', '2027-03-14T02:30', 'exact', '2027-03-14T02:30:00.000Z', null],
  ];
  it.each(CASES)('when %s reads %s, then it is %s at %s', (zone, at, kind, instant, gap) => {
    const r = resolveLocalTime(wall(at), zone);
    expect(r?.kind).toBe(kind);
    expect(r === null ? null : utc(r.utcMillis)).toBe(instant);
    if (r?.kind === 'gap-shifted') expect(r.gapMinutes).toBe(gap);
  });

  it('when the time is ambiguous, then the later instant is an hour after the earlier', () => {
    const r = resolveLocalTime(wall('2027-11-07T01:30'), 'America/Chicago');
    expect(r?.kind === 'ambiguous-earlier' ? r.laterUtcMillis - r.utcMillis : 0).toBe(3_600_000);
  });

  it('when the zone or the wall time is unusable, then there is no answer rather than a throw', () => {
    expect(resolveLocalTime(wall('2027-01-15T10:00'), 'Not/AZone')).toBeNull();
    expect(resolveLocalTime(wall('2027-02-30T10:00'), 'America/Chicago')).toBeNull();
  });
});
