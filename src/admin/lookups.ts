import type { FastifyRequest } from 'fastify';
import type { Queryable } from '../db/index.ts';
import { appError } from '../errors.ts';
import { findAgency, isMember, type Agency } from '../routing/agency-repository.ts';
import { getSource } from '../sources/source-repository.ts';
import type { SourceRow } from '../sources/source-row.ts';
import { isUuid } from '../sources/tokens.ts';
import { getAgent, type AgentRow } from './agent-repository.ts';
import { ownerOf } from './auth.ts';

/**
 * Every lookup takes the `owner` a request is limited to (`ownerOf(request)`: an agent's id, or
 * null for the operator). Another agent's record answers exactly as a missing one does: the same
 * 404, the same code, so an agent learns nothing of what others have.
 */
type Owner = string | null;

const owns = (owner: Owner, agentId: string) => owner === null || owner === agentId;

declare module 'fastify' {
  interface FastifyRequest {
    /** The agent, source or agency the path names, loaded by `loadAgent` / `loadSource` / `loadAgency` (null before). */
    agent: AgentRow | null;
    source: SourceRow | null;
    agency: Agency | null;
  }
}

/** The agent a path names, or the matching 400/404. */
export async function requireAgent(
  db: Queryable,
  rawId: string | undefined,
  owner: Owner,
): Promise<AgentRow> {
  if (!rawId) throw appError('MISSING_AGENT_IDENTIFIER');
  if (!isUuid(rawId)) throw appError('INVALID_AGENT_IDENTIFIER', 'agent_id must be a UUID');
  const id = rawId.toLowerCase();
  if (!owns(owner, id)) throw appError('AGENT_NOT_FOUND');
  const agent = await getAgent(db, id);
  if (!agent) throw appError('AGENT_NOT_FOUND');
  return agent;
}

/** The source a path names, or the matching 400/404 (a source id that is not a UUID names none). */
export async function requireSource(
  db: Queryable,
  rawId: string | undefined,
  owner: Owner,
): Promise<SourceRow> {
  if (!rawId) throw appError('MISSING_SOURCE_ID');
  const source = isUuid(rawId) ? await getSource(db, rawId.toLowerCase()) : null;
  if (!source || !owns(owner, source.agent_id)) throw appError('SOURCE_NOT_FOUND');
  return source;
}

/**
 * The agency a path names, if `owner` may manage it: the operator any, an agent those it is the
 * fallback producer of. Any other, or an id that is not a UUID, is 404 AGENCY_NOT_FOUND.
 */
export async function requireAgency(db: Queryable, rawId: string | undefined, owner: Owner): Promise<Agency> {
  const agency = rawId && isUuid(rawId) ? await findAgency(db, rawId.toLowerCase()) : null;
  if (!agency || !owns(owner, agency.fallback_agent_id)) throw appError('AGENCY_NOT_FOUND');
  return agency;
}

/**
 * An agent an agency's route names as a producer (its path's `agent_id`): the operator may name any
 * agent; an agent key itself or a producer the agency already has, one the operator added or who
 * accepted an invitation. Any other is 404 AGENT_NOT_FOUND, as an unknown id: a key never makes
 * another agent a producer, nor learns whether an id exists.
 */
export async function requireProducer(
  db: Queryable,
  agency: Agency,
  rawId: string | undefined,
  owner: Owner,
): Promise<AgentRow> {
  const id = rawId?.toLowerCase();
  if (owner === null || owner === id || (id && isUuid(id) && (await isMember(db, agency.agency_id, id))))
    return requireAgent(db, id, null);
  throw appError('AGENT_NOT_FOUND');
}

/**
 * The agency a producer leaves (DELETE …/members/:agent_id): the agencies `owner` manages, as
 * `requireAgency`, and any agency an agent key's own agent produces for, to leave it. Else 404.
 */
export async function requireAgencyToLeave(
  db: Queryable,
  rawId: string | undefined,
  owner: Owner,
  leaving: string,
): Promise<Agency> {
  const agency = rawId && isUuid(rawId) ? await findAgency(db, rawId.toLowerCase()) : null;
  if (!agency) throw appError('AGENCY_NOT_FOUND');
  if (owns(owner, agency.fallback_agent_id)) return agency;
  const self = owner === leaving.toLowerCase() && (await isMember(db, agency.agency_id, owner));
  if (!self) throw appError('AGENCY_NOT_FOUND');
  return agency;
}

/**
 * preValidation hooks: the agent or source of the path is looked up before the body and query
 * are validated, so an unknown or another agent's record is a 404 whatever was sent with it.
 */
export const loadAgent = (db: Queryable) => async (request: FastifyRequest) => {
  const { agent_id } = request.params as { agent_id?: string };
  request.agent = await requireAgent(db, agent_id, ownerOf(request));
};

export const loadSource = (db: Queryable) => async (request: FastifyRequest) => {
  const { source_id } = request.params as { source_id?: string };
  request.source = await requireSource(db, source_id, ownerOf(request));
};

/** The agency of the path, if the request may manage it: the operator, or its fallback producer. */
export const loadAgency = (db: Queryable) => async (request: FastifyRequest) => {
  const { agency_id } = request.params as { agency_id?: string };
  request.agency = await requireAgency(db, agency_id, ownerOf(request));
};

/** The agency `loadAgency` found. */
export function agencyOf(request: FastifyRequest): Agency {
  if (!request.agency) throw new Error('agencyOf without the loadAgency hook');
  return request.agency;
}

/** The agent `loadAgent` found; a route without that hook is a programming error. */
export function agentOf(request: FastifyRequest): AgentRow {
  if (!request.agent) throw new Error('agentOf without the loadAgent hook');
  return request.agent;
}

export function sourceOf(request: FastifyRequest): SourceRow {
  if (!request.source) throw new Error('sourceOf without the loadSource hook');
  return request.source;
}
