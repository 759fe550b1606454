import { listBookingEvents } from '../booking-events/booking-event-repository.ts';
import type { AdminApp, AdminDeps } from './deps.ts';
import { appError } from '../errors.ts';
import { listSources } from '../sources/source-repository.ts';
import { agentOf, loadAgent, loadSource, sourceOf } from './lookups.ts';
import { AgentParams } from './schemas/agents.ts';
import { AGENT, answers, BODY, operation, SOURCE } from './schemas/errors.ts';
import {
  BookingEventList,
  CreateSourceBody,
  Source,
  SourceList,
  SourceParams,
  SourceWithToken,
  UpdateSourceBody,
} from './schemas/sources.ts';
import { changeLeadSource, createLeadSource, regenerateLeadSourceToken } from '../use-cases/sources.ts';

export function registerSourceRoutes(app: AdminApp, deps: AdminDeps): void {
  const withAgent = loadAgent(deps.db);
  const withSource = loadSource(deps.db);

  app.post(
    '/agents/:agent_id/sources',
    {
      preValidation: withAgent,
      schema: {
        ...operation('createSource', 'Create a lead source and issue its token'),
        params: AgentParams,
        body: CreateSourceBody,
        response: answers(
          {
            201: {
              ...SourceWithToken,
              description: 'Created; `token` is shown in full only here and on regenerate.',
            },
          },
          [...AGENT, ...BODY],
        ),
      },
    },
    async (request, reply) => {
      const issued = await createLeadSource(
        deps.db,
        deps.publicBaseUrl,
        agentOf(request).agent_id,
        request.body.name,
      );
      return reply.code(201).send(issued);
    },
  );

  app.get(
    '/agents/:agent_id/sources',
    {
      preValidation: withAgent,
      schema: {
        ...operation('listSources', 'List an agent’s lead sources (without tokens)'),
        params: AgentParams,
        response: answers({ 200: SourceList }, AGENT),
      },
    },
    async (request) => ({ sources: await listSources(deps.db, agentOf(request).agent_id) }),
  );

  app.post(
    '/sources/:source_id/regenerate',
    {
      preValidation: withSource,
      schema: {
        ...operation('regenerateSourceToken', 'Issue a new token; the old one is dead at once'),
        params: SourceParams,
        response: answers({ 200: SourceWithToken }, SOURCE),
      },
    },
    async (request) => {
      const issued = await regenerateLeadSourceToken(
        deps.db,
        deps.publicBaseUrl,
        sourceOf(request).source_id,
      );
      if (!issued) throw appError('SOURCE_NOT_FOUND');
      return issued;
    },
  );

  app.patch(
    '/sources/:source_id',
    {
      preValidation: withSource,
      schema: {
        ...operation(
          'updateSource',
          'Enable, disable or rename a lead source; its signing key, rate limit, Meta settings and Google key',
        ),
        params: SourceParams,
        body: UpdateSourceBody,
        response: answers({ 200: Source }, [...SOURCE, 'CADENCE_NOT_FOUND', ...BODY]),
      },
    },
    async (request) => {
      const updated = await changeLeadSource(deps.db, deps.secrets, sourceOf(request), request.body);
      if (!updated) throw appError('SOURCE_NOT_FOUND');
      return updated;
    },
  );

  app.get(
    '/sources/:source_id/events',
    {
      preValidation: withSource,
      schema: {
        ...operation('listBookingEvents', 'Booking-scheduler events of a source, newest first'),
        params: SourceParams,
        response: answers({ 200: BookingEventList }, SOURCE),
      },
    },
    async (request) => ({ events: await listBookingEvents(deps.db, sourceOf(request)) }),
  );

  // `/sources//regenerate` would otherwise be a bare 404: say what is missing.
  const missingSourceId = async () => {
    throw appError('MISSING_SOURCE_ID');
  };
  app.post('/sources//regenerate', { schema: { hide: true } }, missingSourceId);
  app.get('/sources//events', { schema: { hide: true } }, missingSourceId);
  app.patch('/sources/', { schema: { hide: true } }, missingSourceId);
}
