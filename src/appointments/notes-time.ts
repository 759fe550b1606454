import { DateTime } from 'luxon';

/**
 * The booking-notes time line: the UTC start as `YYYY-MM-DD HH:MM UTC`, then the invitee's zone in
 * brackets (`2027-01-15 19:30 UTC [America/Chicago]`). Pure and total: a start that is no ISO
 * date-time is written as sent, so the notes never lose it.
 */
export function formatNotesTime(utcIso: string, zone: string): string {
  const start = DateTime.fromISO(utcIso.trim(), { setZone: true });
  const when = start.isValid ? `${start.toUTC().toFormat('yyyy-MM-dd HH:mm')} UTC` : utcIso.trim();
  const name = zone.trim();
  return name === '' ? when : `${when} [${name}]`;
}
