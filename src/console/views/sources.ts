import { DESTINATION_KINDS } from '../../automations/payloads.ts';
import type { DestinationView } from '../../automations/destination-repository.ts';
import { LIMITS } from '../../limits.ts';
import type { SourceRow } from '../../sources/source-row.ts';
import { when } from '../format.ts';
import { html, type Html } from '../html.ts';
import { actionButton, copyable, postForm } from './components.ts';
import { metaForm, metaStatus } from './source-meta.ts';
import { termsForm, termsSummary } from './source-terms.ts';

export interface SourcesData {
  sources: ReadonlyArray<SourceRow & { destinations: DestinationView[] }>;
  /** The agent's cadences, for each source's choice, and the agent's default (null: none). */
  cadences: ReadonlyArray<{ cadence_id: string; name: string }>;
  defaultCadenceId: string | null;
  zone: string;
  csrf: string;
  /** The gateway's URL, without a token and with a placeholder one. */
  gatewayUrl: string;
  gatewayUrlWithToken: string;
  /** What the last action came to (a token shown once, a refusal), above the list. */
  notice?: Html;
}

/** What a sender runs to deliver a lead with `token`. */
export function curlExample(gatewayUrl: string, token: string): string {
  return `curl -X POST ${gatewayUrl} \\\n  -H 'content-type: application/json' \\\n  -H 'x-source-token: ${token}' \\\n  -d '{"name": "Jane Doe", "phone": "(555) 123-4567", "email": "jane@example.com"}'`;
}

/** The agent's lead sources: create one; each with its token actions, signing key and destinations. */
export function sourcesPage(d: SourcesData): Html {
  return html`<main>
    <h1>Lead sources</h1>
    <p>
      Each vendor, form or dialer gets its own source and token. Tokens are shown once: when a source is
      created and when its token is regenerated.
    </p>
    ${d.notice ?? ''}
    ${postForm(
      d.csrf,
      '/console/sources',
      html`<label
          >New source name
          <input
            name="name"
            required
            maxlength="${LIMITS.nameMaxLength}"
            placeholder="e.g. Facebook lead ads"
        /></label>
        <button type="submit">Create source</button>`,
      'filters',
    )}
    ${d.sources.length === 0 ? html`<p class="empty">No sources yet: create one above, then give its token to your lead vendor.</p>` : ''}
    ${d.sources.map((s) => sourceCard(s, d))}
  </main>`;
}

function sourceCard(s: SourcesData['sources'][number], d: SourcesData): Html {
  const { csrf } = d;
  return html`<section class="card" aria-labelledby="src-${s.source_id}">
    <h2 id="src-${s.source_id}">${s.name} <span class="status">${s.active ? 'active' : 'disabled'}</span></h2>
    <p class="muted">
      Created ${when(s.created_at, d.zone)} ·
      ${s.has_signing_key ? 'scheduler signing key set' : 'no scheduler signing key'}
    </p>
    ${metaStatus(s, d.zone)} ${termsSummary(s)}
    <p>
      Webhook URL (token in the <code>x-source-token</code> header): <code>${d.gatewayUrl}</code>; or with the
      token in the path: <code>${d.gatewayUrlWithToken}</code>
    </p>
    <details>
      <summary>curl example</summary>
      <pre>${curlExample(d.gatewayUrl, 'YOUR_TOKEN')}</pre>
    </details>
    <div class="actions">
      ${actionButton(csrf, `/console/sources/${s.source_id}/regenerate`, 'Regenerate token', {
        confirm: `Regenerate the token of ${s.name}? The old token is refused at once.`,
      })}
      ${actionButton(csrf, `/console/sources/${s.source_id}/active`, s.active ? 'Disable' : 'Enable', {
        fields: { active: s.active ? 'false' : 'true' },
        ...(s.active
          ? { confirm: `Disable ${s.name}? Its token is refused until you enable it again.` }
          : {}),
      })}
    </div>
    ${postForm(
      csrf,
      `/console/sources/${s.source_id}/signing-key`,
      html`<label
          >Scheduler signing key
          <input
            name="signing_key"
            type="password"
            autocomplete="off"
            maxlength="${LIMITS.signingKeyMaxLength}"
            placeholder="${s.has_signing_key ? 'set (enter a new one to replace it)' : 'not set'}"
        /></label>
        <button type="submit">Save key</button>
        ${
          s.has_signing_key
            ? html`<button
                type="submit"
                name="remove"
                value="1"
                class="danger"
                data-confirm="Remove the signing key? Scheduler events are no longer checked."
              >
                Remove key
              </button>`
            : ''
        }`,
      'filters',
    )}
    ${cadenceChoice(s, d)} ${metaForm(s, csrf)} ${termsForm(s, csrf)}
    <h3>Destinations</h3>
    ${
      s.destinations.length
        ? html`<ul>
            ${s.destinations.map(
              (dest) =>
                html`<li>
                  ${dest.kind} → <code>${dest.url}</code>${dest.active ? '' : ' (disabled)'}
                  ${actionButton(csrf, `/console/destinations/${dest.destination_id}/remove`, 'Remove', {
                    confirm: `Stop sending to ${dest.url}? Its pending deliveries are canceled.`,
                  })}
                </li>`,
            )}
          </ul>`
        : html`<p class="empty">No destinations: new leads stay here only.</p>`
    }
    ${postForm(
      csrf,
      `/console/sources/${s.source_id}/destinations`,
      html`<label
          >Kind
          <select name="kind">
            ${DESTINATION_KINDS.map((k) => html`<option>${k}</option>`)}
          </select></label
        >
        <label
          >URL <input name="url" type="url" required placeholder="https://crm.example.com/hooks/leads"
        /></label>
        <button type="submit">Add destination</button>`,
      'filters',
    )}
  </section>`;
}

/** The cadence the source's new leads follow: one of the agent's, or the agent's default. */
function cadenceChoice(s: SourceRow, d: SourcesData): Html {
  if (d.cadences.length === 0)
    return html`<p class="muted">
      New leads follow no cadence: <a href="/console/cadences">make one</a> to plan their calls and texts.
    </p>`;
  const fallback = d.cadences.find((c) => c.cadence_id === d.defaultCadenceId);
  return postForm(
    d.csrf,
    `/console/sources/${s.source_id}/cadence`,
    html`<label
        >Cadence its new leads follow
        <select name="cadence_id">
          <option value="">Your default (${fallback ? fallback.name : 'none set'})</option>
          ${d.cadences.map(
            (c) =>
              html`<option value="${c.cadence_id}" ${c.cadence_id === s.cadence_id ? html` selected` : ''}>
                ${c.name}
              </option>`,
          )}
        </select></label
      >
      <button type="submit">Save cadence</button>`,
    'filters',
  );
}

/** A source's token, shown once, with its webhook URL and a curl line to try it. */
export function tokenNotice(
  name: string,
  issued: { token: string; webhook_url: string },
  what: string,
  gatewayUrl: string,
): Html {
  return html`<section class="notice" role="status">
    <p>Token for ${name} ${what}. Copy it now: it is not shown again.</p>
    ${copyable('new-token', 'Source token', issued.token)}
    ${copyable('new-url', 'Webhook URL with the token in the path', issued.webhook_url)}
    <pre>${curlExample(gatewayUrl, issued.token)}</pre>
  </section>`;
}

/** A new destination's signing secret, shown once. */
export function destinationNotice(url: string, secret: string): Html {
  return html`<section class="notice" role="status">
    <p>
      Destination added: ${url}. Its signing secret is shown once; the receiver verifies each request with it
      (Standard Webhooks).
    </p>
    ${copyable('new-secret', 'Signing secret', secret)}
  </section>`;
}

/** Why a form changed nothing. */
export const refusal = (words: string): Html => html`<p class="error" role="alert">${words}</p>`;
