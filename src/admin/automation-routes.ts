import type { FastifyInstance } from 'fastify';
import { LIMITS } from '../limits.ts';
import {
  listDeliveries,
  retryDelivery,
  DELIVERY_STATUSES,
  type DeliveryStatus,
} from '../automations/delivery-repository.ts';
import { checkDestinationUrl } from '../automations/destination-address.ts';
import {
  createDestination,
  deleteDestination,
  listDestinations,
} from '../automations/destination-repository.ts';
import { listCallTasks, recordCallOutcome } from '../automations/dial-queue.ts';
import { DESTINATION_KINDS, type DestinationKind } from '../automations/payloads.ts';
import { appError } from '../errors.ts';
import { OUTBOX_TOPICS } from '../outbox/topics.ts';
import type { AdminDeps } from './deps.ts';
import { queryValue, requiredText, requireObjectBody, uuidParam, type JsonBody } from './input.ts';
import { ownerOf } from './auth.ts';
import { requireAgent, requireSource } from './lookups.ts';
import { CALL_OUTCOMES, type CallOutcome } from '../leads/lead-status.ts';

interface Params {
  agent_id?: string;
  source_id?: string;
  destination_id?: string;
  delivery_id?: string;
  task_id?: string;
}

/** Outbound destinations of a source, the deliveries made to them, and the agent's dial queue. */
export function registerAutomationRoutes(app: FastifyInstance, deps: AdminDeps): void {
  app.post<{ Params: Params }>('/sources/:source_id/destinations', async (request, reply) => {
    const source = await requireSource(deps.db, request.params.source_id, ownerOf(request));
    const input = await destinationInput(
      requireObjectBody(request.body),
      deps.allowPrivateDestinations ?? false,
    );
    const { destination, secret } = await createDestination(deps.db, {
      ...input,
      agent_id: source.agent_id,
      source_id: source.source_id,
    });
    return reply.code(201).send({ ...destination, secret });
  });

  app.get<{ Params: Params }>('/sources/:source_id/destinations', async (request) => {
    const source = await requireSource(deps.db, request.params.source_id, ownerOf(request));
    return { destinations: await listDestinations(deps.db, source.source_id) };
  });

  app.delete<{ Params: Params }>('/destinations/:destination_id', async (request, reply) => {
    const id = uuidParam(request.params.destination_id, 'DESTINATION_NOT_FOUND');
    if (!(await deleteDestination(deps.db, id, ownerOf(request)))) throw appError('DESTINATION_NOT_FOUND');
    return reply.code(204).send();
  });

  app.get<{ Params: Params }>('/agents/:agent_id/deliveries', async (request) => {
    const agent = await requireAgent(deps.db, request.params.agent_id, ownerOf(request));
    const status = queryValue(request.query, 'status');
    if (status && !(DELIVERY_STATUSES as readonly string[]).includes(status)) {
      throw appError('VALIDATION_ERROR', `status must be one of ${DELIVERY_STATUSES.join(', ')}`);
    }
    return {
      deliveries: await listDeliveries(
        deps.db,
        agent.agent_id,
        (status || undefined) as DeliveryStatus | undefined,
        LIMITS.listedRows,
      ),
    };
  });

  app.post<{ Params: Params }>('/deliveries/:delivery_id/retry', async (request) => {
    const retried = await retryDelivery(
      deps.db,
      uuidParam(request.params.delivery_id, 'DELIVERY_NOT_FOUND'),
      ownerOf(request),
    );
    if (!retried) throw appError('DELIVERY_NOT_FOUND', 'No such delivery, or it is being sent right now');
    return retried;
  });

  app.get<{ Params: Params }>('/agents/:agent_id/dial-queue', async (request) => {
    const agent = await requireAgent(deps.db, request.params.agent_id, ownerOf(request));
    return { tasks: await listCallTasks(deps.db, agent, new Date(), LIMITS.listedRows) };
  });

  app.post<{ Params: Params }>('/agents/:agent_id/dial-queue/:task_id/outcome', async (request) => {
    const agent = await requireAgent(deps.db, request.params.agent_id, ownerOf(request));
    const taskId = uuidParam(request.params.task_id, 'TASK_NOT_FOUND');
    const outcome = requireObjectBody(request.body).outcome;
    if (typeof outcome !== 'string' || !(CALL_OUTCOMES as readonly string[]).includes(outcome)) {
      throw appError('VALIDATION_ERROR', `outcome must be one of ${CALL_OUTCOMES.join(', ')}`);
    }
    const result = await recordCallOutcome(
      deps.db,
      agent.agent_id,
      taskId,
      outcome as CallOutcome,
      new Date(),
    );
    if (!result) throw appError('TASK_NOT_FOUND', 'No such open call task');
    return result;
  });
}

async function destinationInput(body: JsonBody, allowPrivate: boolean) {
  const kind = body.kind;
  if (typeof kind !== 'string' || !(DESTINATION_KINDS as readonly string[]).includes(kind)) {
    throw appError('VALIDATION_ERROR', `kind must be one of ${DESTINATION_KINDS.join(', ')}`);
  }
  const url = requiredText(body, 'url', LIMITS.destinationUrlMaxLength);
  const check = await checkDestinationUrl(url, allowPrivate);
  if (!check.ok) throw appError('VALIDATION_ERROR', check.reason);
  let events: string[] | null = null;
  if (body.events !== undefined && body.events !== null) {
    const topics: readonly string[] = OUTBOX_TOPICS;
    if (
      !Array.isArray(body.events) ||
      body.events.length === 0 ||
      !body.events.every((e) => typeof e === 'string' && topics.includes(e))
    ) {
      throw appError('VALIDATION_ERROR', `events must be a non-empty list of ${OUTBOX_TOPICS.join(', ')}`);
    }
    events = [...new Set(body.events as string[])];
  }
  return { kind: kind as DestinationKind, url, events };
}
