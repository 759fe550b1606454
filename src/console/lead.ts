import type { FastifyInstance } from 'fastify';
import { listDestinations } from '../automations/destination-repository.ts';
import { getLeadDetail } from '../leads/lead-queries.ts';
import { listSources } from '../sources/source-repository.ts';
import { appError } from '../errors.ts';
import type { ConsoleDeps } from './deps.ts';
import { consolePage, signedIn } from './context.ts';
import { leadAutomations } from './lead-automations.ts';
import { leadPage } from './views/lead.ts';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function registerLeadPage(scope: FastifyInstance, deps: ConsoleDeps): void {
  scope.get<{ Params: { lead_id: string } }>('/leads/:lead_id', async (request, reply) => {
    const me = await signedIn(deps, request);
    const id = request.params.lead_id;
    const lead = UUID.test(id) ? await getLeadDetail(deps.db, id) : null;
    // Another agent's lead is exactly as missing as one that never was.
    if (!lead || lead.agent_id !== me.agent.agent_id) throw appError('LEAD_NOT_FOUND');
    const [sources, automations, destinations] = await Promise.all([
      listSources(deps.db, me.agent.agent_id),
      leadAutomations(deps.db, me.agent.agent_id, lead.lead_id),
      listDestinations(deps.db, lead.source_id),
    ]);
    const sourceNames = new Map(sources.map((s) => [s.source_id, s.name]));
    return consolePage(
      reply,
      me,
      lead.name,
      '/console/leads',
      leadPage({
        lead,
        zone: me.agent.timezone,
        sourceNames,
        automations,
        destinations: destinations.filter((d) => d.active).length,
      }),
    );
  });
}
