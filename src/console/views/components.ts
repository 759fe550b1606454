import { html, type Html } from '../html.ts';

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

/** A section of the page listing `items`, each by `item`; `empty` says why there are none. */
export function listSection<T>(
  id: string,
  title: string,
  items: readonly T[],
  item: (x: T) => Html,
  empty: string,
): Html {
  return html`<section aria-labelledby="${id}-h">
    <h2 id="${id}-h">${title}</h2>
    ${
      items.length
        ? html`<ul>
            ${items.map((x) => html`<li>${item(x)}</li>`)}
          </ul>`
        : html`<p class="empty">${empty}</p>`
    }
  </section>`;
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

/** A form that posts to the console: its CSRF token (bound to the session) first, then `body`. */
export function postForm(csrf: string, action: string, body: Html | Html[], cls = 'inline'): Html {
  return html`<form method="post" action="${action}" class="${cls}">
    <input type="hidden" name="_csrf" value="${csrf}" />
    ${body}
  </form>`;
}

export interface ActionOptions {
  /** Hidden fields posted with the button. */
  fields?: Record<string, string>;
  /**
   * A destructive action: drawn as such, and asked to confirm with this question first (by the
   * static console.js, `data-confirm`: the pages run no inline script).
   */
  confirm?: string;
}

/** A one-button form: regenerate, disable, remove, retry. */
export function actionButton(
  csrf: string,
  action: string,
  label: string | Html,
  opts: ActionOptions = {},
): Html {
  return postForm(
    csrf,
    action,
    html`${Object.entries(opts.fields ?? {}).map(([k, v]) => html`<input type="hidden" name="${k}" value="${v}" />`)}
      <button type="submit" ${opts.confirm ? html` class="danger" data-confirm="${opts.confirm}"` : ''}>
        ${label}
      </button>`,
  );
}

/** A value shown once (a token, a destination secret), with a copy button. */
export function copyable(id: string, label: string, value: string): Html {
  return html`<div class="copy">
    <label for="${id}">${label}</label>
    <div class="copy-row">
      <input id="${id}" readonly value="${value}" /><button type="button" data-copy="${id}">Copy</button>
    </div>
  </div>`;
}

/** The links under a paged table: back to the newest page, on to older rows (`rows`: what they are). */
export function pager(links: { newest?: string | null; older?: string | null }, rows: string): Html {
  return html`<nav class="pager" aria-label="Pages">
    ${links.newest ? html`<a href="${links.newest}">Newest</a>` : ''}
    ${links.older ? html`<a href="${links.older}">Older ${rows} →</a>` : ''}
  </nav>`;
}
