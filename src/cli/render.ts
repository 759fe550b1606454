import { isJsonObject } from '../json.ts';
import { DateTime } from 'luxon';
import { keyValues, show, table, type Row } from './output.ts';

/** Readable views of the admin API's lead and sample objects. */

const LEAD_TAIL = ['custom_fields', 'appointments', 'history'];

export function renderLead(lead: Row): string {
  const keys = Object.keys(lead).filter((k) => !LEAD_TAIL.includes(k) && lead[k] !== null && lead[k] !== '');
  const lines = [keyValues(lead, keys)];
  const custom = lead.custom_fields;
  if (isJsonObject(custom) && Object.keys(custom).length > 0) {
    lines.push('', 'Custom fields:', keyValues(custom));
  }
  const appointments = Array.isArray(lead.appointments) ? (lead.appointments as Row[]) : [];
  lines.push('', appointments.length === 0 ? 'Appointments: none' : 'Appointments:');
  if (appointments.length > 0) {
    lines.push(
      table(
        ['WHEN', 'STATUS', 'TYPE', 'APPOINTMENT_ID', 'JOIN_URL'],
        appointments.map((a) => [
          localTime(a.scheduled_at, a.appointment_timezone),
          show(a.status),
          show(a.schedule_type),
          show(a.appointment_id),
          show(a.join_url),
        ]),
      ),
    );
  }
  const history = Array.isArray(lead.history) ? (lead.history as Row[]) : [];
  lines.push('', history.length === 0 ? 'History: none' : 'History:');
  for (const h of history) {
    const changes = isJsonObject(h.changes) && Object.keys(h.changes).length > 0;
    lines.push(`  ${show(h.created_at)}  ${show(h.event)}${changes ? `  ${show(h.changes)}` : ''}`);
  }
  return lines.join('\n');
}

export function renderSample(s: Row): string {
  const warnings = Array.isArray(s.warnings) ? (s.warnings as Row[]) : [];
  const outcome = s.error_code ? `rejected: ${show(s.error_code)}` : 'ok';
  const lines = [
    `${show(s.received_at)}  ${show(s.sample_id)}  ${outcome}, ${warnings.length} warning(s)`,
    `  body:          ${show(s.body)}`,
    `  mapped:        ${show(s.mapped)}`,
    `  custom_fields: ${show(s.custom_fields)}`,
  ];
  for (const w of warnings)
    lines.push(`  warning:       ${show(w.field)}: ${show(w.code)} — ${show(w.message)}`);
  return lines.join('\n');
}

/** `2027-01-15 13:30 CST (America/Chicago)`: the time as the contact will see it. */
export function localTime(instant: unknown, zone: unknown): string {
  if (typeof instant !== 'string') return show(instant);
  const at = DateTime.fromISO(instant, { zone: typeof zone === 'string' ? zone : 'utc' });
  return at.isValid ? `${at.toFormat('yyyy-MM-dd HH:mm ZZZZ')} (${at.zoneName ?? 'UTC'})` : instant;
}
