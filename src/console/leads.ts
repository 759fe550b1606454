import type { FastifyInstance, FastifyRequest } from 'fastify';
import { parseLeadListQuery } from '../admin/list-queries.ts';
import { LeadListQuery } from '../admin/schemas/leads.ts';
import { webhookUrl } from '../use-cases/webhook-url.ts';
import { LEAD_CATEGORY_SYNONYMS } from '../ingest/tables/synonyms.ts';
import { encodeLeadCursor, listLeads, type LeadListQuery as ListQuery } from '../leads/lead-queries.ts';
import { listSources } from '../sources/source-repository.ts';
import type { ConsoleDeps } from './deps.ts';
import { html } from './html.ts';
import { consolePage, signedIn } from './context.ts';
import { queryValue } from './query.ts';
import { leadRows, leadsPage, wholeList, type LeadFilters } from './views/leads.ts';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * The list's query from the query string, checked by the admin API's own schema and rules
 * (`request.validationError`: what the schema found); a bad value is dropped with a note, never
 * a 500. Source and category are the console's own filters.
 */
function listQuery(request: FastifyRequest): { query: ListQuery; problem: string } {
  try {
    if (request.validationError) throw request.validationError;
    const source = queryValue(request.query, 'source') ?? '';
    const category = queryValue(request.query, 'category') ?? '';
    return {
      query: {
        ...parseLeadListQuery(request.query as Record<string, string | undefined>),
        ...(UUID.test(source) ? { source_id: source } : {}),
        ...(Object.hasOwn(LEAD_CATEGORY_SYNONYMS, category) ? { category } : {}),
      },
      problem: '',
    };
  } catch (err) {
    const details =
      err instanceof Error && 'details' in err ? (err as { details?: string }).details : undefined;
    return { query: {}, problem: details ?? 'Bad filter' };
  }
}

/** A value as typed, for the form and the links; a repeated one shows empty. */
function typedValue(query: unknown, key: string): string {
  try {
    return queryValue(query, key) ?? '';
  } catch {
    return '';
  }
}

function typed(query: unknown): LeadFilters {
  const [q, status, source, category] = ['q', 'status', 'source', 'category'].map((k) =>
    typedValue(query, k),
  );
  return { q: q ?? '', status: status ?? '', source: source ?? '', category: category ?? '' };
}

export function registerLeadsPages(scope: FastifyInstance, deps: ConsoleDeps): void {
  const checked = { schema: { querystring: LeadListQuery }, attachValidation: true };

  scope.get('/leads', checked, async (request, reply) => {
    const me = await signedIn(deps, request);
    const { query, problem } = listQuery(request);
    const [page, sources] = await Promise.all([
      listLeads(deps.db, me.agent.agent_id, query),
      listSources(deps.db, me.agent.agent_id),
    ]);
    const filters = typed(request.query);
    const live = new URLSearchParams(Object.entries(filters).filter(([, v]) => v)).toString();
    const firstPage = !typedValue(request.query, 'cursor');
    const next = page.next_cursor
      ? `/console/leads?${new URLSearchParams({ ...Object.fromEntries(new URLSearchParams(live)), cursor: encodeLeadCursor(page.next_cursor) }).toString()}`
      : null;
    return consolePage(
      reply,
      me,
      'Leads',
      '/console/leads',
      leadsPage({
        zone: me.agent.timezone,
        leads: page.leads,
        sources,
        filters,
        problem,
        firstPage,
        pollUrl: `/console/leads/rows${live ? `?${live}` : ''}`,
        next,
        newest: `/console/leads${live ? `?${live}` : ''}`,
        gatewayUrl: webhookUrl(deps.publicBaseUrl),
      }),
    );
  });

  // The first page's rows, polled every 2 s: a new lead shows without reloading. A bad filter
  // was told on the page; the poll shows the unfiltered list.
  scope.get('/leads/rows', checked, async (request, reply) => {
    const me = await signedIn(deps, request);
    const { query } = listQuery(request);
    const [page, sources] = await Promise.all([
      listLeads(deps.db, me.agent.agent_id, query),
      listSources(deps.db, me.agent.agent_id),
    ]);
    const names = new Map(sources.map((s) => [s.source_id, s.name]));
    const start = wholeList(typed(request.query), true) ? webhookUrl(deps.publicBaseUrl) : undefined;
    return reply.type('text/html').send(html`${leadRows(page.leads, me.agent.timezone, names, start)}`.text);
  });
}
