import { CADENCE_MAX_STEPS, CADENCE_PLACEHOLDERS, type CadenceStep } from '../../automations/cadence-plan.ts';
import type { CadenceRow } from '../../automations/cadence-repository.ts';
import { LIMITS } from '../../limits.ts';
import { DELAY_UNITS, delayText, type StepRow } from '../cadence-form.ts';
import { when } from '../format.ts';
import { html, type Html } from '../html.ts';
import type { AgentReminders } from '../../admin/agent-repository.ts';
import { actionButton, dataTable, postForm } from './components.ts';
import { reminderSettings } from './reminder-settings.ts';

/** What the cadences page says after an action, by the `done` it was sent back with. */
export const CADENCE_NOTICES = {
  created: 'Cadence saved. Choose it for a source on Sources, or make it your default.',
  saved: 'Cadence saved. Leads already following it keep the plan they were given.',
  deleted: 'Cadence deleted. Leads already following it finish their plan.',
  default: 'Default saved: new leads of sources that name no cadence follow it.',
  no_default: 'No default now: only sources that name a cadence start one.',
  reminders: 'Reminders saved. Turned on, they are planned for your appointments still to come.',
  reminders_refused:
    'Nothing was saved: a reminder’s words may use only {first_name}, {agent_name} and {appointment_time}.',
} as const;
export type CadenceNotice = keyof typeof CADENCE_NOTICES;

/** The editor's contents: the name and rows as typed, and why they were refused, if they were. */
export interface CadenceEditor {
  name: string;
  rows: readonly StepRow[];
  error?: string;
}

export interface CadencesData {
  cadences: readonly CadenceRow[];
  defaultId: string | null;
  reminders: AgentReminders;
  zone: string;
  csrf: string;
  editor: CadenceEditor;
  notice?: CadenceNotice;
}

const STEP_WORDS = { call: 'Call', text: 'Text' } as const;

/** A cadence's steps in a line: "Call at once · Text after 1 hour · Call after 1 day". */
export function stepsSummary(steps: readonly CadenceStep[]): string {
  return steps.map((s) => `${STEP_WORDS[s.action]} ${delayText(s.after_minutes)}`).join(' · ');
}

const placeholders = CADENCE_PLACEHOLDERS.map((p) => `{${p}}`).join(' and ');

/** The agent's cadences, which is the default, and the form to make one. */
export function cadencesPage(d: CadencesData): Html {
  return html`<main>
    <h1>Cadences</h1>
    <p>
      A cadence is a plan of calls and texts over days. A new lead follows the cadence its source names, else
      your default; its steps fall due after its delivery, moved into the prospect’s calling hours. Calls land
      in the <a href="/console/dial-queue">dial queue</a>; texts go out by themselves. A reply, an opt-out, an
      appointment or a reached call ends it.
    </p>
    ${d.notice ? html`<p class="notice" role="status">${CADENCE_NOTICES[d.notice]}</p>` : ''}
    ${
      d.cadences.length
        ? dataTable(
            ['Name', 'Steps', 'Default', 'Updated'],
            d.cadences.map((c) => cadenceRow(c, d)),
            { caption: 'Your cadences' },
          )
        : html`<p class="empty">No cadence yet: make the first below.</p>`
    }
    <section aria-labelledby="new-cadence-h" class="card">
      <h2 id="new-cadence-h">New cadence</h2>
      ${editorForm(d.csrf, '/console/cadences', d.editor, 'Save cadence')}
    </section>
    ${reminderSettings(d.reminders, d.csrf)}
  </main>`;
}

function cadenceRow(c: CadenceRow, d: CadencesData): Html {
  const isDefault = c.cadence_id === d.defaultId;
  return html`<tr>
    <td><a href="/console/cadences/${c.cadence_id}">${c.name}</a></td>
    <td>
      ${c.steps.length} ${c.steps.length === 1 ? 'step' : 'steps'}<br /><small class="muted"
        >${stepsSummary(c.steps)}</small
      >
    </td>
    <td>
      ${
        isDefault
          ? html`<span class="status ok">default</span>
              ${actionButton(d.csrf, '/console/cadences/default', 'No default', { fields: { cadence_id: '' } })}`
          : actionButton(
              d.csrf,
              '/console/cadences/default',
              html`Make default<span class="sr-only">: ${c.name}</span>`,
              {
                fields: { cadence_id: c.cadence_id },
              },
            )
      }
    </td>
    <td>${when(c.updated_at, d.zone)}</td>
  </tr>`;
}

/** One cadence: its form, prefilled, and deleting it (asked first). */
export function cadencePage(d: {
  cadence: CadenceRow;
  isDefault: boolean;
  csrf: string;
  editor: CadenceEditor;
}): Html {
  const { cadence, csrf } = d;
  return html`<main>
    <p><a href="/console/cadences">← Cadences</a></p>
    <h1>${cadence.name} ${d.isDefault ? html`<span class="status ok">default</span>` : ''}</h1>
    <p class="muted">${stepsSummary(cadence.steps)}</p>
    ${editorForm(csrf, `/console/cadences/${cadence.cadence_id}`, d.editor, 'Save changes')}
    <div class="actions">
      ${
        d.isDefault
          ? ''
          : actionButton(csrf, '/console/cadences/default', 'Make default', {
              fields: { cadence_id: cadence.cadence_id },
            })
      }
      ${actionButton(csrf, `/console/cadences/${cadence.cadence_id}/delete`, 'Delete cadence', {
        confirm: `Delete ${cadence.name}? Sources that name it fall back to your default; leads already following it finish their plan.`,
      })}
    </div>
  </main>`;
}

/**
 * The name and the steps as rows (delay and its unit, call or text, the text's words); blank rows
 * are skipped. "More rows" posts the form back with blank rows added, checking and saving nothing
 * (`formnovalidate`: a blank name does not stop it), so no script is needed.
 */
function editorForm(csrf: string, action: string, e: CadenceEditor, save: string): Html {
  return postForm(
    csrf,
    action,
    html`${e.error ? html`<p class="error" role="alert">${e.error}</p>` : ''}
      <label
        >Name
        <input
          name="name"
          required
          maxlength="${LIMITS.nameMaxLength}"
          value="${e.name}"
          placeholder="e.g. New lead, 2 weeks"
      /></label>
      <p class="muted">
        Each step falls due its delay after the lead’s delivery. Texts may use ${placeholders}. Blank rows are
        skipped; at most ${CADENCE_MAX_STEPS} steps, within 60 days.
      </p>
      <input type="hidden" name="rows" value="${e.rows.length}" />
      ${dataTable(['Step', 'After', 'Action', 'Text'], e.rows.map(stepRow), { caption: 'Steps' })}
      <div class="actions">
        <button type="submit">${save}</button>
        ${e.rows.length < CADENCE_MAX_STEPS ? html`<button type="submit" name="more" value="1" class="secondary" formnovalidate>More rows</button>` : ''}
      </div>`,
    'stack cadence',
  );
}

function stepRow(r: StepRow, i: number): Html {
  const n = i + 1;
  return html`<tr>
    <td>${n}</td>
    <td class="delay">
      <label
        ><span class="sr-only">Step ${n} delay</span>
        <input name="after_${n}" inputmode="numeric" size="4" value="${r.after}" placeholder="0"
      /></label>
      <label
        ><span class="sr-only">Step ${n} delay unit</span>
        <select name="unit_${n}">
          ${Object.keys(DELAY_UNITS).map((u) => html`<option value="${u}" ${u === r.unit ? html` selected` : ''}>${u}</option>`)}
        </select></label
      >
    </td>
    <td>
      <label
        ><span class="sr-only">Step ${n} action</span>
        <select name="action_${n}">
          <option value="">—</option>
          ${(['call', 'text'] as const).map(
            (a) =>
              html`<option value="${a}" ${a === r.action ? html` selected` : ''}>${STEP_WORDS[a]}</option>`,
          )}
        </select></label
      >
    </td>
    <td>
      <label
        ><span class="sr-only">Step ${n} text</span>
        <textarea name="body_${n}" rows="1" maxlength="${LIMITS.smsTemplateMaxLength}">${r.body}</textarea>
      </label>
    </td>
  </tr>`;
}
