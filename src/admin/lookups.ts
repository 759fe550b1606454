import type { Queryable } from '../db/index.ts';
import { appError } from '../errors.ts';
import {
  findDeliverySource,
  getSource,
  type AuthenticatedSource,
  type SourceRow,
} from '../sources/source-repository.ts';
import { getAgent, type AgentRow } from './agent-repository.ts';
import { agentIdParam, sourceIdParam } from './input.ts';

/**
 * Every lookup takes the `owner` a request is limited to (`ownerOf(request)`: an agent's id, or
 * null for the operator). Another agent's record answers exactly as a missing one does: the same
 * 404, the same code, so an agent learns nothing of what others have.
 */
type Owner = string | null;

const owns = (owner: Owner, agentId: string) => owner === null || owner === agentId;

/** The agent a path names, or the matching 400/404. */
export async function requireAgent(
  db: Queryable,
  rawId: string | undefined,
  owner: Owner,
): Promise<AgentRow> {
  const id = agentIdParam(rawId);
  if (!owns(owner, id)) throw appError('AGENT_NOT_FOUND');
  const agent = await getAgent(db, id);
  if (!agent) throw appError('AGENT_NOT_FOUND');
  return agent;
}

/** The source a path names, or the matching 400/404. */
export async function requireSource(
  db: Queryable,
  rawId: string | undefined,
  owner: Owner,
): Promise<SourceRow> {
  const source = await getSource(db, sourceIdParam(rawId));
  if (!source || !owns(owner, source.agent_id)) throw appError('SOURCE_NOT_FOUND');
  return source;
}

/** The source a path names as a delivery to it sees it (its agent's zone, its mapping rules), or 400/404. */
export async function requireDeliverySource(
  db: Queryable,
  rawId: string | undefined,
  owner: Owner,
): Promise<AuthenticatedSource> {
  const source = await findDeliverySource(db, sourceIdParam(rawId));
  if (!source || !owns(owner, source.agent_id)) throw appError('SOURCE_NOT_FOUND');
  return source;
}
