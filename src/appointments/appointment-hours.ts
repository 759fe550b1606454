import { DateTime } from 'luxon';
import type { FieldIssues } from './lead-input.ts';
import { formatWithZoneName } from './zone-names.ts';

/**
 * The local hours an appointment is expected in, in the prospect's zone: 08:00 to 21:00, the
 * federal calling window. The automations keep the calling-hours table (with the states' own
 * rules); this folder may not import it, and an appointment needs only this one question.
 */
export const APPOINTMENT_HOURS = { opens: 8, closes: 21 } as const;

/**
 * Warnings for an appointment a sender probably did not mean, kept as sent (a lead is never
 * refused for its time): one before the delivery arrived (`receivedAt`, when known), and one at
 * night in the prospect's zone. Pure.
 */
export function warnUnusualAppointment(
  utcMillis: number,
  zone: string,
  field: string,
  receivedAt: number | undefined,
  issues: FieldIssues,
): void {
  const at = DateTime.fromMillis(utcMillis, { zone });
  if (!at.isValid) return;
  const shown = () => formatWithZoneName(at, 'yyyy-MM-dd h:mm a');
  if (receivedAt !== undefined && utcMillis < receivedAt) {
    issues.warn(
      field,
      'APPOINTMENT_IN_PAST',
      `The appointment (${shown()}, ${zone}) is before this delivery arrived; it was booked as sent. Check its date.`,
    );
  }
  if (at.hour < APPOINTMENT_HOURS.opens || at.hour >= APPOINTMENT_HOURS.closes) {
    issues.warn(
      field,
      'APPOINTMENT_OUTSIDE_HOURS',
      `The appointment is at ${at.toFormat('h:mm a')} in ${zone}, the prospect's zone, outside 8:00 AM to 9:00 PM; it was booked as sent. Check its time and zone.`,
    );
  }
}
