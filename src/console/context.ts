import type { FastifyReply, FastifyRequest } from 'fastify';
import { getAgent, type AgentRow } from '../admin/agent-repository.ts';
import { unreadCount } from '../conversations/thread-repository.ts';
import { listAgencies } from '../routing/agency-repository.ts';
import type { Html } from './html.ts';
import type { ConsoleDeps } from './deps.ts';
import { page } from './layout.ts';
import { csrfTokenFor } from './session.ts';

export interface SignedIn {
  agent: AgentRow;
  /** Whether the agent is the fallback producer of an agency; asked only when a whole page is drawn. */
  managesAgency(): Promise<boolean>;
  /** How many replies the agent has not read; asked only when a whole page is drawn. */
  unread(): Promise<number>;
}

/** Thrown when a page is asked for without a live session: the scope redirects to the login. */
export class NotSignedIn extends Error {}

/** The agent of this request's session; every page and action of the console starts here. */
export async function signedIn(deps: ConsoleDeps, request: FastifyRequest): Promise<SignedIn> {
  const agentId = request.session.get('agentId');
  const agent = agentId ? await getAgent(deps.db, agentId) : null;
  if (!agent) throw new NotSignedIn();
  return {
    agent,
    managesAgency: async () => (await listAgencies(deps.db, agent.agent_id)).length > 0,
    unread: async () => (await unreadCount(deps.db, agent.agent_id)).messages,
  };
}

/** Sends a whole console page: the nav, the agent, a fresh CSRF token for its forms. */
export async function consolePage(
  reply: FastifyReply,
  me: SignedIn,
  title: string,
  current: string,
  body: Html,
) {
  const csrf = csrfTokenFor(reply);
  const chrome = {
    agentName: me.agent.name,
    agentZone: me.agent.timezone,
    csrf,
    current,
    agency: await me.managesAgency(),
    unread: await me.unread(),
  };
  return reply.type('text/html').send(page(title, body, chrome));
}

/** The CSRF token for forms inside a page body (the same one the nav's logout form gets). */
export function csrfToken(reply: FastifyReply): string {
  return csrfTokenFor(reply);
}
