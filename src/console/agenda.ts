import type { FastifyInstance } from 'fastify';
import { DateTime } from 'luxon';
import { queryValue } from './query.ts';
import { listAgenda, type AgendaEntry } from '../appointments/appointment-queries.ts';
import { html } from './html.ts';
import type { ConsoleDeps } from './deps.ts';
import { clock, localDay } from './format.ts';
import { consolePage, signedIn } from './context.ts';

const STATUS_LABELS: Record<string, string> = {
  booked: 'Booked',
  rescheduled: 'Rescheduled',
  canceled: 'Canceled',
  no_show: 'No-show',
};

/** The days shown: one (day view) or Monday to Sunday (week view), in the agent's zone. */
export function agendaRange(view: 'day' | 'week', date: string | undefined, zone: string, now: DateTime) {
  const picked = date ? DateTime.fromISO(date, { zone }) : now.setZone(zone);
  const day = (picked.isValid ? picked : now.setZone(zone)).startOf('day');
  const from = view === 'week' ? day.startOf('week') : day;
  const to = from.plus({ days: view === 'week' ? 7 : 1 });
  return { from, to };
}

/**
 * A sender's link (join, reschedule, cancel), only when it is http(s): a `javascript:` URL from a
 * payload must never become something the agent can click.
 */
function link(url: string | null | undefined, label: string) {
  if (!url || !/^https?:\/\//i.test(url)) return '';
  return html`<a href="${url}" rel="noopener noreferrer" target="_blank">${label}</a>`;
}

function entry(a: AgendaEntry, zone: string) {
  const prospectZone = a.appointment_timezone ?? zone;
  return html`<li class="appt">
    <p>
      <strong>${clock(a.scheduled_at, zone)}</strong> · <a href="/console/leads/${a.lead_id}">${a.name}</a> ·
      <span class="status">${STATUS_LABELS[a.status] ?? a.status}</span>
    </p>
    <p class="muted">
      Prospect’s time: ${clock(a.scheduled_at, prospectZone)}
      (${prospectZone})${a.schedule_type ? html` · ${a.schedule_type}` : ''}${a.setter_dialer_name ? html` · set by ${a.setter_dialer_name}` : ''}
    </p>
    <p class="links">
      ${link(a.join_url, 'Join')} ${link(a.reschedule_url, 'Reschedule')} ${link(a.cancel_url, 'Cancel')}
    </p>
  </li>`;
}

export function registerAgendaPage(scope: FastifyInstance, deps: ConsoleDeps): void {
  scope.get('/agenda', async (request, reply) => {
    const me = await signedIn(deps, request);
    const zone = me.agent.timezone;
    const view = queryValue(request.query, 'view') === 'week' ? 'week' : 'day';
    const { from, to } = agendaRange(view, queryValue(request.query, 'date'), zone, DateTime.now());
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
    const days: DateTime[] = [];
    for (let d = from; d < to; d = d.plus({ days: 1 })) days.push(d);
    const step = view === 'week' ? { weeks: 1 } : { days: 1 };
    const link = (d: DateTime, v: string = view) => `/console/agenda?view=${v}&date=${d.toISODate() ?? ''}`;
    return consolePage(
      reply,
      me,
      'Agenda',
      '/console/agenda',
      html`<main>
        <h1>Agenda</h1>
        <p>Times in your zone, ${zone}; each appointment also shows the prospect’s local time.</p>
        <nav class="pager" aria-label="Agenda dates">
          <a href="${link(from.minus(step))}">← Previous ${view}</a>
          <a href="${link(DateTime.now().setZone(zone))}">Today</a>
          <a href="${link(from.plus(step))}">Next ${view} →</a>
          <a href="${link(from, view === 'day' ? 'week' : 'day')}"
            >${view === 'day' ? 'Week view' : 'Day view'}</a
          >
        </nav>
        ${days.map((d) => {
          const todays = byDay.get(d.toISODate() ?? '') ?? [];
          return html`<section class="day" aria-label="${d.toFormat('cccc, LLLL d yyyy')}">
            <h2>${d.toFormat('cccc, LLLL d yyyy')}</h2>
            ${
              todays.length
                ? html`<ul class="agenda">
                    ${todays.map((a) => entry(a, zone))}
                  </ul>`
                : html`<p class="empty">No appointments.</p>`
            }
          </section>`;
        })}
      </main>`,
    );
  });
}
