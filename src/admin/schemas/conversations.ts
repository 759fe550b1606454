import { Type } from 'typebox';
import { LIMITS } from '../../limits.ts';
import { Enum, ListOf, Nullable, Text, Timestamp, Uuid } from './common.ts';

/** A lead's thread, the agent's answer and the inbox (docs/conversations.md). */

export const ThreadMessage = Type.Object({
  message_id: Uuid(),
  direction: Enum(['inbound', 'outbound'] as const),
  body: Type.String(),
  at: Timestamp('Received; or sent (else written).'),
  status: Type.String({
    description:
      'Inbound: `received`. Outbound: `scheduled`, `sending`, `sent`, `failed`, `suppressed`, or once sent the provider’s `delivered`, `undelivered`, `failed`.',
  }),
  by: Enum(['prospect', 'automation', 'agent'] as const),
  intent: Nullable(Enum(['reply', 'contact_limits', 'opt_out'] as const), {
    description: 'Inbound: a reply, one that limits when or how to be contacted, or an opt-out.',
  }),
  read: Nullable(Type.Boolean(), { description: 'Inbound: whether the agent has read it.' }),
  error: Nullable(Type.String(), {
    description: 'Outbound: why it was not sent, or the provider’s error code.',
  }),
});

export const Thread = ListOf('messages', ThreadMessage);

export const AnswerBody = Type.Object({
  body: Text(LIMITS.answerMaxLength, 'The text to send, at most 1,600 characters.'),
});

export const Answered = Type.Object({
  message_id: Uuid('The text, as the thread lists it.'),
  direction: Enum(['outbound'] as const),
  status: Type.String({ description: '`scheduled`: the dispatcher sends it in a moment.' }),
});

export const MarkedRead = Type.Object({
  lead_id: Uuid(),
  marked: Type.Integer({ description: 'Replies marked read.' }),
});

export const Conversation = Type.Object({
  lead_id: Uuid(),
  name: Type.String(),
  phone: Nullable(Type.String()),
  unread: Type.Integer(),
  last_message: Type.Object({
    body: Type.String(),
    at: Timestamp(),
    direction: Enum(['inbound', 'outbound'] as const),
  }),
});

export const Conversations = Type.Object({
  conversations: Type.Array(Conversation),
  unread: Type.Integer({ description: 'Replies not read, in all the agent’s threads.' }),
});

export const UnmatchedTexts = ListOf(
  'messages',
  Type.Object({
    inbound_id: Uuid(),
    from: Type.String({ description: 'As the provider sent it.' }),
    to: Nullable(Type.String()),
    body: Type.String(),
    truncated: Type.Boolean({
      description: `Longer than ${LIMITS.inboundMaxLength} characters: the rest was cut.`,
    }),
    received_at: Timestamp(),
  }),
);
