import type { AdminApp, AdminDeps } from './deps.ts';
import { appError } from '../errors.ts';
import { removeFeedSecret } from '../calendar/feed-repository.ts';
import { newCalendarFeed } from '../use-cases/calendar-feed.ts';
import { agentOf, loadAgent } from './lookups.ts';
import { AgentParams } from './schemas/agents.ts';
import { CalendarFeed } from './schemas/calendar.ts';
import { NoContent } from './schemas/common.ts';
import { AGENT, answers, operation } from './schemas/errors.ts';

/** The agent's calendar feed URL (docs/calendar.md): made anew, or retired. */
export function registerCalendarFeedRoutes(app: AdminApp, deps: AdminDeps): void {
  const withAgent = loadAgent(deps.db);

  app.post(
    '/agents/:agent_id/calendar-feed',
    {
      preValidation: withAgent,
      schema: {
        ...operation(
          'createCalendarFeed',
          'Make a new secret calendar feed URL for the agent; the one before it stops at once',
        ),
        params: AgentParams,
        response: answers({ 201: CalendarFeed }, AGENT),
      },
    },
    async (request, reply) =>
      reply
        .code(201)
        .header('cache-control', 'no-store')
        .send(await newCalendarFeed(deps.db, deps.publicBaseUrl, agentOf(request).agent_id)),
  );

  app.delete(
    '/agents/:agent_id/calendar-feed',
    {
      preValidation: withAgent,
      schema: {
        ...operation('deleteCalendarFeed', 'Retire the agent’s calendar feed URL without a new one'),
        params: AgentParams,
        response: answers({ 204: NoContent('The feed URL answers 404 from now on') }, [
          ...AGENT,
          'NOT_FOUND',
        ]),
      },
    },
    async (request, reply) => {
      if (!(await removeFeedSecret(deps.db, agentOf(request).agent_id))) throw appError('NOT_FOUND');
      return reply.code(204).send();
    },
  );
}
