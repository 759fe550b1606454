import type { FastifyInstance, FastifyReply } from 'fastify';
import { requireAgency } from '../admin/lookups.ts';
import { AssignBody } from '../admin/schemas/agencies.ts';
import { AppError, appError } from '../errors.ts';
import { listAgencies, listMembers, type Agency } from '../routing/agency-repository.ts';
import { listFallbackQueue, takeFromFallbackQueue } from '../routing/fallback-queue.ts';
import { isUuid } from '../sources/tokens.ts';
import type { ConsoleDeps } from './deps.ts';
import { consolePage, csrfToken, signedIn, type SignedIn } from './context.ts';
import type { Html } from './html.ts';
import { queryValue } from './query.ts';
import { agenciesPage, agencyPage, givenNotice } from './views/agency.ts';
import { refusal } from './views/sources.ts';

const CURRENT = '/console/agencies';

/**
 * The agencies the agent is the fallback producer of (as the admin API lets its key manage), and
 * the one-click reassign of their fallback queues: the same `takeFromFallbackQueue` as the API's.
 * Another agent's agency is the same 404 as one that never was.
 */
export function registerAgencyPages(scope: FastifyInstance, deps: ConsoleDeps): void {
  const render = async (reply: FastifyReply, me: SignedIn, agency: Agency, notice?: Html, status = 200) => {
    const [members, queue] = await Promise.all([
      listMembers(deps.db, agency.agency_id),
      listFallbackQueue(deps.db, agency.agency_id),
    ]);
    const body = agencyPage({
      agency,
      members,
      queue,
      zone: me.agent.timezone,
      csrf: csrfToken(reply),
      ...(notice ? { notice } : {}),
    });
    return consolePage(reply.code(status), me, agency.name, CURRENT, body);
  };

  scope.get('/agencies', async (request, reply) => {
    const me = await signedIn(deps, request);
    const agencies = await listAgencies(deps.db, me.agent.agent_id);
    const summaries = await Promise.all(
      agencies.map(async (agency) => ({
        agency,
        members: await listMembers(deps.db, agency.agency_id),
        waiting: (await listFallbackQueue(deps.db, agency.agency_id)).length,
      })),
    );
    const body = agenciesPage({ agencies: summaries, agentId: me.agent.agent_id });
    return consolePage(reply, me, 'Agency', CURRENT, body);
  });

  scope.get<{ Params: { agency_id: string } }>('/agencies/:agency_id', async (request, reply) => {
    const me = await signedIn(deps, request);
    const agency = await requireAgency(deps.db, request.params.agency_id, me.agent.agent_id);
    // After a lead was given (post, then redirect here): to whom, if still a producer.
    const given = queryValue(request.query, 'given');
    const producer = given
      ? (await listMembers(deps.db, agency.agency_id)).find((m) => m.agent_id === given)
      : null;
    return render(reply, me, agency, producer ? givenNotice(producer.name) : undefined);
  });

  scope.post<{ Params: { agency_id: string; lead_id: string } }>(
    '/agencies/:agency_id/fallback-queue/:lead_id/assign',
    { preHandler: scope.csrfProtection, schema: { body: AssignBody }, attachValidation: true },
    async (request, reply) => {
      const me = await signedIn(deps, request);
      const agency = await requireAgency(deps.db, request.params.agency_id, me.agent.agent_id);
      const leadId = request.params.lead_id.toLowerCase();
      const to = String((request.body as Record<string, unknown> | undefined)?.agent_id ?? '').toLowerCase();
      if (request.validationError) return render(reply, me, agency, refusal('Choose a producer.'), 400);
      try {
        if (!isUuid(leadId)) throw appError('LEAD_NOT_FOUND');
        await takeFromFallbackQueue(deps.db, agency.agency_id, leadId, to, me.agent.agent_id);
      } catch (err) {
        if (
          !(err instanceof AppError) ||
          !['LEAD_NOT_FOUND', 'AGENT_NOT_FOUND', 'VALIDATION_ERROR'].includes(err.code)
        )
          throw err;
        return render(reply, me, agency, refusal(notGiven(err)), err.status);
      }
      return reply.redirect(`${CURRENT}/${agency.agency_id}?given=${to}`, 303);
    },
  );
}

/** Why a lead of the queue was not given, in words: it left the queue, or that producer may not take it. */
function notGiven(err: AppError): string {
  if (err.code === 'LEAD_NOT_FOUND')
    return 'That lead is no longer in the fallback queue: it was given or worked already.';
  if (err.code === 'AGENT_NOT_FOUND') return 'That lead was not given: that producer is not in the agency.';
  // The API's words name its field; the console's say who may take the lead.
  const why = (err.details ?? 'That producer may not take it').replace(
    /^agent_id must be/,
    'it may go only to',
  );
  return `That lead was not given: ${why.charAt(0).toLowerCase()}${why.slice(1)}.`;
}
