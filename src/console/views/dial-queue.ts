import type { BlockedCallTask, CallTask } from '../../automations/dial-queue.ts';
import { CALL_OUTCOMES, type CallOutcome } from '../../leads/lead-status.ts';
import { clock, phone, when } from '../format.ts';
import { html, type Html } from '../html.ts';
import { dataTable, postForm } from './components.ts';

/** A call outcome as the agent reads it. */
export const OUTCOME_LABELS: Record<CallOutcome, string> = {
  reached: 'Reached',
  no_answer: 'No answer',
  bad_number: 'Bad number',
  not_interested: 'Not interested',
};

export interface DialQueueData {
  tasks: CallTask[];
  /** Call tasks screening blocked: shown, never to be called. */
  blocked: BlockedCallTask[];
  /** The instant the page shows the prospects' clocks at. */
  now: string;
  zone: string;
  csrf: string;
  /** The call just saved (the page the form redirected to), or `missing` when no outcome was chosen. */
  saved?: { name: string; outcome: CallOutcome; status: string } | 'missing';
}

/**
 * The outcome of a call that ended in a sale: saved as reached, then the lead page's sale form asks
 * for the premium (a sale is recorded with it, docs/economics.md).
 */
export const SOLD = 'sold';

/** What follows each outcome, said when it is saved. */
const AFTER: Record<CallOutcome, string> = {
  reached: 'The task is done.',
  no_answer: 'The call comes back in an hour (three tries at most).',
  bad_number: 'The task is done.',
  not_interested: 'The task is done.',
};

/** The line that confirms a saved call, or asks for an outcome. */
function savedNotice(saved: DialQueueData['saved']): Html | string {
  if (!saved) return '';
  if (saved === 'missing')
    return html`<p class="error" role="status">Nothing saved: choose the call’s outcome, then Save.</p>`;
  return html`<p class="notice" role="status">
    Saved: ${OUTCOME_LABELS[saved.outcome]} for ${saved.name}. ${AFTER[saved.outcome]} The lead is
    ${saved.status}.
  </p>`;
}

/** Who to call now, oldest first, with the prospect's local time and a form for the outcome. */
export function dialQueuePage({ tasks, blocked, now, zone, csrf, saved }: DialQueueData): Html {
  return html`<main>
    <h1>Dial queue</h1>
    ${savedNotice(saved)}
    <p>
      Who to call now, oldest first, with the prospect’s local time. Outside calling hours (8:00–21:00 there,
      or the state’s own rule), wait. After each call, save its outcome: reached makes a new lead Contacted;
      no answer brings the call back in an hour (three tries at most); bad number and not interested say so on
      the lead; sold saves the call as reached and opens the lead’s sale form for the premium.
    </p>
    ${
      tasks.length
        ? dataTable(
            ['Lead', 'Phone', 'Their time', 'Calling hours', 'Waiting since', 'Outcome'],
            tasks.map((t) => taskRow(t, now, zone, csrf)),
          )
        : html`<p class="empty">Nobody to call: every new lead with a phone lands here.</p>`
    }
    ${
      blocked.length
        ? html`<h2>Blocked by screening</h2>
            <p class="muted">Not to be called: the number is on a suppression list, or opted out.</p>
            ${blockedTable(blocked, zone)}`
        : ''
    }
  </main>`;
}

/** Why screening blocked a call, in words (docs/compliance.md). */
const BLOCKED_WHY: Record<string, string> = {
  opted_out: 'opted out',
  do_not_contact: 'marked do not contact',
  dnc: 'on the do-not-call list',
  litigator: 'on the litigator list',
  registry_without_consent: 'on the Do Not Call Registry, no consent evidence',
  registry_stale: 'the registry list is stale, no consent evidence',
};

function blockedWhy(reason: string): string {
  if (reason.startsWith('consent_'))
    return `consent evidence not verified (${reason.slice('consent_'.length)})`;
  return BLOCKED_WHY[reason] ?? reason;
}

/** The call tasks screening blocked, with why: no phone link, no outcome form. */
export function blockedTable(blocked: BlockedCallTask[], zone: string): Html {
  return dataTable(
    ['Lead', 'Phone', 'Why', 'Since'],
    blocked.map(
      (t) =>
        html`<tr>
          <td><a href="/console/leads/${t.lead_id}">${t.name}</a></td>
          <td>${t.phone ? phone(t.phone) : '—'}</td>
          <td><span class="status bad">do not call</span> ${blockedWhy(t.blocked_reason)}</td>
          <td>${when(t.created_at, zone)}</td>
        </tr>`,
    ),
  );
}

function taskRow(t: CallTask, now: string, zone: string, csrf: string): Html {
  return html`<tr>
    <td><a href="/console/leads/${t.lead_id}">${t.name}</a></td>
    <td>${t.phone ? html`<a class="phone" href="tel:+1${t.phone}">${phone(t.phone)}</a>` : '—'}</td>
    <td>${clock(now, t.timezone)} (${t.timezone})</td>
    <td>
      ${t.calling_hours_open ? html`<span class="status ok">open: call now</span>` : html`<span class="status bad">closed: wait</span>`}
      <br /><small class="muted">${t.calling_hours}</small>
    </td>
    <td>${when(t.created_at, zone)}</td>
    <td>
      ${postForm(
        csrf,
        `/console/dial-queue/${t.task_id}/outcome`,
        html`<label class="sr-only" for="outcome-${t.task_id}">Outcome of the call to ${t.name}</label>
          <select id="outcome-${t.task_id}" name="outcome" required>
            <option value="">Choose…</option>
            ${CALL_OUTCOMES.map((o) => html`<option value="${o}">${OUTCOME_LABELS[o]}</option>`)}
            <option value="${SOLD}">Sold…</option>
          </select>
          <button type="submit">Save</button>`,
      )}
    </td>
  </tr>`;
}
