import type { FieldWarning, LeadFields } from '../ingest/types.ts';
import { resolveAppointmentTime } from './appointment-time.ts';
import { FieldIssues, leadText } from './lead-input.ts';
import type { TimezoneSource } from './timezone-inference.ts';
import { inferTimezone } from './timezone-inference.ts';

export { formatNotesTime } from './notes-time.ts';
export type { TimezoneSource } from './timezone-inference.ts';

export type ScheduleType = 'appointment' | 'follow_up';

export interface ResolvedAppointment {
  /** UTC ISO-8601 instant, e.g. 2027-01-15T19:30:00.000Z */
  scheduled_at: string;
  appointment_timezone: string;
  schedule_type: ScheduleType;
}

export interface ScheduleResolution {
  appointment: ResolvedAppointment | null;
  /** The contact's time zone, when one could be told (also without an appointment). */
  timezone: string | null;
  /** Which step of the inference order gave `timezone` (docs/time-zones.md). */
  timezone_source?: TimezoneSource;
  warnings: FieldWarning[];
  /** Appointment fields that could not be used, to be kept raw in custom_fields. */
  rejected: Record<string, string>;
}

const SCHEDULE_TYPES: Record<string, ScheduleType> = {
  appointment: 'appointment',
  follow_up: 'follow_up',
  followup: 'follow_up',
};

/**
 * Decides the appointment of a mapped lead: when, in which zone, of which type. Pure: no I/O, and
 * it never throws on what a sender wrote; unusable values come back in `rejected` with warnings.
 * `receivedAt` (epoch ms) is when the delivery arrived: an appointment before it is warned of.
 */
export function resolveSchedule(
  lead: LeadFields,
  agentTimezone: string,
  receivedAt?: number,
): ScheduleResolution {
  const issues = new FieldIssues();
  const tz = inferTimezone(lead, agentTimezone, issues);
  const scheduleType = resolveScheduleType(lead, issues);
  const scheduledAt = resolveAppointmentTime(lead, tz, issues, receivedAt);
  return {
    appointment:
      scheduledAt === null
        ? null
        : { scheduled_at: scheduledAt, appointment_timezone: tz.zone, schedule_type: scheduleType },
    timezone: tz.zone,
    timezone_source: tz.source,
    warnings: issues.warnings,
    rejected: issues.rejected,
  };
}

/** The mapper normalizes the value; spellings like "Follow-Up" are accepted as well. */
function resolveScheduleType(lead: LeadFields, issues: FieldIssues): ScheduleType {
  const raw = leadText(lead, 'schedule_type');
  if (raw === undefined) return 'appointment';
  const key = raw.toLowerCase().replace(/[\s-]+/g, '_');
  const type = Object.hasOwn(SCHEDULE_TYPES, key) ? SCHEDULE_TYPES[key] : undefined;
  if (type !== undefined) return type;
  issues.reject(
    'schedule_type',
    raw,
    'INVALID_SCHEDULE_TYPE',
    `schedule_type "${raw}" is not one of appointment, follow_up; appointment was used.`,
  );
  return 'appointment';
}
