import { invalid, valid } from './result.ts';
import type { Normalized } from './result.ts';
import type { JsonValue } from '../../json.ts';

const EXPECTED_DOB = 'a past date as YYYY-MM-DD or MM/DD/YYYY, from 1900 on';

// ISO date, optionally as a midnight timestamp (how many systems serialize a date-only value).
const ISO = /^(\d{4})-(\d{2})-(\d{2})(?:T00:00(?::00(?:\.0+)?)?(?:Z|[+-]00:?00)?)?$/;
// US order with a 4-digit year; `/`, `-` or `.` between parts. Two-digit years are refused (century?).
const US = /^(\d{1,2})([/.-])(\d{1,2})\2(\d{4})$/;
const FIRST_YEAR = 1900;

export interface CalendarDate {
  year: number;
  month: number;
  day: number;
}

/** `YYYY-MM-DD`, `MM/DD/YYYY`, `M/D/YYYY` → `YYYY-MM-DD`: a real calendar date, not after today. */
export function normalizeDateOfBirth(value: JsonValue, now: Date): Normalized<string> {
  const date = typeof value === 'string' ? parseDate(value.trim()) : undefined;
  if (!date || date.year < FIRST_YEAR || compareDates(date, utcDate(now)) > 0) {
    return invalid('INVALID_DATE', EXPECTED_DOB);
  }
  return valid(formatDate(date));
}

/** Completed years between a date of birth and `now` (both as UTC calendar dates). */
export function ageOn(dateOfBirth: string, now: Date): number | undefined {
  const born = parseDate(dateOfBirth);
  if (!born) return undefined;
  const today = utcDate(now);
  const hadBirthday = today.month > born.month || (today.month === born.month && today.day >= born.day);
  return today.year - born.year - (hadBirthday ? 0 : 1);
}

function parseDate(text: string): CalendarDate | undefined {
  const iso = ISO.exec(text);
  const us = iso ? undefined : US.exec(text);
  const parts = iso ? [iso[1], iso[2], iso[3]] : us ? [us[4], us[1], us[3]] : undefined;
  if (!parts) return undefined;
  const [year, month, day] = parts.map(Number) as [number, number, number];
  if (month < 1 || month > 12 || day < 1 || day > daysInMonth(year, month)) return undefined;
  return { year, month, day };
}

function daysInMonth(year: number, month: number): number {
  if (month === 2) return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0 ? 29 : 28;
  return [4, 6, 9, 11].includes(month) ? 30 : 31;
}

function utcDate(now: Date): CalendarDate {
  return { year: now.getUTCFullYear(), month: now.getUTCMonth() + 1, day: now.getUTCDate() };
}

function compareDates(a: CalendarDate, b: CalendarDate): number {
  return a.year - b.year || a.month - b.month || a.day - b.day;
}

function formatDate({ year, month, day }: CalendarDate): string {
  return `${year}-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}`;
}
