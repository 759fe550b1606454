import type { FastifyInstance } from 'fastify';
import { IANAZone } from 'luxon';
import type { AdminDeps } from './deps.ts';
import { LIMITS } from '../config.ts';
import { appError } from '../errors.ts';
import { createAgent, updateAgent } from './agent-repository.ts';
import { optionalText, requiredText, requireObjectBody, type JsonBody } from './input.ts';
import { requireAgent } from './lookups.ts';

interface AgentParams {
  agent_id?: string;
}

export function registerAgentRoutes(app: FastifyInstance, deps: AdminDeps): void {
  app.post('/agents', async (request, reply) => {
    const body = requireObjectBody(request.body);
    const name = requiredText(body, 'name');
    const timezone = zoneOf(body);
    const agent = await createAgent(deps.db, { name, ...(timezone ? { timezone } : {}) });
    return reply.code(201).send(agent);
  });

  app.get<{ Params: AgentParams }>('/agents/:agent_id', async (request) =>
    requireAgent(deps.db, request.params.agent_id),
  );

  app.patch<{ Params: AgentParams }>('/agents/:agent_id', async (request) => {
    const agent = await requireAgent(deps.db, request.params.agent_id);
    const body = requireObjectBody(request.body);
    if (body.name === null) throw appError('VALIDATION_ERROR', 'name cannot be removed');
    const name = optionalText(body, 'name');
    const timezone = zoneOf(body);
    const template =
      body.sms_template === null ? null : optionalText(body, 'sms_template', LIMITS.smsTemplateMaxLength);
    const patch = {
      ...(name !== undefined ? { name } : {}),
      ...(timezone !== undefined ? { timezone } : {}),
      ...(template !== undefined ? { sms_template: template } : {}),
    };
    if (Object.keys(patch).length === 0) return agent;
    const updated = await updateAgent(deps.db, agent.agent_id, patch);
    if (!updated) throw appError('AGENT_NOT_FOUND');
    return updated;
  });
}

/** An IANA zone in its canonical spelling (`america/chicago` → `America/Chicago`), or undefined. */
function zoneOf(body: JsonBody): string | undefined {
  const timezone = optionalText(body, 'timezone', LIMITS.timezoneMaxLength);
  if (timezone === undefined) return undefined;
  if (!IANAZone.isValidZone(timezone)) {
    throw appError('VALIDATION_ERROR', 'timezone must be an IANA time zone such as America/Chicago');
  }
  return canonicalZone(timezone);
}

/** `america/chicago` is valid but would be stored as typed: keep the zone's canonical spelling. */
function canonicalZone(zone: string): string {
  return new Intl.DateTimeFormat('en-US', { timeZone: zone }).resolvedOptions().timeZone;
}
