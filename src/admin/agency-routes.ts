import { appError } from '../errors.ts';
import {
  createAgency,
  deleteMember,
  listAgencies,
  listMembers,
  putMember,
  updateAgency,
} from '../routing/agency-repository.ts';
import { listFallbackQueue, takeFromFallbackQueue } from '../routing/fallback-queue.ts';
import { LICENSE_STATES } from '../routing/prospect-state.ts';
import { ownerOf } from './auth.ts';
import {
  agencyOf,
  agentOf,
  loadAgency,
  loadAgent,
  requireAgencyToLeave,
  requireAgent,
  requireProducer,
} from './lookups.ts';
import type { AdminApp, AdminDeps } from './deps.ts';
import { zoneOf } from './zone.ts';
import {
  Agency as AgencySchema,
  AgencyList,
  AgencyParams,
  AgencyWithMembers,
  AssignBody,
  CreateAgencyBody,
  FallbackQueue,
  QueueLeadParams,
  Routing,
  Member,
  MemberParams,
  PutMemberBody,
  UpdateAgencyBody,
} from './schemas/agencies.ts';
import { NoContent } from './schemas/common.ts';
import { AgentParams } from './schemas/agents.ts';
import { AGENT, AUTH, answers, BODY, operation } from './schemas/errors.ts';
import { CreateSourceBody, SourceWithToken } from './schemas/sources.ts';
import { createLeadSource } from '../use-cases/sources.ts';

const AGENCY = [...AUTH, 'AGENCY_NOT_FOUND'] as const;

/**
 * Agencies, their producers and their sources (docs/routing.md). The operator manages every agency;
 * an agent's key or console login the agencies it is the fallback producer of. Any other agency is
 * a 404, as if it did not exist.
 */
export function registerAgencyRoutes(app: AdminApp, deps: AdminDeps): void {
  const withAgency = loadAgency(deps.db);

  app.post(
    '/agencies',
    {
      schema: {
        ...operation('createAgency', 'Create an agency: producers who share lead sources'),
        body: CreateAgencyBody,
        response: answers({ 201: AgencySchema }, [...AUTH, 'AGENT_NOT_FOUND', ...BODY]),
      },
    },
    async (request, reply) => {
      const { name, fallback_agent_id, timezone, claim_minutes } = request.body;
      const fallback = await requireAgent(deps.db, fallback_agent_id, ownerOf(request));
      const agency = await createAgency(deps.db, {
        name: name.trim(),
        fallback_agent_id: fallback.agent_id,
        timezone: timezone === undefined ? fallback.timezone : zoneOf(timezone),
        claim_minutes: claim_minutes ?? null,
      });
      return reply.code(201).send(agency);
    },
  );

  app.get(
    '/agents/:agent_id/agencies',
    {
      preValidation: loadAgent(deps.db),
      schema: {
        ...operation('listAgencies', 'The agencies an agent is the fallback producer of'),
        params: AgentParams,
        response: answers({ 200: AgencyList }, AGENT),
      },
    },
    async (request) => ({ agencies: await listAgencies(deps.db, agentOf(request).agent_id) }),
  );

  app.get(
    '/agencies/:agency_id',
    {
      preValidation: withAgency,
      schema: {
        ...operation('getAgency', 'An agency with its producers and their share today'),
        params: AgencyParams,
        response: answers({ 200: AgencyWithMembers }, AGENCY),
      },
    },
    async (request) => {
      const agency = agencyOf(request);
      return { ...agency, members: await listMembers(deps.db, agency.agency_id) };
    },
  );

  app.patch(
    '/agencies/:agency_id',
    {
      preValidation: withAgency,
      schema: {
        ...operation(
          'updateAgency',
          'Rename an agency; change its fallback producer, time zone or claim time',
        ),
        params: AgencyParams,
        body: UpdateAgencyBody,
        response: answers({ 200: AgencySchema }, [...AGENCY, 'AGENT_NOT_FOUND', ...BODY]),
      },
    },
    async (request) => {
      const { name, fallback_agent_id, timezone, claim_minutes } = request.body;
      const fallback =
        fallback_agent_id === undefined
          ? undefined
          : await requireAgent(deps.db, fallback_agent_id, ownerOf(request));
      const updated = await updateAgency(deps.db, agencyOf(request).agency_id, {
        ...(name !== undefined ? { name: name.trim() } : {}),
        ...(fallback ? { fallback_agent_id: fallback.agent_id } : {}),
        ...(timezone !== undefined ? { timezone: zoneOf(timezone) } : {}),
        ...(claim_minutes !== undefined ? { claim_minutes } : {}),
      });
      if (!updated) throw appError('AGENCY_NOT_FOUND');
      return updated;
    },
  );

  app.put(
    '/agencies/:agency_id/members/:agent_id',
    {
      preValidation: withAgency,
      schema: {
        ...operation('putAgencyMember', 'Add a producer to an agency, or replace what it has'),
        params: MemberParams,
        body: PutMemberBody,
        response: answers({ 200: Member, 201: Member }, [
          ...AGENCY,
          'INVALID_AGENT_IDENTIFIER',
          'AGENT_NOT_FOUND',
          ...BODY,
        ]),
      },
    },
    async (request, reply) => {
      const agency = agencyOf(request);
      const agent = await requireProducer(deps.db, agency, request.params.agent_id, ownerOf(request));
      const { weight, daily_cap, active } = request.body;
      const { member, created } = await putMember(deps.db, agency.agency_id, agent.agent_id, {
        licensed_states: licensedStates(request.body.licensed_states),
        weight: weight ?? 1,
        daily_cap: daily_cap ?? null,
        active: active ?? true,
      });
      return reply.code(created ? 201 : 200).send(member);
    },
  );

  app.delete(
    '/agencies/:agency_id/members/:agent_id',
    {
      // The agency's manager removes a producer; a producer's own key may always leave.
      preValidation: async (request) => {
        const { agency_id, agent_id } = request.params as { agency_id?: string; agent_id?: string };
        request.agency = await requireAgencyToLeave(deps.db, agency_id, ownerOf(request), agent_id ?? '');
      },
      schema: {
        ...operation(
          'deleteAgencyMember',
          'Remove a producer from an agency, or leave it with the producer’s own key; its leads stay its own',
        ),
        params: MemberParams,
        response: answers({ 204: NoContent('Removed.') }, [
          ...AGENCY,
          'INVALID_AGENT_IDENTIFIER',
          'NOT_FOUND',
        ]),
      },
    },
    async (request, reply) => {
      const agentId = request.params.agent_id.toLowerCase();
      if (!(await deleteMember(deps.db, agencyOf(request).agency_id, agentId))) {
        throw appError('NOT_FOUND', `The agency has no producer ${agentId}`);
      }
      return reply.code(204).send();
    },
  );

  app.get(
    '/agencies/:agency_id/fallback-queue',
    {
      preValidation: withAgency,
      schema: {
        ...operation('getFallbackQueue', 'The leads nobody else could take, still New, newest first'),
        params: AgencyParams,
        response: answers({ 200: FallbackQueue }, AGENCY),
      },
    },
    async (request) => ({ leads: await listFallbackQueue(deps.db, agencyOf(request).agency_id) }),
  );

  app.post(
    '/agencies/:agency_id/fallback-queue/:lead_id/assign',
    {
      preValidation: withAgency,
      schema: {
        ...operation(
          'assignFromFallbackQueue',
          'Give a lead of the fallback queue to a producer licensed in its state',
        ),
        params: QueueLeadParams,
        body: AssignBody,
        response: answers({ 200: Routing }, [...AGENCY, 'LEAD_NOT_FOUND', 'AGENT_NOT_FOUND', ...BODY]),
      },
    },
    async (request) =>
      takeFromFallbackQueue(
        deps.db,
        agencyOf(request).agency_id,
        request.params.lead_id.toLowerCase(),
        request.body.agent_id.toLowerCase(),
        ownerOf(request),
      ),
  );

  app.post(
    '/agencies/:agency_id/sources',
    {
      preValidation: withAgency,
      schema: {
        ...operation(
          'createAgencySource',
          'Create a lead source whose leads are routed to the agency’s producers',
        ),
        params: AgencyParams,
        body: CreateSourceBody,
        response: answers(
          {
            201: {
              ...SourceWithToken,
              description:
                'Created, listed under the fallback producer (`agent_id`); `token` is shown in full only here and on regenerate.',
            },
          },
          [...AGENCY, ...BODY],
        ),
      },
    },
    async (request, reply) => {
      const agency = agencyOf(request);
      const issued = await createLeadSource(
        deps.db,
        deps.publicBaseUrl,
        agency.fallback_agent_id,
        request.body.name,
        agency.agency_id,
      );
      return reply.code(201).send(issued);
    },
  );
}

/** The codes as the database keeps them (upper case, each once); any other is a 400. */
export function licensedStates(given: readonly string[]): string[] {
  const codes = [...new Set(given.map((s) => s.toUpperCase()))];
  const unknown = codes.filter((c) => !LICENSE_STATES.includes(c));
  if (unknown.length > 0) {
    throw appError(
      'VALIDATION_ERROR',
      `licensed_states must be codes of the 50 states and DC; not ${unknown.join(', ')}`,
    );
  }
  return codes.sort();
}
