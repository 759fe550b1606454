import { LIMITS } from '../limits.ts';
import { CALL_OUTCOMES, LEAD_STATUSES } from '../leads/lead-status.ts';
import { ADMIN_PREFIX, adminOperation, AGENT, BODY, ok } from './paths.ts';
import { list, type Json } from './json-schema.ts';

/** Agent-scoped access (console passwords, agent API keys) and the dial queue's call outcomes. */
export function buildAccessPaths(): Record<string, Json> {
  const a = ADMIN_PREFIX;
  return {
    [`${a}/agents/{agent_id}/password`]: {
      put: adminOperation('setAgentPassword', 'Set the agent’s console password (operator only)', {
        parameters: ['AgentId'],
        body: 'SetPasswordRequest',
        responses: { '204': { description: 'Set; the agent’s console sessions are ended.' } },
        errors: [...AGENT, 'FORBIDDEN', ...BODY],
      }),
    },
    [`${a}/agents/{agent_id}/keys`]: {
      post: adminOperation('createAgentKey', 'Issue an agent API key (shown once)', {
        parameters: ['AgentId'],
        responses: ok('The key; only its digest is kept.', 'AgentKeyCreated', '201'),
        errors: AGENT,
      }),
      get: adminOperation('listAgentKeys', 'The agent’s API keys (without the keys)', {
        parameters: ['AgentId'],
        responses: ok('The keys.', 'AgentKeyList'),
        errors: AGENT,
      }),
    },
    [`${a}/agents/{agent_id}/dial-queue/{task_id}/outcome`]: {
      post: adminOperation('recordCallOutcome', 'Mark a call task’s outcome; the lead’s status follows', {
        parameters: ['AgentId', 'TaskId'],
        body: 'CallOutcomeRequest',
        responses: ok('What came of it.', 'CallOutcomeResult'),
        errors: [...AGENT, 'TASK_NOT_FOUND', ...BODY],
      }),
    },
    [`${a}/agents/{agent_id}/keys/{key_id}`]: {
      delete: adminOperation('revokeAgentKey', 'Revoke an agent API key; refused at once everywhere', {
        parameters: ['AgentId', 'KeyId'],
        responses: { '204': { description: 'Revoked.' } },
        errors: [...AGENT, 'KEY_NOT_FOUND'],
      }),
    },
  };
}

const dateTime: Json = { type: 'string', format: 'date-time' };

export function buildAccessSchemas(): Record<string, Json> {
  return {
    SetPasswordRequest: {
      type: 'object',
      required: ['password'],
      properties: {
        password: {
          type: 'string',
          minLength: LIMITS.passwordMinLength,
          maxLength: LIMITS.passwordMaxLength,
          description: 'Stored as an Argon2id hash.',
        },
      },
    },
    AgentKey: {
      type: 'object',
      required: ['key_id', 'created_at', 'revoked_at'],
      properties: {
        key_id: { type: 'string', format: 'uuid' },
        created_at: dateTime,
        revoked_at: { ...dateTime, type: ['string', 'null'] },
      },
    },
    AgentKeyCreated: {
      type: 'object',
      required: ['key_id', 'key', 'created_at'],
      properties: {
        key_id: { type: 'string', format: 'uuid' },
        key: {
          type: 'string',
          description: '`lgk_` + 43 characters; send as `Authorization: Bearer <key>`.',
        },
        created_at: dateTime,
      },
    },
    AgentKeyList: list('keys', 'AgentKey'),
    CallOutcomeRequest: {
      type: 'object',
      required: ['outcome'],
      properties: { outcome: { type: 'string', enum: [...CALL_OUTCOMES] } },
    },
    CallOutcomeResult: {
      type: 'object',
      required: ['task_id', 'lead_id', 'outcome', 'task_status', 'calls', 'lead_status'],
      properties: {
        task_id: { type: 'string', format: 'uuid' },
        lead_id: { type: 'string', format: 'uuid' },
        outcome: { type: 'string', enum: [...CALL_OUTCOMES] },
        task_status: {
          type: 'string',
          enum: ['open', 'done'],
          description: '`open`: no answer, back in the queue in an hour (the third no-answer closes it).',
        },
        calls: { type: 'integer', minimum: 1 },
        lead_status: { type: 'string', enum: [...LEAD_STATUSES] },
      },
    },
  };
}
