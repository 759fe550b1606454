import type { FastifyInstance } from 'fastify';
import { DateTime } from 'luxon';
import type { AdminDeps } from './deps.ts';
import { listAgenda } from '../appointments/appointment-queries.ts';
import { LIMITS } from '../limits.ts';
import { appError } from '../errors.ts';
import {
  decodeLeadCursor,
  encodeLeadCursor,
  getLeadDetail,
  listLeads,
  type LeadListQuery,
} from '../leads/lead-queries.ts';
import { LEAD_STATUSES } from '../leads/lead-status.ts';
import { assertStorable, queryValue, uuidParam } from './input.ts';
import { ownerOf } from './auth.ts';
import { requireAgent } from './lookups.ts';

interface AgentParams {
  agent_id?: string;
}
interface LeadParams {
  lead_id?: string;
}

export function registerLeadRoutes(app: FastifyInstance, deps: AdminDeps): void {
  app.get<{ Params: AgentParams }>('/agents/:agent_id/leads', async (request) => {
    const agent = await requireAgent(deps.db, request.params.agent_id, ownerOf(request));
    const { leads, next_cursor } = await listLeads(
      deps.db,
      agent.agent_id,
      parseLeadListQuery(request.query),
    );
    return { leads, next_cursor: next_cursor ? encodeLeadCursor(next_cursor) : null };
  });

  app.get<{ Params: LeadParams }>('/leads/:lead_id', async (request) => {
    const lead = await getLeadDetail(deps.db, uuidParam(request.params.lead_id, 'LEAD_NOT_FOUND'));
    const owner = ownerOf(request);
    if (!lead || (owner !== null && lead.agent_id !== owner)) throw appError('LEAD_NOT_FOUND');
    return lead;
  });

  app.get<{ Params: AgentParams }>('/agents/:agent_id/agenda', async (request) => {
    const agent = await requireAgent(deps.db, request.params.agent_id, ownerOf(request));
    const range = parseAgendaRange(request.query, agent.timezone, DateTime.now());
    return { appointments: await listAgenda(deps.db, agent.agent_id, range) };
  });
}

export function parseLeadListQuery(query: unknown): LeadListQuery {
  const result: LeadListQuery = {};
  const status = queryValue(query, 'status');
  if (status !== undefined && status !== '') {
    const known = LEAD_STATUSES.find((s) => s.toLowerCase() === status.trim().toLowerCase());
    if (!known) throw appError('VALIDATION_ERROR', `status must be one of ${LEAD_STATUSES.join(', ')}`);
    result.status = known;
  }
  const q = queryValue(query, 'q')?.trim();
  if (q) {
    if (q.length > LIMITS.searchMaxLength)
      throw appError('VALIDATION_ERROR', `q must be at most ${LIMITS.searchMaxLength} characters`);
    assertStorable(q, 'q');
    result.q = q;
  }
  const limit = queryValue(query, 'limit');
  if (limit !== undefined && limit !== '') {
    const n = Number(limit);
    if (!/^\d+$/.test(limit) || !Number.isSafeInteger(n) || n < 1) {
      throw appError('VALIDATION_ERROR', `limit must be an integer from 1 to ${LIMITS.leadsPageMax}`);
    }
    result.limit = Math.min(n, LIMITS.leadsPageMax);
  }
  const cursor = queryValue(query, 'cursor');
  if (cursor !== undefined && cursor !== '') {
    const decoded = decodeLeadCursor(cursor);
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
  query: unknown,
  agentZone: string,
  now: DateTime,
): { from: string; to: string } {
  const fromText = queryValue(query, 'from');
  const toText = queryValue(query, 'to');
  const from = fromText ? parseInstant(fromText, 'from', agentZone) : now.setZone(agentZone).startOf('day');
  const to = toText ? parseInstant(toText, 'to', agentZone) : from.plus({ days: LIMITS.agendaDefaultDays });
  if (to <= from) throw appError('VALIDATION_ERROR', 'to must be later than from');
  if (to.diff(from, 'days').days > LIMITS.agendaMaxDays) {
    throw appError('VALIDATION_ERROR', `The agenda covers at most ${LIMITS.agendaMaxDays} days per request`);
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
