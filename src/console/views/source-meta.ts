import { LIMITS } from '../../limits.ts';
import type { SourceRow } from '../../sources/source-row.ts';
import { when } from '../format.ts';
import { html, type Html } from '../html.ts';
import { postForm } from './components.ts';

/** What the source's Meta connection is, in the agent's words. */
export function metaStatus(s: SourceRow, zone: string): Html {
  const { meta } = s;
  if (meta.reconnect_needed_since)
    return html`<p class="error" role="status">
      Meta: reconnect Meta.
      ${
        meta.page_access_token_set
          ? `The Graph API refused the page access token on ${when(meta.reconnect_needed_since, zone)}`
          : `Meta announced leads from ${when(meta.reconnect_needed_since, zone)} on, and no page access token is set`
      };
      the leads announced since wait for a new one.
    </p>`;
  const connected = meta.page_access_token_set && meta.app_secret_set;
  const words = connected
    ? `connected${meta.listen ? ', Listen: fetched leads become samples' : ''}`
    : meta.page_access_token_set || meta.app_secret_set || meta.verify_token_set
      ? 'partly set up (it needs the page access token and the app secret)'
      : 'not connected';
  return html`<p class="muted">
    Meta Lead Ads: ${words} · ${s.has_google_key ? 'Google lead form key set' : 'no Google lead form key'}
  </p>`;
}

const secretInput = (name: string, label: string, set: boolean) =>
  html`<label
    >${label}
    <input
      name="${name}"
      type="password"
      autocomplete="off"
      maxlength="${LIMITS.credentialMaxLength}"
      placeholder="${set ? 'set (enter a new one to replace it)' : 'not set'}"
  /></label>`;

/** The form that sets a source's Meta settings and Google key: blank fields are left as they are. */
export function metaForm(s: SourceRow, csrf: string): Html {
  const { meta } = s;
  return html`<details>
    <summary>Meta Lead Ads and Google lead forms</summary>
    ${postForm(
      csrf,
      `/console/sources/${s.source_id}/meta`,
      html`${secretInput('page_access_token', 'Page access token', meta.page_access_token_set)}
        ${secretInput('app_secret', 'App secret', meta.app_secret_set)}
        ${secretInput('verify_token', 'Verify token', meta.verify_token_set)}
        ${secretInput('google_key', 'Google lead form key', s.has_google_key)}
        <label
          >Fetched leads become
          <select name="mode">
            <option value="live" ${meta.listen ? '' : html` selected`}>leads</option>
            <option value="listen" ${meta.listen ? html` selected` : ''}>Listen samples</option>
          </select></label
        >
        <button type="submit">Save</button>
        ${
          meta.page_access_token_set || meta.app_secret_set || meta.verify_token_set
            ? html`<button
                type="submit"
                name="remove"
                value="1"
                class="danger"
                data-confirm="Disconnect Meta? Envelopes are refused until it is connected again."
              >
                Disconnect Meta
              </button>`
            : ''
        }`,
      'filters',
    )}
  </details>`;
}
