import type { FastifyInstance } from 'fastify';
import { listSamples } from '../listen/listen-sample-repository.ts';
import { listMembers } from '../routing/agency-repository.ts';
import { listSources } from '../sources/source-repository.ts';
import type { ConsoleDeps } from './deps.ts';
import { consolePage, signedIn } from './context.ts';
import { queryValue } from './query.ts';
import { listenPage } from './views/listen.ts';

export function registerListenPage(scope: FastifyInstance, deps: ConsoleDeps): void {
  scope.get('/listen', async (request, reply) => {
    const me = await signedIn(deps, request);
    const sources = await listSources(deps.db, me.agent.agent_id);
    const wanted = queryValue(request.query, 'source');
    const source = sources.find((s) => s.source_id === wanted) ?? sources[0];
    const samples = source
      ? await listSamples(deps.db, { agent_id: me.agent.agent_id, source_id: source.source_id })
      : [];
    // An agency's source: its samples name the producer a live delivery would go to.
    const members = source?.agency_id ? await listMembers(deps.db, source.agency_id) : [];
    const producers = new Map([
      [me.agent.agent_id, me.agent.name],
      ...members.map((m) => [m.agent_id, m.name] as const),
    ]);
    const body = listenPage({ sources, source, samples, zone: me.agent.timezone, producers });
    return consolePage(reply, me, 'Listen review', '/console/listen', body);
  });
}
