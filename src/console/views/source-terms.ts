import type { SourceRow } from '../../sources/source-row.ts';
import { dollars, plainDollars } from '../../money.ts';
import { html, type Html } from '../html.ts';
import { postForm } from './components.ts';

/** A source's terms in a line: its price, its rules, its caps. */
export function termsSummary(s: SourceRow): Html {
  const { accept, caps } = s;
  const rules = [
    accept.states ? `states ${accept.states.join(', ')}` : null,
    accept.min_age !== undefined ? `age ${accept.min_age}+` : null,
    accept.max_age !== undefined ? `age up to ${accept.max_age}` : null,
    accept.require_consent ? 'consent evidence required' : null,
  ].filter((r) => r !== null);
  const limits = [
    caps.daily !== undefined ? `${caps.daily} a day` : null,
    caps.monthly !== undefined ? `${caps.monthly} a month` : null,
  ].filter((c) => c !== null);
  return html`<p class="muted">
    ${dollars(s.price_cents)} a lead · returns within ${s.return_window_hours} h · repeats within
    ${s.duplicate_days} days not billed · takes ${rules.length ? rules.join(', ') : 'every lead'} ·
    ${limits.length ? `at most ${limits.join(' and ')}` : 'no cap'}
  </p>`;
}

const number = (name: string, label: string, value: number | undefined, placeholder: string) =>
  html`<label
    >${label}
    <input
      name="${name}"
      inputmode="numeric"
      value="${value === undefined ? '' : String(value)}"
      placeholder="${placeholder}"
  /></label>`;

/** The form that sets the terms: a blank rule or cap is none. */
export function termsForm(s: SourceRow, csrf: string): Html {
  const { accept, caps } = s;
  return html`<details>
    <summary>Price, acceptance rules and caps</summary>
    ${postForm(
      csrf,
      `/console/sources/${s.source_id}/terms`,
      html`<label
          >Price a lead (dollars)
          <input name="price" inputmode="decimal" value="${plainDollars(s.price_cents)}"
        /></label>
        ${number('return_window_hours', 'Return window (hours)', s.return_window_hours, '72')}
        ${number('duplicate_days', 'Repeats not billed within (days)', s.duplicate_days, '30')}
        <label
          >States taken
          <input name="states" value="${(accept.states ?? []).join(', ')}" placeholder="any, or e.g. TX, OK"
        /></label>
        ${number('min_age', 'Youngest age', accept.min_age, 'any')}
        ${number('max_age', 'Oldest age', accept.max_age, 'any')}
        <label
          ><input type="checkbox" name="require_consent" ${accept.require_consent ? html` checked` : ''} />
          Require consent evidence (certificate or LeadiD)</label
        >
        ${number('daily', 'Daily cap', caps.daily, 'none')}
        ${number('monthly', 'Monthly cap', caps.monthly, 'none')}
        <button type="submit">Save terms</button>`,
      'filters',
    )}
  </details>`;
}
