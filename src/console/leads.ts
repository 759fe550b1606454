import type { FastifyInstance } from 'fastify';
import { parseLeadListQuery } from '../admin/list-queries.ts';
import { LeadListQuery } from '../admin/schemas/leads.ts';
import { queryValue } from './query.ts';
import { LEAD_CATEGORY_SYNONYMS } from '../ingest/tables/synonyms.ts';
import { LEAD_STATUSES } from '../leads/lead-status.ts';
import { encodeLeadCursor, listLeads, type LeadView } from '../leads/lead-queries.ts';
import { listSources } from '../sources/source-repository.ts';
import { dataTable, options } from './components.ts';
import { html } from './html.ts';
import type { ConsoleDeps } from './deps.ts';
import { when } from './format.ts';
import { consolePage, signedIn } from './context.ts';

/** How the first page follows new leads: htmx asks for its rows again every 2 s. */
const POLL = 'every 2s';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * The list's filters from the query string, checked by the admin API's own schema and rules
 * (`validationError`: what the schema found); a bad value is dropped with a note, never a 500.
 */
function filters(query: unknown, validationError: Error | undefined) {
  if (validationError) throw validationError;
  const source = queryValue(query, 'source') ?? '';
  const wanted = queryValue(query, 'category') ?? '';
  const category = Object.hasOwn(LEAD_CATEGORY_SYNONYMS, wanted) ? wanted : '';
  const parsed = parseLeadListQuery(query as Record<string, string | undefined>);
  return {
    ...parsed,
    ...(UUID.test(source) ? { source_id: source } : {}),
    ...(category ? { category } : {}),
  };
}

function rows(leads: LeadView[], zone: string, sourceNames: Map<string, string>) {
  if (leads.length === 0) {
    return html`<tr>
      <td colspan="6" class="empty">No leads match these filters.</td>
    </tr>`;
  }
  return leads.map(
    (l) =>
      html`<tr>
        <td><a href="/console/leads/${l.lead_id}">${l.name}</a></td>
        <td>${(l.phone as string | null) ?? '—'}</td>
        <td>${(l.email as string | null) ?? '—'}</td>
        <td><span class="status">${l.status}</span></td>
        <td>${sourceNames.get(l.source_id) ?? '—'}</td>
        <td>${when(l.created_at, zone)}</td>
      </tr>`,
  );
}

export function registerLeadsPages(scope: FastifyInstance, deps: ConsoleDeps): void {
  const checked = { schema: { querystring: LeadListQuery }, attachValidation: true };
  scope.get('/leads', checked, async (request, reply) => {
    const me = await signedIn(deps, request);
    let query;
    let problem = '';
    try {
      query = filters(request.query, request.validationError);
    } catch (err) {
      problem =
        err instanceof Error && 'details' in err
          ? String((err as { details?: string }).details)
          : 'Bad filter';
      query = {};
    }
    const [page, sources] = await Promise.all([
      listLeads(deps.db, me.agent.agent_id, query),
      listSources(deps.db, me.agent.agent_id),
    ]);
    const names = new Map(sources.map((s) => [s.source_id, s.name]));
    // The filters as the page shows them; a repeated one was already refused above, with a note.
    const q = (k: string) => {
      try {
        return queryValue(request.query, k) ?? '';
      } catch {
        return '';
      }
    };
    const status = LEAD_STATUSES.find((s) => s.toLowerCase() === q('status').toLowerCase());
    const firstPage = !q('cursor');
    const live = new URLSearchParams(
      Object.entries({ status: q('status'), source: q('source'), category: q('category'), q: q('q') }).filter(
        ([, v]) => v,
      ),
    ).toString();
    const next = page.next_cursor
      ? `/console/leads?${new URLSearchParams({ ...Object.fromEntries(new URLSearchParams(live)), cursor: encodeLeadCursor(page.next_cursor) }).toString()}`
      : null;
    const pollUrl = `/console/leads/rows${live ? `?${live}` : ''}`;
    const anyLeads = page.leads.length > 0 || !!live || !firstPage;
    return consolePage(
      reply,
      me,
      'Leads',
      '/console/leads',
      html`<main>
        <h1>Leads</h1>
        ${problem ? html`<p class="error" role="alert">${problem}</p>` : ''}
        ${
          anyLeads
            ? ''
            : html`<section class="empty-state">
                <h2>No leads yet</h2>
                <p>
                  Send one with your source's token, from <a href="/console/sources">Sources</a>, for example:
                </p>
                <pre>
curl -X POST ${deps.publicBaseUrl}/inbound-lead-gateway -H 'content-type: application/json' -H 'x-source-token: YOUR_TOKEN' -d '{"name":"Jane Doe","phone":"(555) 123-4567"}'</pre>
              </section>`
        }
        <form method="get" action="/console/leads" class="filters" role="search">
          <label
            >Search <input type="search" name="q" value="${q('q')}" placeholder="Name, phone or email"
          /></label>
          <label
            >Status
            <select name="status">
              ${options(LEAD_STATUSES, status)}
            </select></label
          >
          <label
            >Source
            <select name="source">
              ${options(
                sources.map((s) => [s.source_id, s.name] as const),
                q('source'),
              )}
            </select></label
          >
          <label
            >Category
            <select name="category">
              ${options(Object.keys(LEAD_CATEGORY_SYNONYMS), q('category'))}
            </select></label
          >
          <button type="submit">Filter</button>
        </form>
        ${dataTable(
          ['Name', 'Phone', 'Email', 'Status', 'Source', `Received (${me.agent.timezone})`],
          rows(page.leads, me.agent.timezone, names),
          {
            caption: `Leads, newest first${firstPage ? ', updated live' : ''}`,
            body: firstPage
              ? html` id="lead-rows" hx-get="${pollUrl}" hx-trigger="${POLL}" hx-swap="innerHTML"`
              : html` id="lead-rows"`,
          },
        )}
        <nav class="pager" aria-label="Pages">
          ${firstPage ? '' : html`<a href="/console/leads${live ? `?${live}` : ''}">Newest</a>`}
          ${next ? html`<a href="${next}">Older leads →</a>` : ''}
        </nav>
      </main>`,
    );
  });

  // The first page's rows, polled every 2 s: a new lead shows without reloading.
  scope.get('/leads/rows', checked, async (request, reply) => {
    const me = await signedIn(deps, request);
    let query = {};
    try {
      query = filters(request.query, request.validationError);
    } catch {
      // the page said what was wrong; the poll shows the unfiltered list
    }
    const [page, sources] = await Promise.all([
      listLeads(deps.db, me.agent.agent_id, query),
      listSources(deps.db, me.agent.agent_id),
    ]);
    const names = new Map(sources.map((s) => [s.source_id, s.name]));
    return reply.type('text/html').send(html`${rows(page.leads, me.agent.timezone, names)}`.text);
  });
}
