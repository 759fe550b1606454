import type { AgentReminders } from '../../admin/agent-repository.ts';
import { DEFAULT_REMINDER_TEMPLATE, REMINDER_PLACEHOLDERS } from '../../automations/reminder-plan.ts';
import { LIMITS } from '../../limits.ts';
import { html, type Html } from '../html.ts';
import { postForm } from './components.ts';

const placeholders = REMINDER_PLACEHOLDERS.map((p) => `{${p}}`).join(', ');

const box = (name: keyof AgentReminders, on: boolean, label: string) =>
  html`<label><input type="checkbox" name="${name}" value="on" ${on ? 'checked' : ''} /> ${label}</label>`;

const templateBox = (template: string | null) =>
  html`<textarea
    id="reminder-template"
    name="template"
    rows="2"
    maxlength="${LIMITS.smsTemplateMaxLength}"
    placeholder="${DEFAULT_REMINDER_TEMPLATE}"
  >
${template ?? ''}</textarea>`;

/**
 * The agent's reminder texts before each appointment (docs/reminders.md): the two switches and the
 * words, blank for the default.
 */
export function reminderSettings(r: AgentReminders, csrf: string): Html {
  return html`<section aria-labelledby="reminders-h" class="card">
    <h2 id="reminders-h">Appointment reminders</h2>
    <p>
      A text to the prospect before each appointment, inside their calling hours (else at the last minute
      allowed before it), when they have a phone and texting consent.
    </p>
    ${postForm(
      csrf,
      '/console/cadences/reminders',
      html`${box('day_before', r.day_before, 'A day before')}
        ${box('hour_before', r.hour_before, 'An hour before')}
        <label for="reminder-template">Words (blank: the default; ${placeholders})</label>
        ${templateBox(r.template)}
        <button type="submit">Save reminders</button>`,
      'stack answer',
    )}
  </section>`;
}
