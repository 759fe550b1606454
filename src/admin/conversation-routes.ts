import { appError } from '../errors.ts';
import { LIMITS } from '../limits.ts';
import { answerLead } from '../conversations/answer.ts';
import { listUnmatched } from '../conversations/inbound-repository.ts';
import { readLeadThread } from '../conversations/lead-thread.ts';
import { listConversations, markThreadRead, unreadCount } from '../conversations/thread-repository.ts';
import type { AdminApp, AdminDeps } from './deps.ts';
import { ownerOf, requireOperator } from './auth.ts';
import { agentOf, loadAgent } from './lookups.ts';
import { AgentParams } from './schemas/agents.ts';
import {
  AnswerBody,
  Answered,
  Conversations,
  MarkedRead,
  Thread,
  UnmatchedTexts,
} from './schemas/conversations.ts';
import { AGENT, AUTH, answers, BODY, operation } from './schemas/errors.ts';
import { LeadParams } from './schemas/leads.ts';

const LEAD = [...AUTH, 'LEAD_NOT_FOUND'] as const;

/**
 * Conversations (docs/conversations.md): a lead's thread of texts, the agent's answer, marking a
 * thread read, the agent's inbox, and the texts no lead's number matched (the operator's).
 */
export function registerConversationRoutes(app: AdminApp, deps: AdminDeps): void {
  app.get(
    '/leads/:lead_id/messages',
    {
      schema: {
        ...operation(
          'listLeadMessages',
          'A lead’s thread: every text it was sent and every reply, oldest first',
        ),
        params: LeadParams,
        response: answers({ 200: Thread }, LEAD),
      },
    },
    async (request) => {
      const thread = await readLeadThread(deps.db, request.params.lead_id.toLowerCase(), ownerOf(request));
      if (!thread) throw appError('LEAD_NOT_FOUND');
      return { messages: thread.messages };
    },
  );

  app.post(
    '/leads/:lead_id/messages',
    {
      schema: {
        ...operation('answerLead', 'Text the lead: the agent’s answer, sent through the configured provider'),
        params: LeadParams,
        body: AnswerBody,
        response: answers({ 201: Answered }, [
          ...LEAD,
          'CONTACT_OPTED_OUT',
          'CONTACT_SCREENED',
          'LEAD_HAS_NO_PHONE',
          'OUTSIDE_CALLING_HOURS',
          ...BODY,
        ]),
      },
    },
    async (request, reply) => {
      const done = await answerLead(
        deps.db,
        { lead_id: request.params.lead_id.toLowerCase(), owner: ownerOf(request) },
        request.body.body.trim(),
        new Date(),
      );
      if (!done.ok) throw appError(done.code, done.details);
      const { message_id, direction, status } = done;
      return reply.code(201).send({ message_id, direction, status });
    },
  );

  app.post(
    '/leads/:lead_id/messages/read',
    {
      schema: {
        ...operation('markLeadMessagesRead', 'Mark the lead’s replies read'),
        params: LeadParams,
        response: answers({ 200: MarkedRead }, LEAD),
      },
    },
    async (request) => {
      const thread = await readLeadThread(
        deps.db,
        request.params.lead_id.toLowerCase(),
        ownerOf(request),
        false,
      );
      if (!thread) throw appError('LEAD_NOT_FOUND');
      const marked = await markThreadRead(deps.db, thread.agent_id, thread.lead_id, new Date());
      return { lead_id: thread.lead_id, marked };
    },
  );

  app.get(
    '/agents/:agent_id/conversations',
    {
      preValidation: loadAgent(deps.db),
      schema: {
        ...operation(
          'listConversations',
          'The agent’s inbox: every lead that wrote, unread first, then the newest',
        ),
        params: AgentParams,
        response: answers({ 200: Conversations }, AGENT),
      },
    },
    async (request) => {
      const agentId = agentOf(request).agent_id;
      const [conversations, unread] = await Promise.all([
        listConversations(deps.db, agentId, LIMITS.conversationsListed),
        unreadCount(deps.db, agentId),
      ]);
      return { conversations, unread: unread.messages };
    },
  );

  app.get(
    '/sms/unmatched',
    {
      preValidation: async (request) => requireOperator(request),
      schema: {
        ...operation('listUnmatchedTexts', 'Texts whose number no lead has, newest first (operator only)'),
        response: answers({ 200: UnmatchedTexts }, [...AUTH, 'FORBIDDEN']),
      },
    },
    async () => ({ messages: await listUnmatched(deps.db, LIMITS.listedRows) }),
  );
}
