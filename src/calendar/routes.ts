import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import type { Database } from '../db/index.ts';
import { errorBody, errorResponses } from '../errors.ts';
import { feedAppointments, feedOwner } from './feed-repository.ts';
import { consoleUrl, FEED_PATH, feedBody, feedWindow, matchesEtag } from './feed.ts';

export interface CalendarDeps {
  db: Database;
  publicBaseUrl: string;
  /** The moment the feed is read at; tests name it. */
  now?: () => Date;
}

const FeedParams = Type.Object({
  file: Type.String({ description: 'The secret and `.ics`, as the URL the agent was given has them' }),
});

/** For the OpenAPI document: what a calendar app reads. */
const FEED_SCHEMA = {
  tags: ['Calendar'],
  operationId: 'readCalendarFeed',
  summary: 'An agent’s appointments as an iCalendar feed, for Google, Apple and Outlook calendars',
  description:
    'The URL is the key (calendar apps send no header): made with `POST /v1/admin/agents/{agent_id}/calendar-feed`. One VEVENT per appointment from 90 days ago on, times in UTC; a canceled or moved one stays 30 days as STATUS:CANCELLED.',
  security: [],
  params: FeedParams,
  response: {
    200: {
      description: 'The feed (RFC 5545), with `ETag` and `Last-Modified`.',
      content: { 'text/calendar': { schema: { type: 'string' } } },
    },
    304: { description: 'Unchanged: `If-None-Match` named the current `ETag`.', type: 'null' },
    ...errorResponses(['NOT_FOUND']),
  },
};

/**
 * `GET /v1/calendar/<secret>.ics`: the agent's appointments for calendar apps, which send no header
 * but the secret in the URL; an unknown secret is 404. Apps poll, so an unchanged feed is 304.
 */
export function registerCalendarRoutes(app: FastifyInstance, deps: CalendarDeps): void {
  const now = deps.now ?? (() => new Date());
  app.get<{ Params: { file: string } }>(
    `${FEED_PATH}:file`,
    { schema: FEED_SCHEMA },
    async (request, reply) => {
      const secret = request.params.file.replace(/\.ics$/i, '');
      const owner = await feedOwner(deps.db, secret);
      if (!owner) return reply.code(404).send(errorBody('NOT_FOUND'));
      const rows = await feedAppointments(deps.db, owner.agent_id, feedWindow(now()));
      const feed = feedBody(owner.name, rows, owner.appointment_minutes, consoleUrl(deps.publicBaseUrl));
      reply
        .header('etag', feed.etag)
        .header('cache-control', 'private, no-cache')
        .header('referrer-policy', 'no-referrer');
      if (feed.lastModified !== null)
        reply.header('last-modified', new Date(feed.lastModified).toUTCString());
      if (matchesEtag(request.headers['if-none-match'], feed.etag)) return reply.code(304).send();
      return reply.type('text/calendar; charset=utf-8').send(feed.body);
    },
  );
}
