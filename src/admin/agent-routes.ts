import { Type } from 'typebox';
import type { AdminApp, AdminDeps } from './deps.ts';
import { appError } from '../errors.ts';
import { normalizePhone } from '../ingest/normalize/phone.ts';
import { LIMITS } from '../limits.ts';
import { createAgentKey, listAgentKeys, revokeAgentKey } from './agent-keys.ts';
import { changeAgent, reminderPatch } from './agent-reminders.ts';
import { createAgent, listAgents, setAgentPassword } from './agent-repository.ts';
import { ownerOf, requireOperator } from './auth.ts';
import { agentOf, loadAgent } from './lookups.ts';
import { hashPassword } from './passwords.ts';
import { zoneOf } from './zone.ts';
import {
  Agent,
  AgentKeyCreated,
  AgentKeyList,
  AgentList,
  AgentListQuery,
  AgentParams,
  CreateAgentBody,
  SetPasswordBody,
  UpdateAgentBody,
} from './schemas/agents.ts';
import { NoContent, UuidParam } from './schemas/common.ts';
import { AGENT, AUTH, answers, BODY, operation } from './schemas/errors.ts';

const KeyParams = Type.Object({
  agent_id: AgentParams.properties.agent_id,
  key_id: UuidParam('An agent API key. Not a UUID or unknown: 404 KEY_NOT_FOUND.'),
});

export function registerAgentRoutes(app: AdminApp, deps: AdminDeps): void {
  const withAgent = loadAgent(deps.db);
  // Operator-only: an agent's key is refused before its body is read.
  const operatorOnly = async (request: Parameters<typeof requireOperator>[0]) => requireOperator(request);

  app.post(
    '/agents',
    {
      preValidation: operatorOnly,
      schema: {
        ...operation('createAgent', 'Create an agent'),
        body: CreateAgentBody,
        response: answers({ 201: Agent }, [...AUTH, 'FORBIDDEN', 'EMAIL_TAKEN', ...BODY]),
      },
    },
    async (request, reply) => {
      const { name, timezone, email } = request.body;
      const agent = await createAgent(deps.db, {
        name: name.trim(),
        ...(timezone !== undefined ? { timezone: zoneOf(timezone) } : {}),
        ...(email !== undefined ? { email: email.trim() } : {}),
      });
      return reply.code(201).send(agent);
    },
  );

  // The one way to learn the ids every other command needs: the operator gets every agent, a page
  // at a time; an agent key, its own agent alone.
  app.get(
    '/agents',
    {
      schema: {
        ...operation('listAgents', 'The agents (an agent key: its own), oldest first, a page at a time'),
        querystring: AgentListQuery,
        response: answers({ 200: AgentList }, [...AUTH, 'VALIDATION_ERROR']),
      },
    },
    async (request) => {
      const asked = request.query.limit ? Number(request.query.limit) : LIMITS.agentsPageDefault;
      if (!Number.isSafeInteger(asked) || asked < 1)
        throw appError('VALIDATION_ERROR', `limit must be an integer from 1 to ${LIMITS.agentsPageMax}`);
      const { agents, next } = await listAgents(deps.db, {
        limit: Math.min(asked, LIMITS.agentsPageMax),
        after: request.query.cursor?.toLowerCase() ?? null,
        owner: ownerOf(request),
      });
      return { agents, next_cursor: next };
    },
  );

  app.get(
    '/agents/:agent_id',
    {
      preValidation: withAgent,
      schema: {
        ...operation('getAgent', 'Read an agent'),
        params: AgentParams,
        response: answers({ 200: Agent }, AGENT),
      },
    },
    async (request) => agentOf(request),
  );

  app.patch(
    '/agents/:agent_id',
    {
      preValidation: withAgent,
      schema: {
        ...operation('updateAgent', 'Rename an agent, change its time zone, login, first text or reminders'),
        params: AgentParams,
        body: UpdateAgentBody,
        response: answers({ 200: Agent }, [
          ...AGENT,
          'FORBIDDEN',
          'EMAIL_TAKEN',
          'SMS_FROM_TAKEN',
          'CADENCE_NOT_FOUND',
          ...BODY,
        ]),
      },
    },
    async (request) => {
      const agent = agentOf(request);
      const {
        name,
        timezone,
        email,
        sms_template,
        sms_from,
        default_cadence_id,
        reminders,
        appointment_minutes,
      } = request.body;
      // A login is the operator's to give, as a password is: with an agent key, a new email would
      // answer whether another agent has it, and would let a leaked key take over the console login.
      if (ownerOf(request) !== null && email !== undefined && !sameEmail(email, agent.email))
        throw appError('FORBIDDEN', 'Only the operator key (ADMIN_API_KEY) may change a login email');
      // The installation's provider account holds the numbers: the operator gives them out.
      if (ownerOf(request) !== null && sms_from !== undefined && sendingNumber(sms_from) !== agent.sms_from)
        throw appError('FORBIDDEN', 'Only the operator key (ADMIN_API_KEY) may set a sending number');
      const patch = {
        ...(name !== undefined ? { name: name.trim() } : {}),
        ...(email !== undefined ? { email: email === null ? null : email.trim() } : {}),
        ...(timezone !== undefined ? { timezone: zoneOf(timezone) } : {}),
        ...(sms_template !== undefined ? { sms_template: sms_template?.trim() ?? null } : {}),
        ...(sms_from !== undefined ? { sms_from: sendingNumber(sms_from) } : {}),
        ...(default_cadence_id !== undefined
          ? { default_cadence_id: default_cadence_id?.toLowerCase() ?? null }
          : {}),
        ...(reminders !== undefined ? { reminders: reminderPatch(reminders) } : {}),
        ...(appointment_minutes !== undefined ? { appointment_minutes } : {}),
      };
      if (Object.keys(patch).length === 0) return agent;
      const updated = await changeAgent(deps.db, agent, patch);
      if (!updated) throw appError('AGENT_NOT_FOUND');
      return updated;
    },
  );

  app.put(
    '/agents/:agent_id/password',
    {
      preValidation: [operatorOnly, withAgent],
      schema: {
        ...operation('setAgentPassword', 'Set the agent’s console password (operator only)'),
        params: AgentParams,
        body: SetPasswordBody,
        response: answers({ 204: NoContent('Set; the agent’s console sessions are ended.') }, [
          ...AGENT,
          'FORBIDDEN',
          ...BODY,
        ]),
      },
    },
    async (request, reply) => {
      const agent = agentOf(request);
      if (!(await setAgentPassword(deps.db, agent.agent_id, await hashPassword(request.body.password)))) {
        throw appError('AGENT_NOT_FOUND');
      }
      return reply.code(204).send();
    },
  );

  app.post(
    '/agents/:agent_id/keys',
    {
      preValidation: withAgent,
      schema: {
        ...operation('createAgentKey', 'Issue an agent API key (shown once)'),
        params: AgentParams,
        response: answers({ 201: AgentKeyCreated }, AGENT),
      },
    },
    async (request, reply) => reply.code(201).send(await createAgentKey(deps.db, agentOf(request).agent_id)),
  );

  app.get(
    '/agents/:agent_id/keys',
    {
      preValidation: withAgent,
      schema: {
        ...operation('listAgentKeys', 'The agent’s API keys (without the keys)'),
        params: AgentParams,
        response: answers({ 200: AgentKeyList }, AGENT),
      },
    },
    async (request) => ({ keys: await listAgentKeys(deps.db, agentOf(request).agent_id) }),
  );

  app.delete(
    '/agents/:agent_id/keys/:key_id',
    {
      preValidation: withAgent,
      schema: {
        ...operation('revokeAgentKey', 'Revoke an agent API key; refused at once everywhere'),
        params: KeyParams,
        response: answers({ 204: NoContent('Revoked.') }, [...AGENT, 'KEY_NOT_FOUND']),
      },
    },
    async (request, reply) => {
      const keyId = request.params.key_id.toLowerCase();
      if (!(await revokeAgentKey(deps.db, agentOf(request).agent_id, keyId))) throw appError('KEY_NOT_FOUND');
      return reply.code(204).send();
    },
  );
}

const sameEmail = (given: string | null, had: string | null) =>
  (given?.trim().toLowerCase() ?? null) === (had?.toLowerCase() ?? null);

/** A sending number as kept, +1 and ten digits; null stays null; one that is no number is a 400. */
function sendingNumber(given: string | null): string | null {
  if (given === null) return null;
  const phone = normalizePhone(given);
  if (!phone.ok) throw appError('VALIDATION_ERROR', `sms_from must be ${phone.expected ?? 'a phone number'}`);
  return `+1${phone.value}`;
}
