import type { AgendaEntry } from '../../appointments/appointment-queries.ts';
import type { BlockedCallTask, CallTask } from '../../automations/dial-queue.ts';
import type { ReturnCandidate } from '../../economics/return-candidates.ts';
import { dollars } from '../../money.ts';
import { clock, phone, when } from '../format.ts';
import { html, type Html } from '../html.ts';
import { dataTable } from './components.ts';
import { blockedTable } from './dial-queue.ts';
import { LIVE } from './conversation.ts';
import { curlExample } from './sources.ts';
import type { Conversation } from '../../conversations/thread-repository.ts';

/** A new lead nobody has called yet. */
export interface WaitingLead {
  lead_id: string;
  name: string;
  phone: string | null;
  created_at: string;
}

export interface TodayData {
  fresh: WaitingLead[];
  /** Calls that may be made now (inside the prospect's calling hours), and later today. */
  callsNow: CallTask[];
  callsLater: Array<CallTask & { due_at: string }>;
  /** Today's appointments, in the agent's day. */
  appointments: AgendaEntry[];
  /** Call tasks screening blocked (docs/compliance.md): shown, never to be called. */
  blocked: BlockedCallTask[];
  /** The registry list that covers the agent's leads; null when none does. */
  registry: { loaded_at: string; stale: boolean } | null;
  /** Leads that look returnable (a bad number, a repeat contact), the closest deadline first. */
  returns: ReturnCandidate[];
  /** Plans whose next cadence step falls due by the end of the agent's day (overdue ones too). */
  cadenceSteps: number;
  samples: number;
  reviewDays: number;
  failedDeliveries: number;
  /** Threads with replies the agent has not read, the newest first. */
  replies: Conversation[];
  /** The agent has no lead at all yet: Today says how to send the first. */
  firstLead: boolean;
  /** The gateway's URL, for the first lead's curl line. */
  gatewayUrl: string;
  now: string;
  zone: string;
  agentName: string;
}

/** How long until, as a person says it; console.js counts it down from `data-until`. */
export function left(untilIso: string, nowIso: string): string {
  const ms = Date.parse(untilIso) - Date.parse(nowIso);
  return ms <= 0 ? 'closed' : age(nowIso, untilIso);
}

function returnRow(r: ReturnCandidate, now: string, zone: string): Html {
  return html`<tr>
    <td><a href="/console/leads/${r.lead_id}">${r.name}</a></td>
    <td>${r.why === 'bad_number' ? 'Bad number' : 'Repeat contact'}</td>
    <td class="num">${dollars(r.price_cents)}</td>
    <td><strong class="age" data-until="${r.deadline}">${left(r.deadline, now)}</strong></td>
    <td>${clock(r.deadline, zone)}</td>
  </tr>`;
}

/** How long ago, as a person says it; console.js keeps it ticking from `data-since`. */
export function age(fromIso: string, nowIso: string): string {
  const s = Math.max(0, Math.floor((Date.parse(nowIso) - Date.parse(fromIso)) / 1000));
  if (s < 60) return `${s} s`;
  if (s < 3600) return `${Math.floor(s / 60)} min ${s % 60} s`;
  if (s < 86_400) return `${Math.floor(s / 3600)} h ${Math.floor((s % 3600) / 60)} min`;
  return `${Math.floor(s / 86_400)} d ${Math.floor((s % 86_400) / 3600)} h`;
}

const tel = (digits: string | null) =>
  digits
    ? html`<a class="phone" href="tel:+1${digits}">${phone(digits)}</a>`
    : html`<span class="muted">no phone</span>`;

/** The rows of the waiting leads (the page's, and the poll's fragment). */
export function newLeadRows(fresh: WaitingLead[], now: string, zone: string): Html {
  if (fresh.length === 0)
    return html`<tr>
      <td colspan="4" class="empty">Nobody waiting: every new lead has been called.</td>
    </tr>`;
  return html`${fresh.map(
    (l) =>
      html`<tr>
        <td><a href="/console/leads/${l.lead_id}">${l.name}</a></td>
        <td>${tel(l.phone)}</td>
        <td><strong class="age" data-since="${l.created_at}">${age(l.created_at, now)}</strong></td>
        <td>${clock(l.created_at, zone)}</td>
      </tr>`,
  )}`;
}

function callRow(t: CallTask & { due_at?: string }, now: string, zone: string, later: boolean): Html {
  return html`<tr>
    <td><a href="/console/leads/${t.lead_id}">${t.name}</a></td>
    <td>${tel(t.phone)}</td>
    <td>${clock(now, t.timezone)} there</td>
    <td>
      ${later && t.due_at ? html`from ${clock(t.due_at, zone)} <br /><small class="muted">${t.calling_hours}</small>` : html`<span class="status ok">call now</span>`}
    </td>
  </tr>`;
}

function appointmentItem(a: AgendaEntry, zone: string): Html {
  const theirs = a.appointment_timezone ?? zone;
  return html`<li class="appt">
    <strong>${clock(a.scheduled_at, zone)}</strong> · <a href="/console/leads/${a.lead_id}">${a.name}</a> ·
    <span class="muted">their time ${clock(a.scheduled_at, theirs)} (${theirs})</span> ·
    <span class="status">${a.status}</span>
  </li>`;
}

const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

/** The warning a stale registry list gives: until it is reloaded, leads without consent are not contacted. */
function registryWarning(r: TodayData['registry'], zone: string): Html | string {
  if (!r?.stale) return '';
  return html`<p class="error" role="alert">
    <strong>Your Do Not Call Registry list is stale</strong>: loaded ${when(r.loaded_at, zone)}, more than 31
    days ago. Until it is reloaded, leads without consent evidence get no automatic text or call.
  </p>`;
}

/** Replies waiting to be read: each thread, its last text, and how long it has waited. */
function repliesSection(d: TodayData): Html | string {
  if (d.replies.length === 0) return '';
  return html`<section aria-labelledby="replies-h">
    <h2 id="replies-h">Replies waiting</h2>
    ${dataTable(
      ['Lead', 'Phone', 'Said', 'Waiting'],
      d.replies.map(
        (c) =>
          html`<tr class="unread">
            <td>
              <a href="/console/leads/${c.lead_id}#messages">${c.name}</a>
              <span class="badge" aria-label="${c.unread} unread">${c.unread}</span>
            </td>
            <td>${tel(c.phone)}</td>
            <td>
              ${c.last_message.body.length > 120 ? `${c.last_message.body.slice(0, 119)}…` : c.last_message.body}
            </td>
            <td>
              <strong class="age" data-since="${c.last_message.at}">${age(c.last_message.at, d.now)}</strong>
            </td>
          </tr>`,
      ),
    )}
  </section>`;
}

/** Today: the page, whose body (`todayLive`) the page asks for again every 2 s. */
export function todayPage(d: TodayData): Html {
  return html`<main>
    <h1>Today</h1>
    <div id="today-live" hx-get="/console/today/live" hx-trigger="${LIVE}" hx-swap="innerHTML">
      ${todayLive(d)}
    </div>
  </main>`;
}

/**
 * Everything Today shows, from one read: replies waiting first, new leads waiting with their age,
 * calls due now and later, appointments, what waits elsewhere; the tiles count the same rows.
 */
export function todayLive(d: TodayData): Html {
  const unread = d.replies.reduce((n, c) => n + c.unread, 0);
  return html`${registryWarning(d.registry, d.zone)} ${d.firstLead ? firstLeadHint(d.gatewayUrl) : ''}
    <ul class="tiles" aria-label="At a glance">
      <li class="${unread ? 'bad' : ''}">
        <strong>${unread}</strong> <a href="/console/inbox">${unread === 1 ? 'reply' : 'replies'} unread</a>
      </li>
      <li><strong>${d.fresh.length}</strong> new ${d.fresh.length === 1 ? 'lead' : 'leads'} waiting</li>
      <li><strong>${d.callsNow.length}</strong> ${d.callsNow.length === 1 ? 'call' : 'calls'} due now</li>
      <li>
        <strong>${d.appointments.length}</strong>
        ${d.appointments.length === 1 ? 'appointment' : 'appointments'} today
      </li>
      <li>
        <strong>${d.cadenceSteps}</strong>
        <a href="/console/dial-queue">cadence ${d.cadenceSteps === 1 ? 'step' : 'steps'} due today</a>
      </li>
      <li>
        <a href="/console/listen">${plural(d.samples, 'sample', 'samples')} in Listen review</a>
        <small class="muted">(last ${d.reviewDays} days)</small>
      </li>
      <li class="${d.failedDeliveries ? 'bad' : ''}">
        <a href="/console/deliveries?status=dead"
          >${plural(d.failedDeliveries, 'failed delivery', 'failed deliveries')}</a
        >
      </li>
    </ul>
    ${repliesSection(d)}
    <section aria-labelledby="new-h">
      <h2 id="new-h">New leads, not called yet</h2>
      <p class="muted">The longest wait first: the first minutes decide whether they answer.</p>
      ${dataTable(['Lead', 'Phone', 'Waiting', 'Arrived'], newLeadRows(d.fresh, d.now, d.zone), {
        body: html` id="new-rows"`,
      })}
    </section>
    <section aria-labelledby="calls-h">
      <h2 id="calls-h">Calls</h2>
      ${
        d.callsNow.length
          ? dataTable(
              ['Due now', 'Phone', 'Their time', ''],
              d.callsNow.map((t) => callRow(t, d.now, d.zone, false)),
            )
          : html`<p class="empty">No call is due now.</p>`
      }
      ${
        d.callsLater.length
          ? html`<h3>Later today</h3>
              ${dataTable(
                ['Lead', 'Phone', 'Their time', 'When'],
                d.callsLater.map((t) => callRow(t, d.now, d.zone, true)),
              )}`
          : ''
      }
      ${
        d.blocked.length
          ? html`<h3>Blocked by screening</h3>
              <p class="muted">
                Not to be called: the number is on a list, or opted out (see Compliance in the docs).
              </p>
              ${blockedTable(d.blocked, d.zone)}`
          : ''
      }
      <p><a href="/console/dial-queue">Open the dial queue</a> to call and save each outcome.</p>
    </section>
    ${
      d.returns.length
        ? html`<section aria-labelledby="returns-h">
            <h2 id="returns-h">Return candidates</h2>
            <p class="muted">
              Returnable until the vendor’s window closes: open the lead to return it with its evidence.
            </p>
            ${dataTable(
              ['Lead', 'Why', 'Paid', 'Window closes in', 'At'],
              d.returns.map((r) => returnRow(r, d.now, d.zone)),
            )}
          </section>`
        : ''
    }
    <section aria-labelledby="appt-h">
      <h2 id="appt-h">Today’s appointments</h2>
      ${
        d.appointments.length
          ? html`<ul class="agenda">
              ${d.appointments.map((a) => appointmentItem(a, d.zone))}
            </ul>`
          : html`<p class="empty">No appointment today. <a href="/console/agenda?view=week">The week</a></p>`
      }
    </section>`;
}

/** A brand-new agent's Today: how to send the first lead, and where its token is. */
function firstLeadHint(gatewayUrl: string): Html {
  return html`<section class="card" id="first-lead" aria-labelledby="first-h">
    <h2 id="first-h">Send your first lead</h2>
    <p>
      Leads appear here the moment a vendor, a form or you send one. Take your source’s token from
      <a href="/console/sources">Sources</a> and try:
    </p>
    <pre>${curlExample(gatewayUrl, 'YOUR_TOKEN')}</pre>
  </section>`;
}
