import type { LeadCadence, PlanStep } from '../../automations/cadence-view.ts';
import type { CadenceStopReason } from '../../leads/cadence-stop.ts';
import type { CallOutcome } from '../../leads/lead-status.ts';
import { when } from '../format.ts';
import { html, type Html } from '../html.ts';
import { actionButton, dataTable } from './components.ts';
import { OUTCOME_LABELS } from './dial-queue.ts';

/** Why a plan stopped, as the agent reads it. */
export const STOP_WORDS: Record<CadenceStopReason, string> = {
  replied: 'the prospect replied',
  opted_out: 'the number opted out',
  do_not_contact: 'marked do not contact',
  appointment: 'an appointment was booked',
  reached: 'the prospect was reached',
  status: 'the lead’s status changed',
  agent: 'stopped by you',
};

const STATUS_CLASS: Record<PlanStep['status'], string> = {
  pending: 'status',
  done: 'status ok',
  skipped: 'status bad',
  canceled: 'status',
};

/** A step's reason in words: a stop reason or a call's outcome by its label, the rest as the plan says it. */
export function stepReason(reason: string | null): string {
  if (reason === null) return '';
  const stopped = /^(cadence stopped: )?(\w+)$/.exec(reason);
  const words = stopped ? STOP_WORDS[stopped[2] as CadenceStopReason] : undefined;
  if (words) return stopped?.[1] ? `cadence stopped: ${words}` : words;
  const called = /^called: (\w+)$/.exec(reason);
  const outcome = called ? OUTCOME_LABELS[called[1] as CallOutcome] : undefined;
  return outcome ? `called: ${outcome}` : reason;
}

/** What a plan's state says: active, completed, or stopped and why. */
function planState(c: LeadCadence): Html {
  if (c.status === 'active') return html`<span class="status ok">active</span>`;
  if (c.status === 'completed') return html`<span class="status">completed</span>`;
  const why = c.stopped_reason
    ? (STOP_WORDS[c.stopped_reason as CadenceStopReason] ?? c.stopped_reason)
    : null;
  return html`<span class="status bad">stopped</span>${why ? ` (${why})` : ''}`;
}

/**
 * The cadence the lead follows: its name and state, each step with its action, due time in the
 * agent's zone, state and why; "Stop cadence" (asked first) while it runs.
 */
export function cadenceSection(
  cadence: LeadCadence | null,
  d: { lead_id: string; name: string; zone: string; csrf: string },
): Html {
  return html`<section aria-labelledby="cadence-h">
    <h2 id="cadence-h">Cadence</h2>
    ${
      cadence
        ? html`<p>
              <strong>${cadence.name}</strong> · ${planState(cadence)} · started
              ${when(cadence.started_at, d.zone)}${
                cadence.ended_at ? html` · ended ${when(cadence.ended_at, d.zone)}` : ''
              }
            </p>
            ${dataTable(
              ['Step', 'Action', 'Due', 'State', 'Why'],
              cadence.steps.map(
                (s, i) =>
                  html`<tr>
                    <td>${i + 1}</td>
                    <td>${s.action === 'call' ? 'Call' : 'Text'}</td>
                    <td>${when(s.due_at, d.zone)}</td>
                    <td><span class="${STATUS_CLASS[s.status]}">${s.status}</span></td>
                    <td>${stepReason(s.reason)}</td>
                  </tr>`,
              ),
              { caption: `The steps of ${cadence.name}` },
            )}
            ${
              cadence.status === 'active'
                ? actionButton(d.csrf, `/console/leads/${d.lead_id}/cadence/stop`, 'Stop cadence', {
                    confirm: `Stop ${cadence.name} for ${d.name}? Its steps still to do are canceled.`,
                  })
                : ''
            }`
        : html`<p class="empty">
            None: a new lead follows the cadence its source names, else your default, from its delivery on.
            <a href="/console/cadences">Cadences</a>
          </p>`
    }
  </section>`;
}
