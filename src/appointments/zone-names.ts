import type { DateTime } from 'luxon';
import { rememberedByDay, zoneOffset } from './zone-offsets.ts';

const formats = new Map<string, Intl.DateTimeFormat>();

/**
 * The time written with a pattern of luxon's tokens, then the zone's short name as a US reader
 * knows it ("Fri, Jan 15, 1:30 PM CST"): what luxon's `ZZZZ` token writes, but with one
 * Intl.DateTimeFormat per zone made once. luxon makes a new one on every `ZZZZ`, which costs time
 * and ICU memory outside the JavaScript heap that stays until a full garbage collection.
 */
export function formatWithZoneName(at: DateTime, pattern: string): string {
  if (!at.isValid) return at.toFormat(pattern);
  return `${at.toFormat(pattern)} ${shortZoneName(at.zoneName ?? 'UTC', at.toMillis())}`;
}

/**
 * "CST", "EDT", "UTC"; "GMT+5:30" where English has no abbreviation for the zone. Remembered by UTC
 * day (zone-offsets.ts): a name changes only when the zone changes its clock.
 */
export const shortZoneName = rememberedByDay((zone, millis): string => {
  let format = formats.get(zone);
  if (!format) {
    // The zones are the tz database's (a few hundred), so this memory is bounded.
    format = new Intl.DateTimeFormat('en-US', { timeZone: zone, timeZoneName: 'short' });
    formats.set(zone, format);
  }
  return format.formatToParts(millis).find((part) => part.type === 'timeZoneName')?.value ?? zone;
});

const WEEKDAYS = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/**
 * An instant as a prospect reads it in a text, in their zone: "Fri, Jan 15, 1:30 PM CST", what
 * `formatWithZoneName(DateTime.fromMillis(millis, { zone }), 'EEE, MMM d, h:mm a')` writes, from
 * the zone's offset and short name remembered by day instead of luxon's calls to Intl. Null for a
 * zone that is not one, or an instant that is none.
 */
export function formatAppointmentTime(millis: number, zone: string): string | null {
  const offset = zoneOffset(zone, millis);
  if (!Number.isFinite(offset)) return null;
  const local = new Date(millis + offset * 60_000);
  if (Number.isNaN(local.getTime())) return null;
  const hour = local.getUTCHours();
  const clock = `${hour % 12 || 12}:${String(local.getUTCMinutes()).padStart(2, '0')} ${hour < 12 ? 'AM' : 'PM'}`;
  const day = `${WEEKDAYS[local.getUTCDay()] ?? ''}, ${MONTHS[local.getUTCMonth()] ?? ''} ${local.getUTCDate()}`;
  return `${day}, ${clock} ${shortZoneName(zone, millis)}`;
}
