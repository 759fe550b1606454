import { CALL_OUTCOMES, STATUS_CHANGES, type LeadStatus } from '../../leads/lead-status.ts';
import { html, type Html } from '../html.ts';
import { actionButton, postForm } from './components.ts';
import { OUTCOME_LABELS } from './dial-queue.ts';

/** What the lead page says after an action, by the `done` it was sent back with. */
export const ACTION_NOTICES = {
  status: 'Status saved.',
  note: 'Note added to the history.',
  call: 'Call outcome saved.',
  dnc: 'Marked do not contact: no more texts or calls to this number.',
  refused: 'That was not saved: a status can only change as the list offers, and a note cannot be blank.',
} as const;
export type ActionNotice = keyof typeof ACTION_NOTICES;

export interface LeadActionsData {
  lead_id: string;
  status: LeadStatus;
  /** Whether the agent marked the lead "do not contact". */
  doNotContact: boolean;
  csrf: string;
}

/**
 * What the agent can do to a lead: change its status (only to what the table allows), add a note,
 * record a call, mark it "do not contact" (asked first). Each posts to the console's own route.
 */
export function leadActions({ lead_id, status, doNotContact, csrf }: LeadActionsData): Html {
  const base = `/console/leads/${lead_id}`;
  return html`<section aria-labelledby="act-h" class="card">
    <h2 id="act-h">Act on this lead</h2>
    <div class="act">
      ${postForm(
        csrf,
        `${base}/status`,
        html`<label
            >Status
            <select name="status" required>
              <option value="">Choose…</option>
              ${STATUS_CHANGES[status].map((s) => html`<option value="${s}">${s}</option>`)}
            </select></label
          >
          <button type="submit">Change status</button>`,
        'stack',
      )}
      ${postForm(
        csrf,
        `${base}/call`,
        html`<label
            >Call outcome
            <select name="outcome" required>
              <option value="">Choose…</option>
              ${CALL_OUTCOMES.map((o) => html`<option value="${o}">${OUTCOME_LABELS[o]}</option>`)}
            </select></label
          >
          <button type="submit">Save call</button>`,
        'stack',
      )}
      ${postForm(
        csrf,
        `${base}/notes`,
        html`<label for="note">Note</label>
          <textarea id="note" name="note" rows="2" maxlength="2000" required></textarea>
          <button type="submit">Add note</button>`,
        'stack note',
      )}
    </div>
    ${
      doNotContact
        ? html`<p><span class="status bad">Do not contact</span> No texts or calls go to this number.</p>`
        : actionButton(csrf, `${base}/do-not-contact`, 'Do not contact', {
            confirm:
              'No more texts or calls to this number from you, for this lead and any other with it. This cannot be undone here. Mark it?',
          })
    }
  </section>`;
}
