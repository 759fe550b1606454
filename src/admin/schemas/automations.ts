import { Type } from 'typebox';
import { DELIVERY_STATUSES } from '../../automations/delivery-repository.ts';
import { DESTINATION_KINDS } from '../../automations/payloads.ts';
import { LIMITS } from '../../limits.ts';
import { CALL_OUTCOMES, LEAD_STATUSES } from '../../leads/lead-status.ts';
import { OUTBOX_TOPICS } from '../../outbox/topics.ts';
import { Enum, ListOf, Nullable, Text, Timestamp, Uuid, UuidParam } from './common.ts';

export const Destination = Type.Object({
  destination_id: Uuid(),
  agent_id: Uuid(),
  source_id: Uuid(),
  kind: Enum(DESTINATION_KINDS),
  url: Type.String({ format: 'uri' }),
  // The stored list is text: the repository does not narrow it to the topic type.
  events: Nullable(Type.Array(Type.Unsafe<string>(Enum(OUTBOX_TOPICS))), {
    description: 'null: every topic.',
  }),
  active: Type.Boolean(),
  disabled_reason: Nullable(Type.Unsafe<string>(Enum(['gone', 'failing']))),
  last_success_at: Nullable(Timestamp()),
  failing_since: Nullable(Timestamp()),
  created_at: Timestamp(),
});

export const DestinationWithSecret = Type.Object({
  ...Destination.properties,
  secret: Type.String({ pattern: '^whsec_', description: 'The signing secret. Shown only here.' }),
});

export const DestinationList = ListOf('destinations', Destination);

export const CreateDestinationBody = Type.Object({
  kind: Enum(DESTINATION_KINDS),
  url: Text(
    LIMITS.destinationUrlMaxLength,
    'Public http(s) URL (private networks only with ALLOW_PRIVATE_DESTINATIONS=true).',
  ),
  events: Type.Optional(
    Nullable(Type.Array(Enum(OUTBOX_TOPICS), { minItems: 1 }), {
      description: 'Absent or null: every topic.',
    }),
  ),
});

export const DestinationParams = Type.Object({
  destination_id: UuidParam('The destination. Not a UUID or unknown: 404 DESTINATION_NOT_FOUND.'),
});

export const Delivery = Type.Object({
  delivery_id: Uuid(),
  destination_id: Uuid(),
  message_id: Uuid('The event id: the `webhook-id` header, the same on every retry.'),
  lead_id: Nullable(Uuid()),
  topic: Enum(OUTBOX_TOPICS),
  status: Enum(DELIVERY_STATUSES),
  attempts: Type.Integer({ minimum: 0 }),
  last_status: Nullable(Type.Integer()),
  last_error: Nullable(Type.String()),
  next_attempt_at: Nullable(Timestamp()),
  delivered_at: Nullable(Timestamp()),
  created_at: Timestamp(),
  destination_url: Nullable(Type.String(), {
    description: 'Where it is sent: the destination’s URL; null once the destination was removed.',
  }),
});

export const DeliveryList = ListOf('deliveries', Delivery);

export const DeliveryQuery = Type.Object({
  status: Type.Optional(Enum(DELIVERY_STATUSES, 'Only deliveries in this status.')),
});

export const DeliveryParams = Type.Object({
  delivery_id: UuidParam('The delivery. Not a UUID or unknown: 404 DELIVERY_NOT_FOUND.'),
});

export const CallTask = Type.Object({
  task_id: Uuid(),
  lead_id: Uuid(),
  name: Type.String(),
  phone: Nullable(Type.String()),
  status: Enum(['open', 'done']),
  created_at: Timestamp(),
  timezone: Type.String({ description: 'The prospect’s time zone.' }),
  local_time: Type.String({ description: 'The time there now, YYYY-MM-DDTHH:MM.' }),
  calling_hours_open: Type.Boolean({
    description: 'Whether it is inside the calling hours there now (the state’s rule, else 8:00–21:00).',
  }),
  calling_hours: Type.String({
    description: 'Those hours in words, e.g. “Florida: calls 8 a.m.–8 p.m.”.',
    examples: ['Florida: calls 8 a.m.–8 p.m.'],
  }),
});

export const BlockedCallTask = Type.Object({
  task_id: Uuid(),
  lead_id: Uuid(),
  name: Type.String(),
  phone: Nullable(Type.String()),
  blocked_reason: Type.String({
    description:
      'Why screening forbids the call (docs/compliance.md): opted_out, dnc, litigator, registry_without_consent or registry_stale.',
  }),
  created_at: Timestamp(),
});

export const DialQueue = Type.Object({
  tasks: Type.Array(CallTask, { description: 'The open call tasks, to be called.' }),
  blocked: Type.Array(BlockedCallTask, {
    description: 'Call tasks screening blocked, newest first: shown so the agent knows, never to be called.',
  }),
});

export const CallOutcomeBody = Type.Object({ outcome: Enum(CALL_OUTCOMES) });

export const CallOutcomeResult = Type.Object({
  task_id: Uuid(),
  lead_id: Uuid(),
  outcome: Enum(CALL_OUTCOMES),
  task_status: Enum(
    ['open', 'done'],
    '`open`: no answer, back in the queue in an hour (the third closes it).',
  ),
  calls: Type.Integer({ minimum: 1 }),
  lead_status: Enum(LEAD_STATUSES),
});

export const TaskParams = Type.Object({
  agent_id: UuidParam('The agent. Not a UUID: 400 INVALID_AGENT_IDENTIFIER.'),
  task_id: UuidParam('An open call task. Not a UUID, unknown or done: 404 TASK_NOT_FOUND.'),
});
