import { DateTime } from 'luxon';
import { formatWithZoneName } from '../appointments/zone-names.ts';

/** The first text, unless the agent set their own (`PATCH /v1/admin/agents/:id {sms_template}`). */
export const DEFAULT_SMS_TEMPLATE =
  'Hi {first_name}, this is {agent_name}. Thanks for your request — I will call you shortly.';
export const DEFAULT_SMS_TEMPLATE_WITH_APPOINTMENT =
  'Hi {first_name}, this is {agent_name}. Your appointment is set for {appointment_time}. Reply STOP to opt out.';

export interface TextContext {
  agent_name: string;
  first_name: string | null;
  /** The appointment instant and the prospect's zone, when the lead has one. */
  appointment: { scheduled_at: string; zone: string } | null;
}

/**
 * Fills {agent_name}, {first_name} and {appointment_time} (in the prospect's zone, e.g.
 * "Fri, Jan 15, 1:30 PM CST"). Unknown placeholders are left as written. Pure.
 */
export function renderText(template: string | null, ctx: TextContext): string {
  const chosen = template ?? (ctx.appointment ? DEFAULT_SMS_TEMPLATE_WITH_APPOINTMENT : DEFAULT_SMS_TEMPLATE);
  const time = ctx.appointment
    ? formatWithZoneName(
        DateTime.fromISO(ctx.appointment.scheduled_at, { zone: ctx.appointment.zone }),
        'EEE, MMM d, h:mm a',
      )
    : 'your appointment time';
  const values: Record<string, string> = {
    agent_name: ctx.agent_name,
    first_name: ctx.first_name?.trim() || 'there',
    appointment_time: time,
  };
  return chosen.replace(/\{(\w+)\}/g, (whole, name: string) => values[name] ?? whole);
}
