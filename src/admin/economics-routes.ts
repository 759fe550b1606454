import { DateTime } from 'luxon';
import { appError } from '../errors.ts';
import { LIMITS } from '../limits.ts';
import { reportCsv } from '../economics/report-csv.ts';
import { leadReport, type ReportScope } from '../economics/report.ts';
import { decideReturn, requestReturn, type ReturnResult } from '../economics/returns.ts';
import { recordSale } from '../economics/sales.ts';
import { ownerOf } from './auth.ts';
import type { AdminApp, AdminDeps } from './deps.ts';
import { parseReportRange } from './list-queries.ts';
import { agencyOf, agentOf, loadAgency, loadAgent } from './lookups.ts';
import { AgencyParams } from './schemas/agencies.ts';
import { AgentParams } from './schemas/agents.ts';
import {
  DecideReturnBody,
  Report,
  ReportQuery,
  Return,
  ReturnBody,
  ReturnParams,
  Sale,
  SaleBody,
} from './schemas/economics.ts';
import { AGENT, AUTH, answers, BODY, operation } from './schemas/errors.ts';
import { LeadParams } from './schemas/leads.ts';
import type { FastifyReply } from 'fastify';

/**
 * Lead economics (docs/economics.md): returns to a vendor and their outcome, sales, and what each
 * source's leads cost and earned. Handlers are thin; the use cases are in src/economics/, shared
 * with the console.
 */
export function registerEconomicsRoutes(app: AdminApp, deps: AdminDeps): void {
  const LEAD = [...AUTH, 'LEAD_NOT_FOUND'] as const;

  app.post(
    '/leads/:lead_id/returns',
    {
      schema: {
        ...operation('returnLead', 'Return a lead’s latest billable purchase to its vendor, with evidence'),
        params: LeadParams,
        body: ReturnBody,
        response: answers({ 201: Return }, [
          ...LEAD,
          'NOTHING_TO_RETURN',
          'RETURN_WINDOW_CLOSED',
          'ALREADY_RETURNED',
          ...BODY,
        ]),
      },
    },
    async (request, reply) => {
      const done = await requestReturn(
        deps.db,
        { lead_id: request.params.lead_id.toLowerCase(), owner: ownerOf(request) },
        { reason: request.body.reason, note: request.body.note?.trim() ?? null },
        new Date(),
      );
      return reply.code(201).send(answerOf(done));
    },
  );

  app.patch(
    '/returns/:return_id',
    {
      schema: {
        ...operation('decideReturn', 'Record the vendor’s answer to a return: credited or denied'),
        params: ReturnParams,
        body: DecideReturnBody,
        response: answers({ 200: Return }, [...AUTH, 'RETURN_NOT_FOUND', 'RETURN_DECIDED', ...BODY]),
      },
    },
    async (request) =>
      answerOf(
        await decideReturn(
          deps.db,
          { return_id: request.params.return_id.toLowerCase(), owner: ownerOf(request) },
          request.body.status,
          new Date(),
        ),
      ),
  );

  app.post(
    '/leads/:lead_id/sales',
    {
      schema: {
        ...operation('recordSale', 'Record a policy sold to a lead; the lead becomes Sold'),
        params: LeadParams,
        body: SaleBody,
        response: answers({ 201: Sale }, [...LEAD, ...BODY]),
      },
    },
    async (request, reply) => {
      const now = new Date();
      const soldAt = request.body.sold_at ? new Date(request.body.sold_at) : now;
      // A year before the bound is a typo or a test of the parser, never a policy: refused, not
      // stored as a date the drivers read back a century off.
      const earliest = Date.parse(LIMITS.saleEarliest);
      if (!(soldAt.getTime() >= earliest && soldAt.getTime() <= now.getTime())) {
        throw appError(
          'VALIDATION_ERROR',
          `sold_at must be an ISO-8601 instant from ${LIMITS.saleEarliest.slice(0, 10)} to now`,
        );
      }
      const done = await recordSale(
        deps.db,
        { lead_id: request.params.lead_id.toLowerCase(), owner: ownerOf(request) },
        {
          premium_cents: request.body.premium_cents,
          product: request.body.product?.trim() ?? null,
          sold_at: soldAt,
        },
        now,
      );
      if (!done.ok) throw appError(done.code);
      const { ok: _ok, ...sale } = done;
      return reply.code(201).send(sale);
    },
  );

  const report = (
    scope: ReportScope,
    zone: string,
    query: { from?: string; to?: string; format?: string },
    reply: FastifyReply,
  ) => sendReport(deps, scope, parseReportRange(query, zone, DateTime.now()), query.format, reply);

  app.get(
    '/agents/:agent_id/report',
    {
      preValidation: loadAgent(deps.db),
      schema: {
        ...operation(
          'getAgentReport',
          'What each source’s leads cost and earned in a period (JSON, or CSV with format=csv)',
        ),
        params: AgentParams,
        querystring: ReportQuery,
        response: answers({ 200: Report }, [...AGENT, 'VALIDATION_ERROR']),
      },
    },
    async (request, reply) => {
      const agent = agentOf(request);
      return report({ agent_id: agent.agent_id }, agent.timezone, request.query, reply);
    },
  );

  app.get(
    '/agencies/:agency_id/report',
    {
      schema: {
        ...operation(
          'getAgencyReport',
          'The same report for an agency’s sources, whichever producer has the lead',
        ),
        params: AgencyParams,
        querystring: ReportQuery,
        response: answers({ 200: Report }, [...AUTH, 'AGENCY_NOT_FOUND', 'VALIDATION_ERROR']),
      },
      // The agency is looked up before the query is read: another agent's is a 404 whatever was asked.
      preValidation: loadAgency(deps.db),
    },
    async (request, reply) => {
      const agency = agencyOf(request);
      return report({ agency_id: agency.agency_id }, agency.timezone, request.query, reply);
    },
  );
}

async function sendReport(
  deps: AdminDeps,
  scope: ReportScope,
  range: { from: string; to: string },
  format: string | undefined,
  reply: FastifyReply,
) {
  const made = await leadReport(deps.db, scope, range);
  if (format !== 'csv') return made;
  return reply
    .type('text/csv; charset=utf-8')
    .header('content-disposition', `attachment; filename="leadgate-report-${range.from.slice(0, 10)}.csv"`)
    .send(reportCsv(made.sources));
}

/** A return as the API answers it, or its refusal as an error. */
function answerOf(done: ReturnResult) {
  if (!done.ok) throw appError(done.code, done.details);
  const { ok: _ok, ...made } = done;
  return made;
}
