import { resolveSchedule, type ResolvedAppointment } from '../appointments/schedule.ts';
import { mapSubmission } from '../ingest/map-submission.ts';
import type { MappingRules } from '../ingest/mapping-rules.ts';
import { defineOwn, type JsonObject } from '../json.ts';
import type { FieldWarning, LeadFields, MappedSubmission } from '../ingest/types.ts';
import { statusOfNewLead, type LeadStatus } from '../leads/lead-status.ts';

/** A delivery as it would land: the same for a live delivery and a Listen-mode preview. */
export interface PreparedLead {
  fields: LeadFields;
  custom_fields: JsonObject;
  status: LeadStatus;
  appointment: ResolvedAppointment | null;
  /** The contact's time zone as told or inferred (null when nothing tells it). */
  timezone: string | null;
  /** Which step of the inference order told the zone (appointment_timezone, zipcode, state, area_code …). */
  timezoneSource: string | null;
  warnings: FieldWarning[];
  control: MappedSubmission['control'];
  hasName: boolean;
  /** How the body was read: `flat`, `field_list`, or the named adapter (`meta_lead_ads`, `typeform` …). */
  format: string;
}

/**
 * The map step: a raw body → the lead to store (mapped fields, appointment, status, warnings).
 * Pure; the agent's time zone is the last inference fallback; the source's mapping rules apply
 * before the alias table; `receivedAt` (epoch ms), when given, is when the delivery arrived: an
 * appointment before it is kept with a warning.
 */
export function prepareLead(
  body: JsonObject,
  agentTimezone: string,
  rules?: MappingRules,
  receivedAt?: number,
): PreparedLead {
  const mapped = mapSubmission(body, { rules });
  const custom = mapped.custom_fields;
  const warnings = [...mapped.warnings];

  const schedule = resolveSchedule(mapped.lead, agentTimezone, receivedAt);
  warnings.push(...schedule.warnings);
  // Appointment fields that could not be used leave the lead and are kept raw in custom_fields.
  const fields: LeadFields = Object.fromEntries(
    Object.entries(mapped.lead).filter(([field]) => !Object.hasOwn(schedule.rejected, field)),
  );
  for (const [field, raw] of Object.entries(schedule.rejected)) {
    const key = mapped.origins[field] ?? field;
    if (!Object.hasOwn(custom, key)) defineOwn(custom, key, raw);
  }
  const status = statusOfNewLead(schedule.appointment !== null);

  // The gateway decides the status; a sender's own status is kept, not obeyed.
  const sentStatus = fields.status;
  delete fields.status;
  if (sentStatus !== undefined && sentStatus !== status && !Object.hasOwn(custom, 'status')) {
    defineOwn(custom, 'status', sentStatus);
    warnings.push({
      field: 'status',
      code: 'STATUS_IGNORED',
      message: `The gateway sets the status (${status}); the sent value is kept in custom_fields`,
    });
  }

  if (schedule.appointment) {
    fields.scheduled_at = schedule.appointment.scheduled_at;
    fields.appointment_timezone = schedule.appointment.appointment_timezone;
    fields.schedule_type = schedule.appointment.schedule_type;
  }
  const name = typeof fields.name === 'string' ? fields.name.trim() : '';
  return {
    fields,
    custom_fields: custom,
    status,
    appointment: schedule.appointment,
    timezone: schedule.timezone,
    timezoneSource: schedule.timezone_source ?? null,
    warnings,
    control: mapped.control,
    hasName: name !== '',
    format: mapped.format,
  };
}
