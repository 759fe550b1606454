import type { FastifyInstance } from 'fastify';
import type { AdminDeps } from './deps.ts';
import { appError } from '../errors.ts';
import { registerAgentRoutes } from './agent-routes.ts';
import { registerAutomationRoutes } from './automation-routes.ts';
import { installAdminAuth } from './auth.ts';
import { installAdminBodyParser } from './input.ts';
import { registerLeadRoutes } from './lead-routes.ts';
import { registerMappingRoutes } from './mapping-routes.ts';
import { registerSampleRoutes } from './sample-routes.ts';
import { registerSourceRoutes } from './source-routes.ts';

/** The admin API (mounted under /v1/admin): agents, their lead sources, leads, agenda, samples. */
export async function registerAdminRoutes(app: FastifyInstance, deps: AdminDeps): Promise<void> {
  installAdminAuth(app, deps.adminApiKey, deps.db);
  installAdminBodyParser(app);
  registerAgentRoutes(app, deps);
  registerSourceRoutes(app, deps);
  registerMappingRoutes(app, deps);
  registerSampleRoutes(app, deps);
  registerLeadRoutes(app, deps);
  registerAutomationRoutes(app, deps);

  // An empty agent segment (`/agents//sources`) names no agent: say so instead of a bare 404.
  const missingAgent = async () => {
    throw appError('MISSING_AGENT_IDENTIFIER');
  };
  app.get('/agents/', missingAgent);
  for (const leaf of ['sources', 'leads', 'agenda']) app.get(`/agents//${leaf}`, missingAgent);
  app.post('/agents//sources', missingAgent);

  // Unknown admin paths answer only after authentication, so they reveal nothing to a stranger.
  app.setNotFoundHandler(async () => {
    throw appError('NOT_FOUND');
  });
}
