import { describe, expect, it } from 'vitest';
import { formatNotesTime } from './schedule.ts';

describe('formatNotesTime', () => {
  const CASES: [string, string, string][] = [
    ['2027-01-15T19:30:00.000Z', 'America/Chicago', '2027-01-15 19:30 UTC [America/Chicago]'],
    ['2027-01-15T19:30:00Z', 'America/Chicago', '2027-01-15 19:30 UTC [America/Chicago]'],
    ['2027-01-15T13:30:00-06:00', 'America/Chicago', '2027-01-15 19:30 UTC [America/Chicago]'],
    ['2027-07-01T23:45:59.999+00:00', 'Europe/Berlin', '2027-07-01 23:45 UTC [Europe/Berlin]'],
    ['2027-01-15T19:30:00Z', '', '2027-01-15 19:30 UTC'],
    ['not a time', 'America/Chicago', 'not a time [America/Chicago]'],
  ];
  it.each(CASES)('when the start is %s in %s, then the line reads %s', (start, zone, line) => {
    expect(formatNotesTime(start, zone)).toBe(line);
  });
});
