import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { requireSource } from '../admin/lookups.ts';
import { checkDestinationUrl } from '../automations/destination-address.ts';
import {
  createDestination,
  deleteDestination,
  listDestinations,
} from '../automations/destination-repository.ts';
import { DESTINATION_KINDS, type DestinationKind } from '../automations/payloads.ts';
import { LIMITS } from '../limits.ts';
import { stripUnstorable } from '../ingest/sanitize.ts';
import { isUuid } from '../sources/tokens.ts';
import {
  createSource,
  listSources,
  regenerateSourceToken,
  updateSource,
  type SourceRow,
} from '../sources/source-repository.ts';
import { html, type Html } from './html.ts';
import type { ConsoleDeps } from './deps.ts';
import { when } from './format.ts';
import { consolePage, csrfToken, signedIn, type SignedIn } from './context.ts';

type Form = Record<string, unknown>;
const text = (body: unknown, key: string) => {
  const value = (body as Form | undefined)?.[key];
  return typeof value === 'string' ? value.trim() : '';
};

/**
 * A form's text as typed, or why it cannot be kept: longer than the admin API takes, or with
 * characters PostgreSQL cannot hold. Never cut short: a signing key cut short would make every
 * signed event fail its check, and a name cut short is not the one typed.
 */
function fieldText(body: unknown, key: string, max: number): { value: string } | { refused: string } {
  const value = text(body, key);
  if (value.length > max) return { refused: `at most ${max} characters` };
  if (stripUnstorable(value) !== value) return { refused: 'no NUL or broken characters' };
  return { value };
}

function curl(base: string, token: string) {
  return `curl -X POST ${base}/inbound-lead-gateway \\\n  -H 'content-type: application/json' \\\n  -H 'x-source-token: ${token}' \\\n  -d '{"name": "Jane Doe", "phone": "(555) 123-4567", "email": "jane@example.com"}'`;
}

/** A value shown once (a token, a destination secret) with a copy button. */
function copyable(id: string, label: string, value: string) {
  return html`<div class="copy">
    <label for="${id}">${label}</label>
    <div class="copy-row">
      <input id="${id}" readonly value="${value}" /><button type="button" data-copy="${id}">Copy</button>
    </div>
  </div>`;
}

/** A small POST form: one button, its CSRF token, and hidden fields. */
function action(csrf: string, href: string, label: string, fields: Record<string, string> = {}, cls = '') {
  return html`<form method="post" action="${href}" class="inline">
    <input type="hidden" name="_csrf" value="${csrf}" />
    ${Object.entries(fields).map(([k, v]) => html`<input type="hidden" name="${k}" value="${v}" />`)}
    <button type="submit" ${cls ? html` class="${cls}"` : ''}>${label}</button>
  </form>`;
}

async function sourcesPage(
  deps: ConsoleDeps,
  reply: FastifyReply,
  me: SignedIn,
  notice?: Html,
  status = 200,
) {
  const csrf = csrfToken(reply);
  const sources = await listSources(deps.db, me.agent.agent_id);
  const destinations = await Promise.all(sources.map((s) => listDestinations(deps.db, s.source_id)));
  const base = deps.publicBaseUrl;
  reply.code(status);
  return consolePage(
    reply,
    me,
    'Sources',
    '/console/sources',
    html`<main>
      <h1>Lead sources</h1>
      <p>
        Each vendor, form or dialer gets its own source and token. Tokens are shown once: when a source is
        created and when its token is regenerated.
      </p>
      ${notice ?? ''}
      <form method="post" action="/console/sources" class="filters">
        <input type="hidden" name="_csrf" value="${csrf}" />
        <label
          >New source name
          <input
            name="name"
            required
            maxlength="${LIMITS.nameMaxLength}"
            placeholder="e.g. Facebook lead ads"
        /></label>
        <button type="submit">Create source</button>
      </form>
      ${sources.length === 0 ? html`<p class="empty">No sources yet: create one above, then give its token to your lead vendor.</p>` : ''}
      ${sources.map(
        (s, i) =>
          html`<section class="card" aria-labelledby="src-${s.source_id}">
            <h2 id="src-${s.source_id}">
              ${s.name} <span class="status">${s.active ? 'active' : 'disabled'}</span>
            </h2>
            <p class="muted">
              Created ${when(s.created_at, me.agent.timezone)} ·
              ${s.has_signing_key ? 'scheduler signing key set' : 'no scheduler signing key'}
            </p>
            <p>
              Webhook URL (token in the <code>x-source-token</code> header):
              <code>${base}/inbound-lead-gateway</code>; or with the token in the path:
              <code>${base}/inbound-lead-gateway/v/YOUR_TOKEN</code>
            </p>
            <details>
              <summary>curl example</summary>
              <pre>${curl(base, 'YOUR_TOKEN')}</pre>
            </details>
            <div class="actions">
              ${action(csrf, `/console/sources/${s.source_id}/regenerate`, 'Regenerate token')}
              ${action(csrf, `/console/sources/${s.source_id}/active`, s.active ? 'Disable' : 'Enable', { active: s.active ? 'false' : 'true' })}
            </div>
            <form method="post" action="/console/sources/${s.source_id}/signing-key" class="filters">
              <input type="hidden" name="_csrf" value="${csrf}" />
              <label
                >Scheduler signing key
                <input
                  name="signing_key"
                  type="password"
                  autocomplete="off"
                  maxlength="${LIMITS.signingKeyMaxLength}"
                  placeholder="${s.has_signing_key ? 'set (enter a new one to replace it)' : 'not set'}"
              /></label>
              <button type="submit">Save key</button>
              ${s.has_signing_key ? html`<button type="submit" name="remove" value="1">Remove key</button>` : ''}
            </form>
            <h3>Destinations</h3>
            ${
              (destinations[i] ?? []).length
                ? html`<ul>
                    ${(destinations[i] ?? []).map(
                      (d) =>
                        html`<li>
                          ${d.kind} → <code>${d.url}</code>${d.active ? '' : ' (disabled)'}
                          ${action(csrf, `/console/destinations/${d.destination_id}/remove`, 'Remove')}
                        </li>`,
                    )}
                  </ul>`
                : html`<p class="empty">No destinations: new leads stay here only.</p>`
            }
            <form method="post" action="/console/sources/${s.source_id}/destinations" class="filters">
              <input type="hidden" name="_csrf" value="${csrf}" />
              <label
                >Kind
                <select name="kind">
                  ${DESTINATION_KINDS.map((k) => html`<option>${k}</option>`)}
                </select></label
              >
              <label
                >URL <input name="url" type="url" required placeholder="https://crm.example.com/hooks/leads"
              /></label>
              <button type="submit">Add destination</button>
            </form>
          </section>`,
      )}
    </main>`,
  );
}

export function registerSourcePages(scope: FastifyInstance, deps: ConsoleDeps): void {
  const post = scope.csrfProtection;
  /** A form posted about one of the agent's sources: CSRF checked, the agent and the source loaded. */
  const onSource = (
    path: string,
    handle: (
      me: SignedIn,
      source: SourceRow,
      request: FastifyRequest,
      reply: FastifyReply,
    ) => Promise<unknown>,
  ) =>
    scope.post<{ Params: { source_id: string } }>(path, { preHandler: post }, async (request, reply) => {
      const me = await signedIn(deps, request);
      const source = await requireSource(deps.db, request.params.source_id, me.agent.agent_id);
      return handle(me, source, request, reply);
    });
  scope.get('/sources', async (request, reply) => sourcesPage(deps, reply, await signedIn(deps, request)));

  scope.post('/sources', { preHandler: post }, async (request, reply) => {
    const me = await signedIn(deps, request);
    const name = fieldText(request.body, 'name', LIMITS.nameMaxLength);
    if (!('value' in name) || !name.value)
      return sourcesPage(
        deps,
        reply,
        me,
        html`<p class="error" role="alert">
          ${'refused' in name ? `A source's name must have ${name.refused}.` : 'Give the source a name.'}
        </p>`,
        400,
      );
    const { source, token } = await createSource(deps.db, me.agent.agent_id, name.value);
    return sourcesPage(deps, reply, me, tokenNotice(deps, source.name, token, 'created'));
  });

  onSource('/sources/:source_id/regenerate', async (me, source, request, reply) => {
    const regenerated = await regenerateSourceToken(deps.db, source.source_id);
    if (!regenerated)
      return sourcesPage(deps, reply, me, html`<p class="error" role="alert">That source is gone.</p>`, 404);
    return sourcesPage(
      deps,
      reply,
      me,
      tokenNotice(deps, source.name, regenerated.token, 'regenerated: the old token is refused from now on'),
    );
  });

  onSource('/sources/:source_id/active', async (me, source, request, reply) => {
    const active = text(request.body, 'active') === 'true';
    await updateSource(deps.db, source.source_id, { active });
    return reply.redirect('/console/sources', 303);
  });

  onSource('/sources/:source_id/signing-key', async (me, source, request, reply) => {
    const key = fieldText(request.body, 'signing_key', LIMITS.signingKeyMaxLength);
    if (text(request.body, 'remove') === '1')
      await updateSource(deps.db, source.source_id, { signing_key: null });
    else if ('refused' in key)
      return sourcesPage(
        deps,
        reply,
        me,
        html`<p class="error" role="alert">A signing key must have ${key.refused}; it was not changed.</p>`,
        400,
      );
    else if (key.value) await updateSource(deps.db, source.source_id, { signing_key: key.value });
    return reply.redirect('/console/sources', 303);
  });

  onSource('/sources/:source_id/destinations', async (me, source, request, reply) => {
    const kind = text(request.body, 'kind') as DestinationKind;
    const typed = fieldText(request.body, 'url', LIMITS.destinationUrlMaxLength);
    const url = 'value' in typed ? typed.value : '';
    const check =
      'value' in typed
        ? await checkDestinationUrl(url, deps.allowPrivateDestinations ?? false)
        : { ok: false as const, reason: `a URL must have ${typed.refused}` };
    if (!DESTINATION_KINDS.includes(kind) || !check.ok) {
      const why = check.ok ? 'Pick a kind.' : `That URL cannot be used: ${check.reason}.`;
      return sourcesPage(deps, reply, me, html`<p class="error" role="alert">${why}</p>`, 400);
    }
    const { destination, secret } = await createDestination(deps.db, {
      agent_id: me.agent.agent_id,
      source_id: source.source_id,
      kind,
      url,
      events: null,
    });
    return sourcesPage(
      deps,
      reply,
      me,
      html`<section class="notice" role="status">
        <p>
          Destination added: ${destination.url}. Its signing secret is shown once; the receiver verifies each
          request with it (Standard Webhooks).
        </p>
        ${copyable('new-secret', 'Signing secret', secret)}
      </section>`,
    );
  });

  scope.post<{ Params: { destination_id: string } }>(
    '/destinations/:destination_id/remove',
    { preHandler: post },
    async (request, reply) => {
      const me = await signedIn(deps, request);
      const id = request.params.destination_id;
      if (isUuid(id)) await deleteDestination(deps.db, id, me.agent.agent_id);
      return reply.redirect('/console/sources', 303);
    },
  );
}

function tokenNotice(deps: ConsoleDeps, name: string, token: string, what: string) {
  return html`<section class="notice" role="status">
    <p>Token for ${name} ${what}. Copy it now: it is not shown again.</p>
    ${copyable('new-token', 'Source token', token)}
    ${copyable('new-url', 'Webhook URL with the token in the path', `${deps.publicBaseUrl}/inbound-lead-gateway/v/${token}`)}
    <pre>${curl(deps.publicBaseUrl, token)}</pre>
  </section>`;
}
