import type { DateTime } from 'luxon';

const formats = new Map<string, Intl.DateTimeFormat>();

/**
 * The time written with a pattern of luxon's tokens, then the zone's short name as a US reader
 * knows it ("Fri, Jan 15, 1:30 PM CST"): what luxon's `ZZZZ` token writes, but with one
 * Intl.DateTimeFormat per zone made once. luxon makes a new one on every `ZZZZ`, which costs tens
 * of microseconds and ICU memory outside the JavaScript heap that stays until a full garbage
 * collection: at a few hundred appointments a second it held 100 MB and more.
 */
export function formatWithZoneName(at: DateTime, pattern: string): string {
  if (!at.isValid) return at.toFormat(pattern);
  return `${at.toFormat(pattern)} ${shortZoneName(at.zoneName ?? 'UTC', at.toMillis())}`;
}

/** "CST", "EDT", "UTC"; "GMT+5:30" where English has no abbreviation for the zone. */
export function shortZoneName(zone: string, millis: number): string {
  let format = formats.get(zone);
  if (!format) {
    // The zones are the tz database's (a few hundred), so this memory is bounded.
    format = new Intl.DateTimeFormat('en-US', { timeZone: zone, timeZoneName: 'short' });
    formats.set(zone, format);
  }
  return format.formatToParts(millis).find((part) => part.type === 'timeZoneName')?.value ?? zone;
}
