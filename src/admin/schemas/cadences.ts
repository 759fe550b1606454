import { Type } from 'typebox';
import {
  CADENCE_ACTIONS,
  CADENCE_MAX_DELAY_MINUTES,
  CADENCE_MAX_STEPS,
  CADENCE_PLACEHOLDERS,
} from '../../automations/cadence-plan.ts';
import { CADENCE_STOP_REASONS } from '../../leads/cadence-stop.ts';
import { LIMITS } from '../../limits.ts';
import { AgentParams } from './agents.ts';
import { Enum, ListOf, Nullable, Text, Timestamp, Uuid, UuidParam } from './common.ts';

const Step = Type.Object(
  {
    after_minutes: Type.Integer({
      minimum: 0,
      maximum: CADENCE_MAX_DELAY_MINUTES,
      description:
        'Minutes after the lead’s delivery; the step then falls due at the next minute of the prospect’s calling hours.',
    }),
    action: Enum(CADENCE_ACTIONS, '`call`: a task in the dial queue; `text`: a text to the prospect.'),
    body: Type.Optional(
      Text(
        LIMITS.smsTemplateMaxLength,
        `A text’s words (required for a text); placeholders: ${CADENCE_PLACEHOLDERS.map((p) => `{${p}}`).join(', ')}.`,
      ),
    ),
  },
  { additionalProperties: false },
);

const Steps = Type.Array(Step, {
  maxItems: CADENCE_MAX_STEPS,
  description: `1 to ${CADENCE_MAX_STEPS} steps; kept in the order of their delay.`,
});

export const Cadence = Type.Object({
  cadence_id: Uuid(),
  agent_id: Uuid(),
  name: Type.String(),
  steps: Type.Array(Step),
  created_at: Timestamp(),
  updated_at: Timestamp(),
});

export const CadenceList = ListOf('cadences', Cadence);

export const CreateCadenceBody = Type.Object({ name: Text(), steps: Steps });

export const UpdateCadenceBody = Type.Object({
  name: Type.Optional(Text()),
  steps: Type.Optional({
    ...Steps,
    description: 'The whole new list; leads already following it keep theirs.',
  }),
});

export const CadenceParams = Type.Object({
  agent_id: AgentParams.properties.agent_id,
  cadence_id: UuidParam('The cadence. Not a UUID or unknown: 404 CADENCE_NOT_FOUND.'),
});

export const LeadCadence = Type.Object(
  {
    cadence_id: Uuid(),
    name: Type.String(),
    status: Enum(['active', 'stopped', 'completed']),
    stopped_reason: Nullable(Type.Unsafe<string>(Enum(CADENCE_STOP_REASONS))),
    started_at: Timestamp('The delivery the plan started from.'),
    ended_at: Nullable(Timestamp()),
    steps: Type.Array(
      Type.Object({
        action: Enum(CADENCE_ACTIONS),
        due_at: Timestamp('Inside the prospect’s calling hours.'),
        status: Enum(['pending', 'done', 'skipped', 'canceled']),
        reason: Nullable(Type.String(), {
          description: 'Why it was skipped, canceled or moved later, or what became of it once done.',
        }),
      }),
    ),
  },
  { description: 'The cadence the lead follows, with each step’s state (docs/cadences.md).' },
);
