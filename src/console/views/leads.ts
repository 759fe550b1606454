import { LEAD_CATEGORY_SYNONYMS } from '../../ingest/tables/synonyms.ts';
import type { LeadView } from '../../leads/lead-queries.ts';
import { LEAD_STATUSES } from '../../leads/lead-status.ts';
import { phone, when } from '../format.ts';
import { html, type Html } from '../html.ts';
import { dataTable, options, pager } from './components.ts';
import { optOutBadge } from './lead.ts';

/** How the first page follows new leads: htmx asks for its rows again every 2 s. */
const POLL = 'every 2s';

/** The filters as typed (a repeated one is shown empty, with the note that refused it). */
export interface LeadFilters {
  q: string;
  status: string;
  source: string;
  category: string;
}

export interface LeadsPageData {
  zone: string;
  leads: LeadView[];
  sources: ReadonlyArray<{ source_id: string; name: string }>;
  filters: LeadFilters;
  /** Why a filter was dropped, or ''. */
  problem: string;
  firstPage: boolean;
  /** The rows' URL polled on the first page; the next and newest pages' links. */
  pollUrl: string;
  next: string | null;
  newest: string | null;
  /** The gateway URL the empty list's curl example posts to. */
  gatewayUrl: string;
}

/**
 * The rows of the leads table, or the one row that says why there are none: no lead matches the
 * filters, or (`gatewayUrl` given: the agent has none yet) how to send the first. The empty state
 * is a row, so the live poll that brings the first lead replaces it.
 */
export function leadRows(
  leads: LeadView[],
  zone: string,
  sourceNames: Map<string, string>,
  gatewayUrl?: string,
): Html | Html[] {
  if (leads.length === 0) {
    return html`<tr>
      <td colspan="6" class="empty">
        ${gatewayUrl ? emptyState(gatewayUrl) : 'No leads match these filters.'}
      </td>
    </tr>`;
  }
  return leads.map(
    (l) =>
      html`<tr>
        <td><a href="/console/leads/${l.lead_id}">${l.name}</a></td>
        <td class="phone">${phone(l.phone as string | null)}</td>
        <td>${(l.email as string | null) ?? '—'}</td>
        <td>
          <span class="status">${l.status}</span>
          ${optOutBadge((l.opt_out as Parameters<typeof optOutBadge>[0]) ?? null)}
        </td>
        <td>${sourceNames.get(l.source_id) ?? '—'}</td>
        <td>${when(l.created_at, zone)}</td>
      </tr>`,
  );
}

/** Whether the list is the agent's whole pipeline (first page, no filter): its empty state is the start. */
export const wholeList = (filters: LeadFilters, firstPage: boolean) =>
  firstPage && !Object.values(filters).some(Boolean);

/** The leads page: filters, the table (live on the first page), the pager. */
export function leadsPage(d: LeadsPageData): Html {
  const names = new Map(d.sources.map((s) => [s.source_id, s.name]));
  const status = LEAD_STATUSES.find((s) => s.toLowerCase() === d.filters.status.toLowerCase());
  return html`<main>
    <h1>Leads</h1>
    ${d.problem ? html`<p class="error" role="alert">${d.problem}</p>` : ''}
    <form method="get" action="/console/leads" class="filters" role="search">
      <label
        >Search <input type="search" name="q" value="${d.filters.q}" placeholder="Name, phone or email"
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
            d.sources.map((s) => [s.source_id, s.name] as const),
            d.filters.source,
          )}
        </select></label
      >
      <label
        >Category
        <select name="category">
          ${options(Object.keys(LEAD_CATEGORY_SYNONYMS), d.filters.category)}
        </select></label
      >
      <button type="submit">Filter</button>
    </form>
    ${dataTable(
      ['Name', 'Phone', 'Email', 'Status', 'Source', `Received (${d.zone})`],
      leadRows(d.leads, d.zone, names, wholeList(d.filters, d.firstPage) ? d.gatewayUrl : undefined),
      {
        caption: `Leads, newest first${d.firstPage ? ', updated live' : ''}`,
        body: d.firstPage
          ? html` id="lead-rows" hx-get="${d.pollUrl}" hx-trigger="${POLL}" hx-swap="innerHTML"`
          : html` id="lead-rows"`,
      },
    )}
    ${pager({ newest: d.firstPage ? null : d.newest, older: d.next }, 'leads')}
  </main>`;
}

function emptyState(gatewayUrl: string): Html {
  return html`<section class="empty-state" id="no-leads-yet">
    <h2>No leads yet</h2>
    <p>Send one with your source's token, from <a href="/console/sources">Sources</a>, for example:</p>
    <pre>
curl -X POST ${gatewayUrl} -H 'content-type: application/json' -H 'x-source-token: YOUR_TOKEN' -d '{"name":"Jane Doe","phone":"(555) 123-4567"}'</pre>
  </section>`;
}
