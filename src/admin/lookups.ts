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

/** The agent a path names, or the matching 400/404. */
export async function requireAgent(db: Queryable, rawId: string | undefined): Promise<AgentRow> {
  const agent = await getAgent(db, agentIdParam(rawId));
  if (!agent) throw appError('AGENT_NOT_FOUND');
  return agent;
}

/** The source a path names, or the matching 400/404. */
export async function requireSource(db: Queryable, rawId: string | undefined): Promise<SourceRow> {
  const source = await getSource(db, sourceIdParam(rawId));
  if (!source) throw appError('SOURCE_NOT_FOUND');
  return source;
}

/** The source a path names as a delivery to it sees it (its agent's zone, its mapping rules), or 400/404. */
export async function requireDeliverySource(
  db: Queryable,
  rawId: string | undefined,
): Promise<AuthenticatedSource> {
  const source = await findDeliverySource(db, sourceIdParam(rawId));
  if (!source) throw appError('SOURCE_NOT_FOUND');
  return source;
}
