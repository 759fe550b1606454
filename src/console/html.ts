/**
 * HTML by tagged templates: every interpolated value is escaped unless it is already `Html` (made
 * by `html` itself or `raw`), so a lead's name can never become markup. Arrays are joined.
 */
export class Html {
  constructor(readonly text: string) {}
  toString(): string {
    return this.text;
  }
}

const ESCAPES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};

export function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (c) => ESCAPES[c] ?? c);
}

type Part = Html | string | number | boolean | null | undefined | readonly Part[];

function render(value: Part): string {
  if (value === null || value === undefined || value === false) return '';
  if (value instanceof Html) return value.text;
  if (Array.isArray(value)) return value.map((v: Part) => render(v)).join('');
  return escapeHtml(String(value as string | number | boolean));
}

export function html(strings: TemplateStringsArray, ...values: Part[]): Html {
  let out = strings[0] ?? '';
  values.forEach((value, i) => {
    out += render(value) + (strings[i + 1] ?? '');
  });
  return new Html(out);
}

/** Pretty JSON for a <pre>, escaped. */
export const jsonBlock = (value: unknown) => html`<pre class="json">${JSON.stringify(value, null, 2)}</pre>`;
