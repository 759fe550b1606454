import type { Queryable } from '../db/index.ts';
import { appError } from '../errors.ts';
import { getSource, type SourceRow } from '../sources/source-repository.ts';
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
