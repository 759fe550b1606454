import { DateTime } from 'luxon';
import type { LeadFields } from '../ingest/types.ts';
import { warnUnusualAppointment } from './appointment-hours.ts';
import { FieldIssues, leadText } from './lead-input.ts';
import { resolveLocalTime } from './local-time.ts';
import type { WallTime } from './parse-appointment.ts';
import { parseAppointmentDate, parseAppointmentTime, parseScheduledAt } from './parse-appointment.ts';
import type { InferredTimezone } from './timezone-inference.ts';
import { formatWithZoneName } from './zone-names.ts';

/**
 * When the appointment is, as a UTC ISO string, or null when the lead books none. `scheduled_at`
 * wins; `appointment_date` + `appointment_time` (local in the contact's zone) are used when it is
 * absent or unusable. Every value that cannot be used is rejected with a warning, never thrown on.
 * An appointment before `receivedAt` (the delivery's arrival), or at night in the prospect's zone,
 * is kept with a warning.
 */
export function resolveAppointmentTime(
  lead: LeadFields,
  tz: InferredTimezone,
  issues: FieldIssues,
  receivedAt?: number,
): string | null {
  const raw = leadText(lead, 'scheduled_at');
  const fromScheduledAt = raw === undefined ? null : readScheduledAt(raw, tz.explicit, issues);
  const pair = readDateAndTime(lead, issues);
  if (fromScheduledAt !== null) {
    if (pair !== null) warnOnConflict(fromScheduledAt, pair, tz.zone, issues);
    warnUnusualAppointment(fromScheduledAt, tz.zone, 'scheduled_at', receivedAt, issues);
    return toIso(fromScheduledAt);
  }
  if (pair === null) return null;
  const placed = placeWallTime(pair.wall, tz.zone, 'appointment_time', issues);
  if (placed === null) rejectPair(pair, issues, 'INVALID_TIME', `cannot be placed in ${tz.zone}`);
  else if (!isStorable(placed)) rejectPair(pair, issues, 'DATETIME_OUT_OF_RANGE', OUT_OF_RANGE);
  if (placed === null || !isStorable(placed)) return null;
  warnUnusualAppointment(placed, tz.zone, 'appointment_date', receivedAt, issues);
  return toIso(placed);
}

/**
 * The instants an appointment may be booked at: what the database stores and gives back as an
 * ISO-8601 date-time with a four-digit year (0001-01-01 to 9999-12-31, UTC). Outside it the value
 * is kept raw with a warning, like any other value that cannot be used.
 */
const FIRST_STORABLE = Date.parse('0001-01-01T00:00:00.000Z');
const LAST_STORABLE = Date.parse('9999-12-31T23:59:59.999Z');
const OUT_OF_RANGE = 'is outside the years 0001 to 9999 (UTC) an appointment can be stored in';

function isStorable(utcMillis: number): boolean {
  return utcMillis >= FIRST_STORABLE && utcMillis <= LAST_STORABLE;
}

function readScheduledAt(raw: string, explicitZone: string | null, issues: FieldIssues): number | null {
  const parsed = parseScheduledAt(raw);
  const outOfRange = () => {
    issues.reject('scheduled_at', raw, 'DATETIME_OUT_OF_RANGE', `scheduled_at "${raw}" ${OUT_OF_RANGE}.`);
    return null;
  };
  if (parsed.kind === 'instant') return isStorable(parsed.utcMillis) ? parsed.utcMillis : outOfRange();
  if (parsed.kind === 'local') {
    // Without an offset only the sender's own zone is trusted, else UTC (docs/decisions/0017-time-zones-and-local-times.md).
    const reading =
      explicitZone === null
        ? 'no appointment_timezone was given, so it was read as UTC'
        : `read as local time in ${explicitZone} (appointment_timezone)`;
    issues.warn(
      'scheduled_at',
      'SCHEDULED_AT_NO_OFFSET',
      `scheduled_at "${raw}" has no UTC offset; ${reading}.`,
    );
    const placed = placeWallTime(parsed.wall, explicitZone ?? 'UTC', 'scheduled_at', issues);
    if (placed !== null) return isStorable(placed) ? placed : outOfRange();
  }
  issues.reject(
    'scheduled_at',
    raw,
    'INVALID_DATETIME',
    `scheduled_at "${raw}" is not an ISO-8601 date-time such as 2027-01-15T19:30:00Z.`,
  );
  return null;
}

interface DateAndTime {
  wall: WallTime;
  date: string;
  time: string;
}

function readDateAndTime(lead: LeadFields, issues: FieldIssues): DateAndTime | null {
  const date = leadText(lead, 'appointment_date');
  const time = leadText(lead, 'appointment_time');
  if (date === undefined && time === undefined) return null;
  if (date === undefined || time === undefined) {
    const [present, missing, value] =
      date === undefined
        ? ['appointment_time', 'appointment_date', time]
        : ['appointment_date', 'appointment_time', date];
    issues.reject(
      present,
      value ?? '',
      'APPOINTMENT_INCOMPLETE',
      `${present} without ${missing}: no appointment booked.`,
    );
    return null;
  }
  const day = parseAppointmentDate(date);
  const clock = parseAppointmentTime(time);
  if (day !== null && clock !== null) return { wall: { ...day, ...clock, millisecond: 0 }, date, time };
  if (day === null) {
    const message = `appointment_date "${date}" is not a date such as 2027-01-15, 01/15/2027 or 1/15/2027; no appointment booked.`;
    issues.reject('appointment_date', date, 'INVALID_DATE', message);
  } else issues.keepRaw('appointment_date', date);
  if (clock === null) {
    const message = `appointment_time "${time}" is not a time such as 2:30 PM or 14:30; no appointment booked.`;
    issues.reject('appointment_time', time, 'INVALID_TIME', message);
  } else issues.keepRaw('appointment_time', time);
  return null;
}

function rejectPair(pair: DateAndTime, issues: FieldIssues, code: string, why: string): void {
  issues.keepRaw('appointment_date', pair.date);
  issues.reject('appointment_time', pair.time, code, `${pair.date} ${pair.time} ${why}.`);
}

/** Places a wall-clock time in a zone, saying so when DST moved or chose it. */
function placeWallTime(wall: WallTime, zone: string, field: string, issues: FieldIssues): number | null {
  const placed = resolveLocalTime(wall, zone);
  if (placed === null || !Number.isFinite(new Date(placed.utcMillis).getTime())) return null;
  // Written only for the warnings: most times are neither in a gap nor twice.
  const asked = () => DateTime.fromObject(wall, { zone: 'utc' }).toFormat('yyyy-MM-dd HH:mm');
  const booked = () => {
    const at = DateTime.fromMillis(placed.utcMillis, { zone });
    return `${formatWithZoneName(at, 'yyyy-MM-dd HH:mm')} (UTC${at.toFormat('ZZ')})`;
  };
  if (placed.kind === 'gap-shifted') {
    const message = `${asked()} does not exist in ${zone} (clocks spring forward ${placed.gapMinutes} minutes); booked at ${booked()}.`;
    issues.warn(field, 'DST_GAP_SHIFTED', message);
  } else if (placed.kind === 'ambiguous-earlier') {
    const message = `${asked()} happens twice in ${zone} (clocks fall back); booked at the earlier one, ${booked()}.`;
    issues.warn(field, 'DST_AMBIGUOUS_EARLIER', message);
  }
  return placed.utcMillis;
}

function warnOnConflict(scheduledAt: number, pair: DateAndTime, zone: string, issues: FieldIssues): void {
  const fromPair = placeWallTime(pair.wall, zone, 'appointment_time', new FieldIssues());
  if (fromPair === null || fromPair === scheduledAt) return;
  const message = `appointment_date/appointment_time (${pair.date} ${pair.time}, ${zone}) differ from scheduled_at (${toIso(scheduledAt)}); scheduled_at was used.`;
  issues.warn('appointment_date', 'SCHEDULE_CONFLICT', message);
}

function toIso(utcMillis: number): string {
  return new Date(utcMillis).toISOString();
}
