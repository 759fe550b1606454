import { isJsonObject } from '../json.ts';
import { DateTime } from 'luxon';
import type { AdminAnswer } from './api-client.ts';
import { keyValues, show, table } from './output.ts';

/** Readable views of the admin API's lead and sample objects. */

type Lead = AdminAnswer<'GET', '/leads/{lead_id}'>;
type Sample = AdminAnswer<'GET', '/sources/{source_id}/samples'>['samples'][number];
type Remap = AdminAnswer<'POST', '/sources/{source_id}/samples/{sample_id}/remap'>;

const LEAD_TAIL: readonly string[] = ['custom_fields', 'appointments', 'history'] satisfies (keyof Lead)[];

export function renderLead(lead: Lead): string {
  const row: Record<string, unknown> = lead;
  const keys = Object.keys(row).filter((k) => !LEAD_TAIL.includes(k) && row[k] !== null && row[k] !== '');
  const lines = [keyValues(lead, keys)];
  const custom = lead.custom_fields;
  if (isJsonObject(custom) && Object.keys(custom).length > 0) {
    lines.push('', 'Custom fields:', keyValues(custom));
  }
  const { appointments, history } = lead;
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
  lines.push('', history.length === 0 ? 'History: none' : 'History:');
  for (const h of history) {
    const changes = isJsonObject(h.changes) && Object.keys(h.changes).length > 0;
    lines.push(`  ${show(h.created_at)}  ${show(h.event)}${changes ? `  ${show(h.changes)}` : ''}`);
  }
  return lines.join('\n');
}

/** A sample: a Listen-mode delivery, or a live one the gateway refused. */
export function renderSample(s: Sample): string {
  const outcome =
    s.listen === false
      ? `refused: ${show(s.error_code)}`
      : `listen: ${s.error_code ? `would be refused: ${show(s.error_code)}` : 'ok'}`;
  const received =
    s.body === null
      ? `  raw_body:      ${JSON.stringify(s.raw_body ?? '')}`
      : `  body:          ${show(s.body)}`;
  return [
    `${show(s.received_at)}  ${show(s.sample_id)}  ${outcome}, ${warningCount(s)}`,
    received,
    ...mappingLines(s),
  ].join('\n');
}

/** A stored sample mapped again with the source's current rules. */
export function renderRemap(s: Remap): string {
  const outcome = s.error_code ? `would be refused: ${show(s.error_code)}` : 'ok';
  return [
    `Sample ${show(s.sample_id)} with the current rules (nothing stored): ${outcome}, ${warningCount(s)}`,
    ...mappingLines(s),
    `  would_fire:    ${show(s.would_fire)}`,
  ].join('\n');
}

const warningCount = (s: Sample | Remap) => `${s.warnings.length} warning(s)`;

/** What the mapping made of a body: its format, the lead, custom_fields, and each warning. */
function mappingLines(s: Sample | Remap): string[] {
  const lines = [
    `  format:        ${show(s.body_format)}`,
    `  mapped:        ${show(s.mapped)}`,
    `  custom_fields: ${show(s.custom_fields)}`,
  ];
  for (const w of s.warnings)
    lines.push(`  warning:       ${show(w.field)}: ${show(w.code)} — ${show(w.message)}`);
  return lines;
}

/** `2027-01-15 13:30 CST (America/Chicago)`: the time as the contact will see it. */
export function localTime(instant: unknown, zone: unknown): string {
  if (typeof instant !== 'string') return show(instant);
  const at = DateTime.fromISO(instant, { zone: typeof zone === 'string' ? zone : 'utc' });
  return at.isValid ? `${at.toFormat('yyyy-MM-dd HH:mm ZZZZ')} (${at.zoneName ?? 'UTC'})` : instant;
}
