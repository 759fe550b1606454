import { DateTime } from 'luxon';
import type { FieldWarning, LeadFields } from '../ingest/types.ts';

export interface ResolvedAppointment {
  /** UTC ISO-8601 instant, e.g. 2027-01-15T19:30:00.000Z */
  scheduled_at: string;
  appointment_timezone: string;
  schedule_type: 'appointment' | 'follow_up';
}

export interface ScheduleResolution {
  appointment: ResolvedAppointment | null;
  /** The contact's time zone, when one could be told (also without an appointment). */
  timezone: string | null;
  warnings: FieldWarning[];
  /** Appointment fields that could not be used, to be kept raw in custom_fields. */
  rejected: Record<string, string>;
}

/**
 * Decides the appointment of a mapped lead: when, in which zone, of which type. Pure.
 * (Issue 3 extends this with split date/time, time-zone inference and DST rules.)
 */
export function resolveSchedule(lead: LeadFields, agentTimezone: string): ScheduleResolution {
  const warnings: FieldWarning[] = [];
  const rejected: Record<string, string> = {};
  const zone =
    typeof lead.appointment_timezone === 'string' && DateTime.local().setZone(lead.appointment_timezone).isValid
      ? lead.appointment_timezone
      : agentTimezone;
  const scheduleType = lead.schedule_type === 'follow_up' ? 'follow_up' : 'appointment';
  if (typeof lead.scheduled_at !== 'string') return { appointment: null, timezone: zone, warnings, rejected };
  const at = DateTime.fromISO(lead.scheduled_at, { setZone: true, zone: 'utc' });
  if (!at.isValid) {
    rejected.scheduled_at = lead.scheduled_at;
    warnings.push({ field: 'scheduled_at', code: 'INVALID_DATETIME', message: 'scheduled_at is not an ISO-8601 date-time' });
    return { appointment: null, timezone: zone, warnings, rejected };
  }
  return {
    appointment: { scheduled_at: at.toUTC().toISO() ?? '', appointment_timezone: zone, schedule_type: scheduleType },
    timezone: zone,
    warnings,
    rejected,
  };
}
