import { RETURN_REASONS } from '../../economics/return-rules.ts';
import { CALL_OUTCOMES, STATUS_CHANGES, type LeadStatus } from '../../leads/lead-status.ts';
import { LIMITS } from '../../limits.ts';
import { dollars } from '../../money.ts';
import { html, type Html } from '../html.ts';
import { actionButton, postForm } from './components.ts';
import { OUTCOME_LABELS } from './dial-queue.ts';

/** What the lead page says after an action, by the `done` it was sent back with. */
export const ACTION_NOTICES = {
  status: 'Status saved.',
  note: 'Note added to the history.',
  call: 'Call outcome saved.',
  dnc: 'Marked do not contact: no more texts or calls to this number.',
  cadence_stopped: 'Cadence stopped: its steps still to do are canceled.',
  cadence_refused: 'Nothing to stop: this lead follows no cadence.',
  refused: 'That was not saved: a status can only change as the list offers, and a note cannot be blank.',
  sell: 'Call saved as reached. Enter the premium below to record the sale.',
  sold: 'Sale recorded: the lead is Sold.',
  sale_refused: 'No sale recorded: the premium is dollars and cents, such as 1200 or 1200.50.',
  sale_too_large: `No sale recorded: a premium is at most ${dollars(LIMITS.premiumMaxCents)}.`,
  returned: 'Returned to the vendor, with the evidence; it counts as credited once they say so.',
  RETURN_WINDOW_CLOSED: 'Not returned: the source’s return window has closed.',
  ALREADY_RETURNED: 'Not returned: this purchase was already returned.',
  NOTHING_TO_RETURN: 'Not returned: no delivery of this lead was billed.',
  texted: 'Text written: it goes out in a moment, and shows in the thread as it does.',
  text_refused: 'Not sent: a text is 1 to 1,600 characters.',
  CONTACT_OPTED_OUT: 'Not sent: the number opted out or is marked do not contact.',
  CONTACT_SCREENED: 'Not sent: the number is on a list that stops texts (see Compliance in the docs).',
  LEAD_HAS_NO_PHONE: 'Not sent: the lead has no phone number.',
  OUTSIDE_CALLING_HOURS:
    'Not sent: it is outside the prospect’s calling hours, and they have not written in the last 24 hours. Try again when their hours open.',
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
    <div class="act">
      ${postForm(
        csrf,
        `${base}/sale`,
        html`<label id="sale"
            >Sold: premium ($)
            <input name="premium" inputmode="decimal" pattern="\\d+(\\.\\d{1,2})?" required
          /></label>
          <label>Product <input name="product" maxlength="200" /></label>
          <button type="submit">Record sale</button>`,
        'stack',
      )}
      ${postForm(
        csrf,
        `${base}/return`,
        html`<label
            >Return to vendor
            <select name="reason" required>
              <option value="">Why…</option>
              ${RETURN_REASONS.map((r) => html`<option value="${r}">${REASON_LABELS[r]}</option>`)}
            </select></label
          >
          <label>Note to the vendor <input name="note" maxlength="2000" /></label>
          <button type="submit">Return lead</button>`,
        'stack',
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

/** The return reasons as the agent reads them. */
export const REASON_LABELS: Record<(typeof RETURN_REASONS)[number], string> = {
  disconnected: 'Disconnected number',
  wrong_number: 'Wrong number',
  duplicate: 'Duplicate',
  out_of_area: 'Out of area',
  consumer_denies: 'Consumer denies asking',
  age: 'Age out of range',
  fraud: 'Fraud',
  other: 'Other',
};
