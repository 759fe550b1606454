import { listBookingEvents } from '../booking-events/booking-event-repository.ts';
import type { FastifyInstance } from 'fastify';
import type { AdminDeps } from './deps.ts';
import { LIMITS } from '../limits.ts';
import { appError } from '../errors.ts';
import {
  createSource,
  listSources,
  regenerateSourceToken,
  updateSource,
  type SourceRow,
} from '../sources/source-repository.ts';
import { assertStorable, optionalText, requiredText, requireObjectBody, type JsonBody } from './input.ts';
import { ownerOf } from './auth.ts';
import { requireAgent, requireSource } from './lookups.ts';

interface AgentParams {
  agent_id?: string;
}
interface SourceParams {
  source_id?: string;
}

export function registerSourceRoutes(app: FastifyInstance, deps: AdminDeps): void {
  const webhookUrl = (token: string) => `${deps.publicBaseUrl}/inbound-lead-gateway/v/${token}`;

  app.post<{ Params: AgentParams }>('/agents/:agent_id/sources', async (request, reply) => {
    const agent = await requireAgent(deps.db, request.params.agent_id, ownerOf(request));
    const name = requiredText(requireObjectBody(request.body), 'name');
    const { source, token } = await createSource(deps.db, agent.agent_id, name);
    return reply.code(201).send({ ...source, token, webhook_url: webhookUrl(token) });
  });

  app.get<{ Params: AgentParams }>('/agents/:agent_id/sources', async (request) => {
    const agent = await requireAgent(deps.db, request.params.agent_id, ownerOf(request));
    return { sources: await listSources(deps.db, agent.agent_id) };
  });

  app.post<{ Params: SourceParams }>('/sources/:source_id/regenerate', async (request) => {
    const { source_id } = await requireSource(deps.db, request.params.source_id, ownerOf(request));
    const regenerated = await regenerateSourceToken(deps.db, source_id);
    if (!regenerated) throw appError('SOURCE_NOT_FOUND');
    const { source, token } = regenerated;
    return { ...source, token, webhook_url: webhookUrl(token) };
  });

  app.patch<{ Params: SourceParams }>('/sources/:source_id', async (request) => {
    const current = await requireSource(deps.db, request.params.source_id, ownerOf(request));
    const patch = parseSourcePatch(requireObjectBody(request.body));
    if (Object.keys(patch).length === 0) return current;
    const updated = await updateSource(deps.db, current.source_id, patch);
    if (!updated) throw appError('SOURCE_NOT_FOUND');
    return updated;
  });

  app.get<{ Params: SourceParams }>('/sources/:source_id/events', async (request) => {
    const source = await requireSource(deps.db, request.params.source_id, ownerOf(request));
    return { events: await listBookingEvents(deps.db, source) };
  });

  // `/sources//regenerate` would otherwise be a bare 404: say what is missing.
  const missingSourceId = async () => {
    throw appError('MISSING_SOURCE_ID');
  };
  app.post('/sources//regenerate', missingSourceId);
  app.get('/sources//events', missingSourceId);
  app.patch('/sources/', missingSourceId);
}

type SourcePatch = Partial<Pick<SourceRow, 'active' | 'name' | 'rate_limit_rps' | 'rate_limit_burst'>> & {
  signing_key?: string | null;
};

/** A source's own rate limit: a whole number in range, or null for the server's default. */
function limitOf(
  body: JsonBody,
  key: 'rate_limit_rps' | 'rate_limit_burst',
  max: number,
): number | null | undefined {
  const value = body[key];
  if (value === undefined || value === null) return value;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 1 || value > max) {
    throw appError(
      'VALIDATION_ERROR',
      `${key} must be a whole number from 1 to ${max}, or null for the server's default`,
    );
  }
  return value;
}

function parseSourcePatch(body: JsonBody): SourcePatch {
  const patch: SourcePatch = {};
  if (body.active !== undefined) {
    if (typeof body.active !== 'boolean') throw appError('VALIDATION_ERROR', 'active must be true or false');
    patch.active = body.active;
  }
  if (body.name === null) throw appError('VALIDATION_ERROR', 'name cannot be removed');
  const name = optionalText(body, 'name');
  if (name !== undefined) patch.name = name;
  const rps = limitOf(body, 'rate_limit_rps', LIMITS.sourceRateMaxRps);
  if (rps !== undefined) patch.rate_limit_rps = rps;
  const burst = limitOf(body, 'rate_limit_burst', LIMITS.sourceRateMaxBurst);
  if (burst !== undefined) patch.rate_limit_burst = burst;
  if (body.signing_key === null) patch.signing_key = null;
  else if (body.signing_key !== undefined) {
    if (typeof body.signing_key !== 'string' || body.signing_key === '') {
      throw appError('VALIDATION_ERROR', 'signing_key must be a non-empty string, or null to remove it');
    }
    if (body.signing_key.length > LIMITS.signingKeyMaxLength) {
      throw appError(
        'VALIDATION_ERROR',
        `signing_key must be at most ${LIMITS.signingKeyMaxLength} characters`,
      );
    }
    assertStorable(body.signing_key, 'signing_key');
    patch.signing_key = body.signing_key;
  }
  return patch;
}
