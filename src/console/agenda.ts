import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { DateTime } from 'luxon';
import { listAgenda, type AgendaEntry } from '../appointments/appointment-queries.ts';
import type { ConsoleDeps } from './deps.ts';
import { localDay } from './format.ts';
import { consolePage, csrfToken, signedIn, type SignedIn } from './context.ts';
import { feedMadeAt } from '../calendar/feed-repository.ts';
import { newCalendarFeed } from '../use-cases/calendar-feed.ts';
import { queryValue } from './query.ts';
import { agendaPage } from './views/agenda.ts';

/** The days shown: one (day view) or Monday to Sunday (week view), in the agent's zone. */
export function agendaRange(view: 'day' | 'week', date: string | undefined, zone: string, now: DateTime) {
  const picked = date ? DateTime.fromISO(date, { zone }) : now.setZone(zone);
  const day = (picked.isValid ? picked : now.setZone(zone)).startOf('day');
  const from = view === 'week' ? day.startOf('week') : day;
  const to = from.plus({ days: view === 'week' ? 7 : 1 });
  return { from, to };
}

export function registerAgendaPage(scope: FastifyInstance, deps: ConsoleDeps): void {
  scope.get('/agenda', async (request, reply) => render(request, reply, await signedIn(deps, request)));

  // The new URL is shown in the answer itself, never put in a redirect's address (or a log).
  scope.post('/agenda/calendar-feed', { preHandler: scope.csrfProtection }, async (request, reply) => {
    const me = await signedIn(deps, request);
    const { url } = await newCalendarFeed(deps.db, deps.publicBaseUrl, me.agent.agent_id);
    return render(request, reply.header('cache-control', 'no-store'), me, url);
  });

  async function render(request: FastifyRequest, reply: FastifyReply, me: SignedIn, newUrl?: string) {
    const zone = me.agent.timezone;
    const view = queryValue(request.query, 'view') === 'week' ? 'week' : 'day';
    const now = DateTime.now();
    const { from, to } = agendaRange(view, queryValue(request.query, 'date'), zone, now);
    const appointments = await listAgenda(deps.db, me.agent.agent_id, {
      from: from.toUTC().toISO() ?? '',
      to: to.toUTC().toISO() ?? '',
    });
    const byDay = new Map<string, AgendaEntry[]>();
    for (const a of appointments) {
      const key = localDay(a.scheduled_at, zone);
      const list = byDay.get(key);
      if (list) list.push(a);
      else byDay.set(key, [a]);
    }
    const days = [];
    for (let d = from; d < to; d = d.plus({ days: 1 }))
      days.push({ day: d, appointments: byDay.get(d.toISODate() ?? '') ?? [] });
    const feed = {
      csrf: csrfToken(reply),
      zone,
      madeAt: await feedMadeAt(deps.db, me.agent.agent_id),
      ...(newUrl ? { newUrl } : {}),
    };
    const body = agendaPage({ view, days, zone, from, today: now.setZone(zone), feed });
    return consolePage(reply, me, 'Agenda', '/console/agenda', body);
  }
}
