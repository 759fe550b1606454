import { DateTime } from 'luxon';
import type { AdminApp, AdminDeps } from './deps.ts';
import { listAgenda } from '../appointments/appointment-queries.ts';
import { appError } from '../errors.ts';
import { encodeLeadCursor, listLeads } from '../leads/lead-queries.ts';
import { ownerOf } from './auth.ts';
import { agentOf, loadAgent } from './lookups.ts';
import { readLead } from '../use-cases/lead-read.ts';
import { parseAgendaRange, parseLeadListQuery } from './list-queries.ts';
import { AgentParams } from './schemas/agents.ts';
import { AGENT, answers, AUTH, operation } from './schemas/errors.ts';
import { Agenda, AgendaQuery, LeadDetail, LeadList, LeadListQuery, LeadParams } from './schemas/leads.ts';

export function registerLeadRoutes(app: AdminApp, deps: AdminDeps): void {
  const withAgent = loadAgent(deps.db);

  app.get(
    '/agents/:agent_id/leads',
    {
      preValidation: withAgent,
      schema: {
        ...operation('listLeads', 'An agent’s leads, newest first'),
        params: AgentParams,
        querystring: LeadListQuery,
        response: answers({ 200: LeadList }, [...AGENT, 'VALIDATION_ERROR']),
      },
    },
    async (request) => {
      const { leads, next_cursor } = await listLeads(
        deps.db,
        agentOf(request).agent_id,
        parseLeadListQuery(request.query),
      );
      return { leads, next_cursor: next_cursor ? encodeLeadCursor(next_cursor) : null };
    },
  );

  app.get(
    '/leads/:lead_id',
    {
      schema: {
        ...operation('getLead', 'A lead with its appointments, history, purchases, returns and sales'),
        params: LeadParams,
        response: answers({ 200: LeadDetail }, [...AUTH, 'LEAD_NOT_FOUND']),
      },
    },
    async (request) => {
      const lead = await readLead(deps.db, request.params.lead_id.toLowerCase(), ownerOf(request));
      if (!lead) throw appError('LEAD_NOT_FOUND');
      return lead;
    },
  );

  app.get(
    '/agents/:agent_id/agenda',
    {
      preValidation: withAgent,
      schema: {
        ...operation('getAgenda', 'An agent’s appointments in a time window, ordered by time'),
        params: AgentParams,
        querystring: AgendaQuery,
        response: answers({ 200: Agenda }, [...AGENT, 'VALIDATION_ERROR']),
      },
    },
    async (request) => {
      const agent = agentOf(request);
      const range = parseAgendaRange(request.query, agent.timezone, DateTime.now());
      return { appointments: await listAgenda(deps.db, agent.agent_id, range) };
    },
  );
}
