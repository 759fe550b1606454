import type { AdminApp, AdminDeps } from './deps.ts';
import { appError } from '../errors.ts';
import { cadenceStepsProblem, orderedSteps } from '../automations/cadence-plan.ts';
import {
  createCadence,
  deleteCadence,
  getCadence,
  listCadences,
  updateCadence,
} from '../automations/cadence-repository.ts';
import { agentOf, loadAgent } from './lookups.ts';
import { AgentParams } from './schemas/agents.ts';
import {
  Cadence,
  CadenceList,
  CadenceParams,
  CreateCadenceBody,
  LeadCadence,
  UpdateCadenceBody,
} from './schemas/cadences.ts';
import { NoContent } from './schemas/common.ts';
import { AGENT, AUTH, answers, BODY, operation } from './schemas/errors.ts';
import { LeadParams } from './schemas/leads.ts';
import { ownerOf } from './auth.ts';
import { stopLeadCadence } from '../use-cases/cadences.ts';
import type { CadenceStep } from '../automations/cadence-plan.ts';

/** The steps as kept, or the 400 naming the step that is wrong. */
function checkedSteps(steps: readonly CadenceStep[]): CadenceStep[] {
  const problem = cadenceStepsProblem(steps);
  if (problem) throw appError('VALIDATION_ERROR', problem);
  return orderedSteps(steps);
}

export function registerCadenceRoutes(app: AdminApp, deps: AdminDeps): void {
  const withAgent = loadAgent(deps.db);
  const NOT_FOUND = [...AGENT, 'CADENCE_NOT_FOUND'] as const;

  app.post(
    '/agents/:agent_id/cadences',
    {
      preValidation: withAgent,
      schema: {
        ...operation('createCadence', 'Make a cadence: a plan of calls and texts over days'),
        params: AgentParams,
        body: CreateCadenceBody,
        response: answers({ 201: Cadence }, [...AGENT, ...BODY]),
      },
    },
    async (request, reply) => {
      const steps = checkedSteps(request.body.steps);
      const made = await createCadence(deps.db, agentOf(request).agent_id, {
        name: request.body.name.trim(),
        steps,
      });
      return reply.code(201).send(made);
    },
  );

  app.get(
    '/agents/:agent_id/cadences',
    {
      preValidation: withAgent,
      schema: {
        ...operation('listCadences', 'An agent’s cadences, oldest first'),
        params: AgentParams,
        response: answers({ 200: CadenceList }, AGENT),
      },
    },
    async (request) => ({ cadences: await listCadences(deps.db, agentOf(request).agent_id) }),
  );

  app.get(
    '/agents/:agent_id/cadences/:cadence_id',
    {
      preValidation: withAgent,
      schema: {
        ...operation('getCadence', 'Read a cadence'),
        params: CadenceParams,
        response: answers({ 200: Cadence }, NOT_FOUND),
      },
    },
    async (request) => {
      const found = await getCadence(
        deps.db,
        agentOf(request).agent_id,
        request.params.cadence_id.toLowerCase(),
      );
      if (!found) throw appError('CADENCE_NOT_FOUND');
      return found;
    },
  );

  app.patch(
    '/agents/:agent_id/cadences/:cadence_id',
    {
      preValidation: withAgent,
      schema: {
        ...operation(
          'updateCadence',
          'Rename a cadence or replace its steps; leads following it keep theirs',
        ),
        params: CadenceParams,
        body: UpdateCadenceBody,
        response: answers({ 200: Cadence }, [...NOT_FOUND, ...BODY]),
      },
    },
    async (request) => {
      const { name, steps } = request.body;
      const updated = await updateCadence(
        deps.db,
        agentOf(request).agent_id,
        request.params.cadence_id.toLowerCase(),
        {
          ...(name !== undefined ? { name: name.trim() } : {}),
          ...(steps !== undefined ? { steps: checkedSteps(steps) } : {}),
        },
      );
      if (!updated) throw appError('CADENCE_NOT_FOUND');
      return updated;
    },
  );

  app.delete(
    '/agents/:agent_id/cadences/:cadence_id',
    {
      preValidation: withAgent,
      schema: {
        ...operation('deleteCadence', 'Delete a cadence; leads following it finish their plan'),
        params: CadenceParams,
        response: answers(
          { 204: NoContent('Deleted; sources and the default no longer name it.') },
          NOT_FOUND,
        ),
      },
    },
    async (request, reply) => {
      const gone = await deleteCadence(
        deps.db,
        agentOf(request).agent_id,
        request.params.cadence_id.toLowerCase(),
      );
      if (!gone) throw appError('CADENCE_NOT_FOUND');
      return reply.code(204).send();
    },
  );

  app.post(
    '/leads/:lead_id/cadence/stop',
    {
      schema: {
        ...operation(
          'stopLeadCadence',
          'Stop the cadence a lead follows; its steps still to do are canceled',
        ),
        params: LeadParams,
        response: answers({ 200: LeadCadence }, [...AUTH, 'LEAD_NOT_FOUND', 'CADENCE_NOT_FOUND']),
      },
    },
    async (request) => {
      const stopped = await stopLeadCadence(
        deps.db,
        request.params.lead_id.toLowerCase(),
        ownerOf(request),
        new Date(),
      );
      if (stopped === 'no lead') throw appError('LEAD_NOT_FOUND');
      if (stopped === 'no cadence') throw appError('CADENCE_NOT_FOUND', 'The lead follows no cadence');
      return stopped;
    },
  );
}
