import { LIMITS } from '../limits.ts';
import { listDeliveries, retryDelivery } from '../automations/delivery-repository.ts';
import { deleteDestination, listDestinations } from '../automations/destination-repository.ts';
import { readDialQueue } from '../automations/dial-queue.ts';
import { appError } from '../errors.ts';
import type { AdminApp, AdminDeps } from './deps.ts';
import { ownerOf } from './auth.ts';
import { agentOf, loadAgent, loadSource, sourceOf } from './lookups.ts';
import { AgentParams } from './schemas/agents.ts';
import {
  CallOutcomeBody,
  CallOutcomeResult,
  CreateDestinationBody,
  Delivery,
  DeliveryList,
  DeliveryParams,
  DeliveryQuery,
  DestinationList,
  DestinationParams,
  DestinationWithSecret,
  DialQueue,
  TaskParams,
} from './schemas/automations.ts';
import { NoContent } from './schemas/common.ts';
import { AGENT, answers, AUTH, BODY, operation, SOURCE } from './schemas/errors.ts';
import { SourceParams } from './schemas/sources.ts';
import { addDestination } from '../use-cases/destinations.ts';
import { actOnLead } from '../use-cases/lead-actions.ts';

/** Outbound destinations of a source, the deliveries made to them, and the agent's dial queue. */
export function registerAutomationRoutes(app: AdminApp, deps: AdminDeps): void {
  const withAgent = loadAgent(deps.db);
  const withSource = loadSource(deps.db);

  app.post(
    '/sources/:source_id/destinations',
    {
      preValidation: withSource,
      schema: {
        ...operation('createDestination', 'Send a source’s events to a URL (partner sync or analytics)'),
        params: SourceParams,
        body: CreateDestinationBody,
        response: answers({ 201: DestinationWithSecret }, [...SOURCE, ...BODY]),
      },
    },
    async (request, reply) => {
      const added = await addDestination(
        deps.db,
        sourceOf(request),
        request.body,
        deps.allowPrivateDestinations ?? false,
      );
      if (!added.ok) throw appError('VALIDATION_ERROR', added.reason);
      return reply.code(201).send({ ...added.destination, secret: added.secret });
    },
  );

  app.get(
    '/sources/:source_id/destinations',
    {
      preValidation: withSource,
      schema: {
        ...operation('listDestinations', 'A source’s destinations (without secrets)'),
        params: SourceParams,
        response: answers({ 200: DestinationList }, SOURCE),
      },
    },
    async (request) => ({ destinations: await listDestinations(deps.db, sourceOf(request).source_id) }),
  );

  app.delete(
    '/destinations/:destination_id',
    {
      schema: {
        ...operation(
          'deleteDestination',
          'Stop sending to a destination; its pending deliveries are canceled',
        ),
        params: DestinationParams,
        response: answers({ 204: NoContent('Removed.') }, [...AUTH, 'DESTINATION_NOT_FOUND']),
      },
    },
    async (request, reply) => {
      const id = request.params.destination_id.toLowerCase();
      if (!(await deleteDestination(deps.db, id, ownerOf(request)))) throw appError('DESTINATION_NOT_FOUND');
      return reply.code(204).send();
    },
  );

  app.get(
    '/agents/:agent_id/deliveries',
    {
      preValidation: withAgent,
      schema: {
        ...operation('listDeliveries', 'An agent’s webhook deliveries, newest first'),
        params: AgentParams,
        querystring: DeliveryQuery,
        response: answers({ 200: DeliveryList }, [...AGENT, 'VALIDATION_ERROR']),
      },
    },
    async (request) => ({
      deliveries: await listDeliveries(
        deps.db,
        agentOf(request).agent_id,
        request.query.status,
        LIMITS.listedRows,
      ),
    }),
  );

  app.post(
    '/deliveries/:delivery_id/retry',
    {
      schema: {
        ...operation('retryDelivery', 'Send a delivery again now, with a fresh retry schedule'),
        params: DeliveryParams,
        response: answers({ 200: Delivery }, [...AUTH, 'DELIVERY_NOT_FOUND']),
      },
    },
    async (request) => {
      const retried = await retryDelivery(
        deps.db,
        request.params.delivery_id.toLowerCase(),
        ownerOf(request),
      );
      if (!retried) throw appError('DELIVERY_NOT_FOUND', 'No such delivery, or it is being sent right now');
      return retried;
    },
  );

  app.get(
    '/agents/:agent_id/dial-queue',
    {
      preValidation: withAgent,
      schema: {
        ...operation(
          'getDialQueue',
          'An agent’s open call tasks, oldest first, with each prospect’s local time; and those screening blocked',
        ),
        params: AgentParams,
        response: answers({ 200: DialQueue }, AGENT),
      },
    },
    async (request) => {
      return readDialQueue(deps.db, agentOf(request), new Date(), LIMITS.listedRows);
    },
  );

  app.post(
    '/agents/:agent_id/dial-queue/:task_id/outcome',
    {
      preValidation: withAgent,
      schema: {
        ...operation('recordCallOutcome', 'Mark a call task’s outcome; the lead’s status follows'),
        params: TaskParams,
        body: CallOutcomeBody,
        response: answers({ 200: CallOutcomeResult }, [...AGENT, 'TASK_NOT_FOUND', ...BODY]),
      },
    },
    async (request) => {
      const taskId = request.params.task_id.toLowerCase();
      const done = await actOnLead(
        deps.db,
        { task_id: taskId, agent_id: agentOf(request).agent_id },
        { kind: 'call_outcome', outcome: request.body.outcome },
        new Date(),
      );
      if (!done.ok || !done.call) throw appError('TASK_NOT_FOUND', 'No such open call task');
      return { ...done.call, task_id: taskId, task_status: done.call.task_status ?? 'done' };
    },
  );
}
