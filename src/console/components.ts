import { html, type Html } from './html.ts';

/** A table in its scrolling box (narrow screens scroll the table, never the page). */
export function dataTable(
  headers: ReadonlyArray<string | Html>,
  rows: Html | Html[],
  opts: { caption?: string; body?: Html } = {},
): Html {
  return html`<div class="table-wrap">
    <table>
      ${
        opts.caption
          ? html`<caption class="sr-only">
              ${opts.caption}
            </caption>`
          : ''
      }
      <thead>
        <tr>
          ${headers.map((h) => html`<th scope="col">${h}</th>`)}
        </tr>
      </thead>
      <tbody${opts.body ?? ''}>
        ${rows}
      </tbody>
    </table>
  </div>`;
}

/** Label and value pairs, as a definition list. */
export function fieldList(entries: ReadonlyArray<readonly [label: string, value: string]>): Html {
  return html`<dl class="fields">
    ${entries.map(
      ([label, value]) =>
        html`<dt>${label}</dt>
          <dd>${value}</dd>`,
    )}
  </dl>`;
}

/** A select's options, with "Any" (empty) first; each value its own label unless given as a pair. */
export function options(
  values: ReadonlyArray<string | readonly [value: string, label: string]>,
  selected: string | undefined,
): Html {
  return html`<option value="">Any</option>
    ${values.map((v) => {
      const [value, label] = typeof v === 'string' ? [v, v] : v;
      return html`<option value="${value}" ${value === selected ? html` selected` : ''}>${label}</option>`;
    })}`;
}
