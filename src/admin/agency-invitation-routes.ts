import { appError } from '../errors.ts';
import { LIMITS } from '../limits.ts';
import {
  acceptInvitation,
  createInvitation,
  listInvitations,
  withdrawInvitation,
} from '../routing/agency-invitations.ts';
import { listMemberships } from '../routing/agency-repository.ts';
import { licensedStates } from './agency-routes.ts';
import { ownerOf } from './auth.ts';
import type { AdminApp, AdminDeps } from './deps.ts';
import { agencyOf, agentOf, loadAgency, loadAgent } from './lookups.ts';
import {
  AgencyParams,
  Invitation,
  InvitationBody,
  InvitationList,
  InvitationParams,
  Membership,
  MembershipList,
} from './schemas/agencies.ts';
import { AgentParams } from './schemas/agents.ts';
import { NoContent } from './schemas/common.ts';
import { AGENT, AUTH, answers, BODY, operation } from './schemas/errors.ts';

const AGENCY = [...AUTH, 'AGENCY_NOT_FOUND'] as const;

/**
 * How a producer joins an agency without the operator: the agency's manager invites with the
 * terms, and the producer accepts with its own key. No key ever names another agent to make it a
 * producer; the invitation's id, handed over by the manager, is what lets one in (docs/routing.md).
 */
export function registerAgencyInvitationRoutes(app: AdminApp, deps: AdminDeps): void {
  const withAgency = loadAgency(deps.db);

  app.post(
    '/agencies/:agency_id/invitations',
    {
      preValidation: withAgency,
      schema: {
        ...operation('inviteProducer', 'Invite a producer to the agency, with the terms it will have'),
        params: AgencyParams,
        body: InvitationBody,
        response: answers({ 201: Invitation }, [...AGENCY, ...BODY]),
      },
    },
    async (request, reply) => {
      const { weight, daily_cap, active } = request.body;
      const invitation = await createInvitation(
        deps.db,
        agencyOf(request).agency_id,
        {
          licensed_states: licensedStates(request.body.licensed_states),
          weight: weight ?? 1,
          daily_cap: daily_cap ?? null,
          active: active ?? true,
        },
        LIMITS.invitationValidDays,
      );
      return reply.code(201).send(invitation);
    },
  );

  app.get(
    '/agencies/:agency_id/invitations',
    {
      preValidation: withAgency,
      schema: {
        ...operation('listInvitations', 'The agency’s invitations not yet accepted nor expired'),
        params: AgencyParams,
        response: answers({ 200: InvitationList }, AGENCY),
      },
    },
    async (request) => ({ invitations: await listInvitations(deps.db, agencyOf(request).agency_id) }),
  );

  app.delete(
    '/agencies/:agency_id/invitations/:invitation_id',
    {
      preValidation: withAgency,
      schema: {
        ...operation('withdrawInvitation', 'Withdraw an invitation nobody accepted yet'),
        params: InvitationParams,
        response: answers({ 204: NoContent('Withdrawn.') }, [...AGENCY, 'INVITATION_NOT_FOUND']),
      },
    },
    async (request, reply) => {
      const { agency_id } = agencyOf(request);
      if (!(await withdrawInvitation(deps.db, agency_id, request.params.invitation_id.toLowerCase())))
        throw appError('INVITATION_NOT_FOUND');
      return reply.code(204).send();
    },
  );

  app.post(
    '/agencies/:agency_id/invitations/:invitation_id/accept',
    {
      schema: {
        ...operation(
          'acceptInvitation',
          'Join the agency as a producer, with the agent key of the producer invited',
        ),
        params: InvitationParams,
        response: answers({ 200: Membership, 201: Membership }, [
          ...AUTH,
          'FORBIDDEN',
          'INVITATION_NOT_FOUND',
        ]),
      },
    },
    async (request, reply) => {
      // Joining is the producer's own act: the operator adds producers with PUT …/members instead.
      const producer = ownerOf(request);
      if (producer === null)
        throw appError('FORBIDDEN', 'An invitation is accepted with the invited producer’s own key');
      const joined = await acceptInvitation(
        deps.db,
        request.params.agency_id.toLowerCase(),
        request.params.invitation_id.toLowerCase(),
        producer,
      );
      if (!joined) throw appError('INVITATION_NOT_FOUND');
      const { agent_id: _agent, name: _name, ...terms } = joined.member;
      return reply
        .code(joined.created ? 201 : 200)
        .send({ agency_id: joined.agency_id, agency_name: joined.agency_name, ...terms });
    },
  );

  app.get(
    '/agents/:agent_id/memberships',
    {
      preValidation: loadAgent(deps.db),
      schema: {
        ...operation('listMemberships', 'The agencies an agent is a producer of, with its terms in each'),
        params: AgentParams,
        response: answers({ 200: MembershipList }, AGENT),
      },
    },
    async (request) => ({ memberships: await listMemberships(deps.db, agentOf(request).agent_id) }),
  );
}
