import type { DateTime } from 'luxon';
import type { AgendaEntry } from '../../appointments/appointment-queries.ts';
import { clock } from '../format.ts';
import { html, type Html } from '../html.ts';
import { calendarFeedSection, type CalendarFeedData } from './calendar-feed.ts';

export interface AgendaData {
  view: 'day' | 'week';
  /** The days shown, in the agent's zone, each with its appointments. */
  days: ReadonlyArray<{ day: DateTime; appointments: AgendaEntry[] }>;
  zone: string;
  /** The first day shown and today, for the date links. */
  from: DateTime;
  today: DateTime;
  feed: CalendarFeedData;
}

const STATUS_LABELS: Record<string, string> = {
  booked: 'Booked',
  rescheduled: 'Rescheduled',
  canceled: 'Canceled',
  no_show: 'No-show',
};

/**
 * A sender's link (join, reschedule, cancel), only when it is http(s): a `javascript:` URL from a
 * payload must never become something the agent can click.
 */
function link(url: string | null | undefined, label: string): Html | '' {
  if (!url || !/^https?:\/\//i.test(url)) return '';
  return html`<a href="${url}" rel="noopener noreferrer" target="_blank">${label}</a>`;
}

function entry(a: AgendaEntry, zone: string): Html {
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

/** The agenda: day or week, each appointment in the agent's zone and the prospect's. */
export function agendaPage({ view, days, zone, from, today, feed }: AgendaData): Html {
  const step = view === 'week' ? { weeks: 1 } : { days: 1 };
  const dateLink = (d: DateTime, v: string = view) => `/console/agenda?view=${v}&date=${d.toISODate() ?? ''}`;
  return html`<main>
    <h1>Agenda</h1>
    <p>Times in your zone, ${zone}; each appointment also shows the prospect’s local time.</p>
    <nav class="pager" aria-label="Agenda dates">
      <a href="${dateLink(from.minus(step))}">← Previous ${view}</a>
      <a href="${dateLink(today)}">Today</a>
      <a href="${dateLink(from.plus(step))}">Next ${view} →</a>
      <a href="${dateLink(from, view === 'day' ? 'week' : 'day')}"
        >${view === 'day' ? 'Week view' : 'Day view'}</a
      >
    </nav>
    ${days.map(({ day: d, appointments: todays }) => {
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
    ${calendarFeedSection(feed)}
  </main>`;
}
