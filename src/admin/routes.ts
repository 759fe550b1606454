import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { AdminDeps } from './deps.ts';
import { appError } from '../errors.ts';
import { registerAgencyInvitationRoutes } from './agency-invitation-routes.ts';
import { registerAgencyRoutes } from './agency-routes.ts';
import { registerAgentRoutes } from './agent-routes.ts';
import { registerAutomationRoutes } from './automation-routes.ts';
import { registerCadenceRoutes } from './cadence-routes.ts';
import { registerCalendarFeedRoutes } from './calendar-feed-routes.ts';
import { registerConversationRoutes } from './conversation-routes.ts';
import { registerEconomicsRoutes } from './economics-routes.ts';
import { installAdminAuth } from './auth.ts';
import { installAdminBodyParser } from './body-parser.ts';
import { registerLeadActionRoutes } from './lead-action-routes.ts';
import { registerLeadRoutes } from './lead-routes.ts';
import { registerMappingRoutes } from './mapping-routes.ts';
import { registerSampleRoutes } from './sample-routes.ts';
import { registerSourceRoutes } from './source-routes.ts';
import { registerSuppressionRoutes } from './suppression-routes.ts';
import { validationError } from './validation-errors.ts';

/** The admin API (mounted under /v1/admin): agents, their lead sources, leads, agenda, samples. */
export async function registerAdminRoutes(scope: FastifyInstance, deps: AdminDeps): Promise<void> {
  installAdminAuth(scope, deps.adminApiKey, deps.db);
  installAdminBodyParser(scope);
  if (!scope.hasRequestDecorator('agent')) scope.decorateRequest('agent', null);
  if (!scope.hasRequestDecorator('source')) scope.decorateRequest('source', null);
  if (!scope.hasRequestDecorator('agency')) scope.decorateRequest('agency', null);
  scope.setSchemaErrorFormatter(validationError);
  const app = scope.withTypeProvider<TypeBoxTypeProvider>();
  registerAgentRoutes(app, deps);
  registerSourceRoutes(app, deps);
  registerMappingRoutes(app, deps);
  registerSampleRoutes(app, deps);
  registerLeadRoutes(app, deps);
  registerLeadActionRoutes(app, deps);
  registerAutomationRoutes(app, deps);
  registerAgencyRoutes(app, deps);
  registerAgencyInvitationRoutes(app, deps);
  registerSuppressionRoutes(app, deps);
  registerEconomicsRoutes(app, deps);
  registerConversationRoutes(app, deps);
  registerCadenceRoutes(app, deps);
  registerCalendarFeedRoutes(app, deps);

  // An empty agent segment (`/agents//sources`) names no agent: say so instead of a bare 404.
  const missingAgent = async () => {
    throw appError('MISSING_AGENT_IDENTIFIER');
  };
  const hidden = { schema: { hide: true } };
  app.get('/agents/', hidden, missingAgent);
  for (const leaf of ['sources', 'leads', 'agenda']) app.get(`/agents//${leaf}`, hidden, missingAgent);
  app.post('/agents//sources', hidden, missingAgent);

  // Unknown admin paths answer only after authentication, so they reveal nothing to a stranger.
  app.setNotFoundHandler(async () => {
    throw appError('NOT_FOUND');
  });
}
