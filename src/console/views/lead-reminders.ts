import type { LeadReminder } from '../../automations/reminder-view.ts';
import { when } from '../format.ts';
import { html, type Html } from '../html.ts';
import { dataTable } from './components.ts';

const KIND_WORDS: Record<LeadReminder['kind'], string> = {
  day_before: 'A day before',
  hour_before: 'An hour before',
};

const STATUS_CLASS: Record<LeadReminder['status'], string> = {
  planned: 'status',
  sent: 'status ok',
  skipped: 'status bad',
};

/**
 * The reminder texts of the lead's appointments (docs/reminders.md): which, for which appointment,
 * when each goes in the agent's zone, its state and why.
 */
export function remindersSection(reminders: readonly LeadReminder[], zone: string): Html {
  return html`<section aria-labelledby="reminders-h">
    <h2 id="reminders-h">Reminders</h2>
    ${
      reminders.length
        ? dataTable(
            ['Reminder', 'Appointment', 'Goes', 'State', 'Why'],
            reminders.map(
              (r) =>
                html`<tr>
                  <td>${KIND_WORDS[r.kind]}</td>
                  <td>${when(r.appointment_at, zone)}</td>
                  <td>${when(r.due_at, zone)}</td>
                  <td><span class="${STATUS_CLASS[r.status]}">${r.status}</span></td>
                  <td>${r.reason ?? ''}</td>
                </tr>`,
            ),
            { caption: 'The texts before each appointment' },
          )
        : html`<p class="empty">
            None: an appointment booked for a prospect with a phone and texting consent gets a text a day and
            an hour before. <a href="/console/cadences#reminders-h">Reminders</a>
          </p>`
    }
  </section>`;
}
