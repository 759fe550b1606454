import type { FastifyInstance } from 'fastify';
import { IANAZone } from 'luxon';
import type { AdminDeps } from './deps.ts';
import { LIMITS } from '../config.ts';
import { appError } from '../errors.ts';
import { createAgent } from './agent-repository.ts';
import { optionalText, requiredText, requireObjectBody } from './input.ts';
import { requireAgent } from './lookups.ts';

interface AgentParams {
  agent_id?: string;
}

export function registerAgentRoutes(app: FastifyInstance, deps: AdminDeps): void {
  app.post('/agents', async (request, reply) => {
    const body = requireObjectBody(request.body);
    const name = requiredText(body, 'name');
    const timezone = optionalText(body, 'timezone', LIMITS.timezoneMaxLength);
    if (timezone !== undefined && !IANAZone.isValidZone(timezone)) {
      throw appError('VALIDATION_ERROR', 'timezone must be an IANA time zone such as America/Chicago');
    }
    const agent = await createAgent(deps.db, {
      name,
      ...(timezone ? { timezone: canonicalZone(timezone) } : {}),
    });
    return reply.code(201).send(agent);
  });

  app.get<{ Params: AgentParams }>('/agents/:agent_id', async (request) =>
    requireAgent(deps.db, request.params.agent_id),
  );
}

/** `america/chicago` is valid but would be stored as typed: keep the zone's canonical spelling. */
function canonicalZone(zone: string): string {
  return new Intl.DateTimeFormat('en-US', { timeZone: zone }).resolvedOptions().timeZone;
}
