import { DateTime } from 'luxon';
import { LIMITS } from '../limits.ts';
import { appError } from '../errors.ts';
import { decodeLeadCursor, type LeadListQuery } from '../leads/lead-queries.ts';
import { LEAD_STATUSES } from '../leads/lead-status.ts';

/**
 * What the query strings of lists mean, once their schema has checked their shape: shared by the
 * admin API and the console's pages.
 */

/** `status` (any case), `q`, `limit` (capped), `cursor` (one this API issued). */
export function parseLeadListQuery(query: {
  status?: string;
  q?: string;
  limit?: string;
  cursor?: string;
}): LeadListQuery {
  const result: LeadListQuery = {};
  const status = query.status?.trim();
  if (status) {
    const known = LEAD_STATUSES.find((s) => s.toLowerCase() === status.toLowerCase());
    if (!known) throw appError('VALIDATION_ERROR', `status must be one of ${LEAD_STATUSES.join(', ')}`);
    result.status = known;
  }
  const q = query.q?.trim();
  if (q) result.q = q;
  if (query.limit) {
    const n = Number(query.limit);
    if (!Number.isSafeInteger(n) || n < 1) {
      throw appError('VALIDATION_ERROR', `limit must be an integer from 1 to ${LIMITS.leadsPageMax}`);
    }
    result.limit = Math.min(n, LIMITS.leadsPageMax);
  }
  if (query.cursor) {
    const decoded = decodeLeadCursor(query.cursor);
    if (!decoded) throw appError('VALIDATION_ERROR', 'cursor is not a next_cursor this API returned');
    result.cursor = decoded;
  }
  return result;
}

/**
 * `from` / `to` are ISO-8601 instants; one written without an offset is read in the agent's zone.
 * `from` defaults to the start of today there, `to` to 30 days after `from`. `to` is exclusive.
 */
export function parseAgendaRange(
  query: { from?: string; to?: string },
  agentZone: string,
  now: DateTime,
): { from: string; to: string } {
  const from = query.from
    ? parseInstant(query.from, 'from', agentZone)
    : now.setZone(agentZone).startOf('day');
  const to = query.to
    ? parseInstant(query.to, 'to', agentZone)
    : from.plus({ days: LIMITS.agendaDefaultDays });
  if (to <= from) throw appError('VALIDATION_ERROR', 'to must be later than from');
  if (to.diff(from, 'days').days > LIMITS.agendaMaxDays) {
    throw appError('VALIDATION_ERROR', `The agenda covers at most ${LIMITS.agendaMaxDays} days per request`);
  }
  return { from: toUtcIso(from), to: toUtcIso(to) };
}

/**
 * The report's period: `from` / `to` ISO-8601 instants (without an offset, read in `zone`); `to`
 * defaults to now, `from` to LIMITS.reportDefaultDays before `to`. `to` is exclusive.
 */
export function parseReportRange(
  query: { from?: string | undefined; to?: string | undefined },
  zone: string,
  now: DateTime,
): { from: string; to: string } {
  const to = query.to ? parseInstant(query.to, 'to', zone) : now;
  const from = query.from
    ? parseInstant(query.from, 'from', zone)
    : to.minus({ days: LIMITS.reportDefaultDays });
  if (to <= from) throw appError('VALIDATION_ERROR', 'to must be later than from');
  if (to.diff(from, 'days').days > LIMITS.reportMaxDays) {
    throw appError('VALIDATION_ERROR', `The report covers at most ${LIMITS.reportMaxDays} days per request`);
  }
  return { from: toUtcIso(from), to: toUtcIso(to) };
}

function parseInstant(text: string, key: string, zone: string): DateTime {
  const value = DateTime.fromISO(text.trim(), { zone });
  if (!value.isValid || value.year < 1 || value.year > 9999) {
    throw appError('VALIDATION_ERROR', `${key} must be an ISO-8601 instant such as 2027-01-15T00:00:00Z`);
  }
  return value;
}

function toUtcIso(value: DateTime): string {
  const text = value.toUTC().toISO();
  if (!text) throw appError('VALIDATION_ERROR', 'Invalid agenda range');
  return text;
}
