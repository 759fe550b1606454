import { DateTime } from 'luxon';
import { formatAppointmentTime, formatWithZoneName } from '../appointments/zone-names.ts';

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
  const time = ctx.appointment ? appointmentTime(ctx.appointment) : 'your appointment time';
  const values: Record<string, string> = {
    agent_name: ctx.agent_name,
    first_name: ctx.first_name?.trim() || 'there',
    appointment_time: time,
  };
  return chosen.replace(/\{(\w+)\}/g, (whole, name: string) => values[name] ?? whole);
}

/** The first `{placeholder}` of a text that is not one of `known`, or null. Pure. */
export function unknownPlaceholder(text: string, known: readonly string[]): string | null {
  for (const [, name] of text.matchAll(/\{(\w*)\}/g)) if (!known.includes(name ?? '')) return name ?? '';
  return null;
}

/** A stored appointment's time (UTC, `…Z`) says its instant: formatted without luxon; else luxon reads it. */
const UTC_INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,3})?)?Z$/;

function appointmentTime({ scheduled_at, zone }: { scheduled_at: string; zone: string }): string {
  const fast = UTC_INSTANT.test(scheduled_at) ? formatAppointmentTime(Date.parse(scheduled_at), zone) : null;
  return fast ?? formatWithZoneName(DateTime.fromISO(scheduled_at, { zone }), 'EEE, MMM d, h:mm a');
}

/** The one text that confirms an opt-out, in the language the prospect used. */
export function confirmationText(agentName: string, language: 'en' | 'es'): string {
  return language === 'es'
    ? `${agentName}: se ha dado de baja. No recibirá más mensajes ni llamadas de nuestra parte.`
    : `${agentName}: you are unsubscribed and will get no more texts or calls from us.`;
}
