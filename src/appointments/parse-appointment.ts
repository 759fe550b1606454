import { DateTime } from 'luxon';

/** A wall-clock reading with no zone attached yet. */
export interface WallTime {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
  second: number;
  millisecond: number;
}

export type CalendarDate = Pick<WallTime, 'year' | 'month' | 'day'>;
export type ClockTime = Pick<WallTime, 'hour' | 'minute' | 'second'>;

export type ParsedScheduledAt =
  { kind: 'instant'; utcMillis: number } | { kind: 'local'; wall: WallTime } | { kind: 'invalid' };

const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const US_DATE = /^(\d{1,2})\/(\d{1,2})\/(\d{4})$/;
const TWELVE_HOUR = /^(\d{1,2})(?::(\d{2}))?(?::(\d{2}))?\s*([ap])\.?\s?m\.?$/i;
const TWENTY_FOUR_HOUR = /^(\d{1,2}):(\d{2})(?::(\d{2}))?$/;
// An offset closes the time part: Z, ±hh, ±hhmm or ±hh:mm.
const TRAILING_OFFSET = /(?:z|[+-]\d{2}(?::?\d{2})?)$/i;

/** `YYYY-MM-DD`, `MM/DD/YYYY` or `M/D/YYYY`, and a day the calendar has (no 02/31). */
export function parseAppointmentDate(raw: string): CalendarDate | null {
  const iso = ISO_DATE.exec(raw);
  const us = iso === null ? US_DATE.exec(raw) : null;
  const parts = iso !== null ? [iso[1], iso[2], iso[3]] : us !== null ? [us[3], us[1], us[2]] : null;
  if (parts === null) return null; // luxon throws on NaN units rather than returning invalid
  const [year = 0, month = 0, day = 0] = parts.map(Number);
  const date = { year, month, day };
  return DateTime.fromObject(date, { zone: 'utc' }).isValid ? date : null;
}

/** `2:30 PM`, `2:30pm`, `2 PM`, `02:30 PM`, `2:30 p.m.`, or 24-hour `14:30` / `14:30:00`. */
export function parseAppointmentTime(raw: string): ClockTime | null {
  const twelve = TWELVE_HOUR.exec(raw);
  if (twelve !== null) {
    const hour = Number(twelve[1]);
    if (hour < 1 || hour > 12) return null;
    const pm = twelve[4]?.toLowerCase() === 'p';
    return clock((hour % 12) + (pm ? 12 : 0), twelve[2], twelve[3]);
  }
  const twentyFour = TWENTY_FOUR_HOUR.exec(raw);
  return twentyFour === null ? null : clock(Number(twentyFour[1]), twentyFour[2], twentyFour[3]);
}

function clock(hour: number, minutes: string | undefined, seconds: string | undefined): ClockTime | null {
  const minute = Number(minutes ?? 0);
  const second = Number(seconds ?? 0);
  return hour <= 23 && minute <= 59 && second <= 59 ? { hour, minute, second } : null;
}

/**
 * An ISO-8601 date-time. With an offset it is an instant; without one it is a wall-clock reading
 * whose zone the caller decides. A date alone is no appointment time and is invalid here.
 */
export function parseScheduledAt(raw: string): ParsedScheduledAt {
  const text = raw.replace(/^(\d{4}-\d{2}-\d{2}) (?=\d)/, '$1T'); // "2027-01-15 19:30Z" is common
  const timePart = text.split(/t/i)[1];
  if (timePart === undefined) return { kind: 'invalid' };
  if (TRAILING_OFFSET.test(timePart)) {
    const instant = DateTime.fromISO(text, { setZone: true });
    return instant.isValid ? { kind: 'instant', utcMillis: instant.toMillis() } : { kind: 'invalid' };
  }
  const local = DateTime.fromISO(text, { zone: 'utc' });
  if (!local.isValid) return { kind: 'invalid' };
  const { year, month, day, hour, minute, second, millisecond } = local;
  return { kind: 'local', wall: { year, month, day, hour, minute, second, millisecond } };
}
