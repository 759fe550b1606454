import type { FastifyInstance } from 'fastify';
import { answerLead } from '../conversations/answer.ts';
import { readLeadThread } from '../conversations/lead-thread.ts';
import {
  listConversations,
  markThreadRead,
  readThread,
  unreadCount,
} from '../conversations/thread-repository.ts';
import { appError } from '../errors.ts';
import { LIMITS } from '../limits.ts';
import { isUuid } from '../sources/tokens.ts';
import type { ConsoleDeps } from './deps.ts';
import { html } from './html.ts';
import { consolePage, signedIn } from './context.ts';
import { inboxPage, inboxRows, threadMessages } from './views/conversation.ts';
import type { ActionNotice } from './views/lead-actions.ts';

type LeadParams = { Params: { lead_id: string } };

/**
 * The Inbox, a lead's live thread and the agent's answer: the admin API's own reads and use case
 * (src/conversations). A thread the agent has open is a thread read.
 */
export function registerConversationPages(scope: FastifyInstance, deps: ConsoleDeps): void {
  const inbox = async (agentId: string) =>
    Promise.all([
      listConversations(deps.db, agentId, LIMITS.conversationsListed),
      unreadCount(deps.db, agentId),
    ]);

  scope.get('/inbox', async (request, reply) => {
    const me = await signedIn(deps, request);
    const [conversations, unread] = await inbox(me.agent.agent_id);
    const body = inboxPage({ conversations, unread: unread.messages, zone: me.agent.timezone });
    return consolePage(reply, me, 'Inbox', '/console/inbox', body);
  });

  scope.get('/inbox/rows', async (request, reply) => {
    const me = await signedIn(deps, request);
    const [conversations] = await inbox(me.agent.agent_id);
    return reply.type('text/html').send(html`${inboxRows(conversations, me.agent.timezone)}`.text);
  });

  scope.get<LeadParams>('/leads/:lead_id/thread', async (request, reply) => {
    const me = await signedIn(deps, request);
    const id = leadId(request.params.lead_id);
    const agentId = me.agent.agent_id;
    // The thread on the agent's screen is read: marked so before it is drawn.
    if (!(await readLeadThread(deps.db, id, agentId, false))) throw appError('LEAD_NOT_FOUND');
    await markThreadRead(deps.db, agentId, id, new Date());
    const messages = await readThread(deps.db, agentId, id);
    return reply.type('text/html').send(threadMessages(messages, me.agent.timezone).text);
  });

  scope.post<LeadParams>(
    '/leads/:lead_id/messages',
    { preHandler: scope.csrfProtection },
    async (request, reply) => {
      const me = await signedIn(deps, request);
      const id = leadId(request.params.lead_id);
      const back = (done: ActionNotice) => reply.redirect(`/console/leads/${id}?done=${done}#messages`, 303);
      const typed = (request.body as Record<string, unknown> | undefined)?.body;
      const body = typeof typed === 'string' ? typed.trim() : '';
      if (body === '' || body.length > LIMITS.answerMaxLength || body.includes('\u0000'))
        return back('text_refused');
      const done = await answerLead(deps.db, { lead_id: id, owner: me.agent.agent_id }, body, new Date());
      if (done.ok) return back('texted');
      if (done.code === 'LEAD_NOT_FOUND') throw appError('LEAD_NOT_FOUND');
      return back(done.code);
    },
  );
}

function leadId(raw: string): string {
  if (!isUuid(raw)) throw appError('LEAD_NOT_FOUND');
  return raw.toLowerCase();
}
