import type { FastifyInstance } from 'fastify';
import { IANAZone } from 'luxon';
import type { AdminDeps } from './deps.ts';
import { LIMITS } from '../limits.ts';
import { appError } from '../errors.ts';
import { createAgentKey, listAgentKeys, revokeAgentKey } from './agent-keys.ts';
import { createAgent, setAgentPassword, updateAgent } from './agent-repository.ts';
import { ownerOf, requireOperator } from './auth.ts';
import { optionalText, requiredText, requireObjectBody, uuidParam, type JsonBody } from './input.ts';
import { requireAgent } from './lookups.ts';
import { checkPasswordRules, hashPassword } from './passwords.ts';

interface AgentParams {
  agent_id?: string;
  key_id?: string;
}

export function registerAgentRoutes(app: FastifyInstance, deps: AdminDeps): void {
  app.post('/agents', async (request, reply) => {
    requireOperator(request);
    const body = requireObjectBody(request.body);
    const name = requiredText(body, 'name');
    const timezone = zoneOf(body);
    const email = emailOf(body);
    const agent = await createAgent(deps.db, {
      name,
      ...(timezone ? { timezone } : {}),
      ...(email ? { email } : {}),
    });
    return reply.code(201).send(agent);
  });

  app.get<{ Params: AgentParams }>('/agents/:agent_id', async (request) =>
    requireAgent(deps.db, request.params.agent_id, ownerOf(request)),
  );

  app.put<{ Params: AgentParams }>('/agents/:agent_id/password', async (request, reply) => {
    requireOperator(request);
    const agent = await requireAgent(deps.db, request.params.agent_id, null);
    const password = checkPasswordRules(requireObjectBody(request.body).password);
    if (!(await setAgentPassword(deps.db, agent.agent_id, await hashPassword(password)))) {
      throw appError('AGENT_NOT_FOUND');
    }
    return reply.code(204).send();
  });

  app.post<{ Params: AgentParams }>('/agents/:agent_id/keys', async (request, reply) => {
    const agent = await requireAgent(deps.db, request.params.agent_id, ownerOf(request));
    return reply.code(201).send(await createAgentKey(deps.db, agent.agent_id));
  });

  app.get<{ Params: AgentParams }>('/agents/:agent_id/keys', async (request) => {
    const agent = await requireAgent(deps.db, request.params.agent_id, ownerOf(request));
    return { keys: await listAgentKeys(deps.db, agent.agent_id) };
  });

  app.delete<{ Params: AgentParams }>('/agents/:agent_id/keys/:key_id', async (request, reply) => {
    const agent = await requireAgent(deps.db, request.params.agent_id, ownerOf(request));
    const keyId = uuidParam(request.params.key_id, 'KEY_NOT_FOUND');
    if (!(await revokeAgentKey(deps.db, agent.agent_id, keyId))) throw appError('KEY_NOT_FOUND');
    return reply.code(204).send();
  });

  app.patch<{ Params: AgentParams }>('/agents/:agent_id', async (request) => {
    const agent = await requireAgent(deps.db, request.params.agent_id, ownerOf(request));
    const body = requireObjectBody(request.body);
    if (body.name === null) throw appError('VALIDATION_ERROR', 'name cannot be removed');
    const name = optionalText(body, 'name');
    const timezone = zoneOf(body);
    const template =
      body.sms_template === null ? null : optionalText(body, 'sms_template', LIMITS.smsTemplateMaxLength);
    const email = body.email === null ? null : emailOf(body);
    const patch = {
      ...(name !== undefined ? { name } : {}),
      ...(email !== undefined ? { email } : {}),
      ...(timezone !== undefined ? { timezone } : {}),
      ...(template !== undefined ? { sms_template: template } : {}),
    };
    if (Object.keys(patch).length === 0) return agent;
    const updated = await updateAgent(deps.db, agent.agent_id, patch);
    if (!updated) throw appError('AGENT_NOT_FOUND');
    return updated;
  });
}

/** A console login email: one address, at most LIMITS.emailMaxLength characters, or undefined. */
function emailOf(body: JsonBody): string | undefined {
  const email = optionalText(body, 'email', LIMITS.emailMaxLength);
  if (email === undefined) return undefined;
  if (!/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(email)) {
    throw appError('VALIDATION_ERROR', 'email must be an address such as agent@example.com');
  }
  return email;
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
