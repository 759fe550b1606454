import { Type } from 'typebox';
import { LIMITS } from '../../limits.ts';
import { REMINDER_PLACEHOLDERS } from '../../automations/reminder-plan.ts';
import { DIGITS, ListOf, Nullable, Text, Timestamp, Uuid, UuidParam } from './common.ts';

/** An address with one `@` and a dot after it; blanks around it are trimmed. */
export const EMAIL_PATTERN = '^\\s*[^\\s@]+@[^\\s@]+\\.[^\\s@]+\\s*$';

const Email = (description: string) =>
  Type.String({ maxLength: LIMITS.emailMaxLength, pattern: EMAIL_PATTERN, description });
const Zone = Text(LIMITS.timezoneMaxLength, 'IANA time zone, e.g. America/Chicago.');
const placeholders = REMINDER_PLACEHOLDERS.map((p) => `{${p}}`).join(', ');

/** The texts a prospect gets before an appointment (docs/reminders.md). */
export const AgentReminders = Type.Object(
  {
    day_before: Type.Boolean({ description: 'A text 24 hours before (default on).' }),
    hour_before: Type.Boolean({ description: 'A text an hour before (default on).' }),
    template: Nullable(Type.String(), {
      description: `The reminder’s words (${placeholders}); null: the default.`,
    }),
  },
  { description: 'Reminder texts to the prospect before each appointment (docs/reminders.md).' },
);

export const Agent = Type.Object({
  agent_id: Uuid(),
  name: Type.String(),
  timezone: Type.String({ description: 'IANA time zone (default America/New_York).' }),
  email: Nullable(Type.String(), { description: 'The agent’s console login; null: none.' }),
  sms_template: Nullable(Type.String(), {
    description:
      'The first text new leads get ({agent_name}, {first_name}, {appointment_time}); null: the default.',
  }),
  sms_from: Nullable(Type.String(), {
    description:
      'The number the agent texts from (Twilio’s `From`, E.164); its prospects’ answers to it reach its leads. null: the provider’s own.',
  }),
  default_cadence_id: Nullable(Uuid(), {
    description: 'The cadence new leads of its sources without one follow (docs/cadences.md); null: none.',
  }),
  reminders: AgentReminders,
  appointment_minutes: Type.Integer({
    description:
      'How long an appointment lasts on the calendar feed when its booking does not say (docs/calendar.md).',
  }),
  created_at: Timestamp(),
});

export const CreateAgentBody = Type.Object({
  name: Text(),
  timezone: Type.Optional(Zone),
  email: Type.Optional(Email('The console login (unique, any case). Another agent’s: 409 EMAIL_TAKEN.')),
});

export const UpdateAgentBody = Type.Object({
  name: Type.Optional(Text()),
  timezone: Type.Optional(Zone),
  sms_template: Type.Optional(Nullable(Text(LIMITS.smsTemplateMaxLength))),
  email: Type.Optional(
    Nullable(Email('The console login; null removes it. Another agent’s: 409 EMAIL_TAKEN.')),
  ),
  sms_from: Type.Optional(
    Nullable(
      Type.String({
        maxLength: 32,
        description:
          'The number the agent texts from, a North American number in any writing (kept as +1XXXXXXXXXX); null: the provider’s. Operator only; another agent’s: 409 SMS_FROM_TAKEN.',
      }),
    ),
  ),
  default_cadence_id: Type.Optional(
    Nullable(Uuid(), {
      description:
        'The cadence (one of the agent’s) that new leads of sources without one follow; null: none. Unknown: 404 CADENCE_NOT_FOUND.',
    }),
  ),
  appointment_minutes: Type.Optional(
    Type.Integer({
      minimum: 5,
      maximum: 480,
      description:
        'Minutes an appointment lasts on the calendar feed when its booking gives no end (default 30).',
    }),
  ),
  reminders: Type.Optional(
    Type.Object(
      {
        day_before: Type.Optional(Type.Boolean()),
        hour_before: Type.Optional(Type.Boolean()),
        template: Type.Optional(
          Nullable(Text(LIMITS.smsTemplateMaxLength), {
            description: `The reminder’s words (${placeholders}; another is 400 VALIDATION_ERROR); null: the default.`,
          }),
        ),
      },
      {
        description:
          'Turns each reminder on or off and sets its words. Turning one on plans it for the booked appointments still to come.',
      },
    ),
  ),
});

export const SetPasswordBody = Type.Object({
  password: Type.String({
    minLength: LIMITS.passwordMinLength,
    maxLength: LIMITS.passwordMaxLength,
    description: 'Stored as an Argon2id hash.',
  }),
});

export const AgentKey = Type.Object({
  key_id: Uuid(),
  created_at: Timestamp(),
  revoked_at: Nullable(Timestamp()),
});

export const AgentKeyCreated = Type.Object({
  key_id: Uuid(),
  key: Type.String({ description: '`lgk_` + 43 characters; send as `Authorization: Bearer <key>`.' }),
  created_at: Timestamp(),
});

export const AgentKeyList = ListOf('keys', AgentKey);

export const AgentParams = Type.Object({
  agent_id: UuidParam('The agent. Not a UUID: 400 INVALID_AGENT_IDENTIFIER.'),
});

export const AgentListQuery = Type.Object({
  limit: Type.Optional(
    Type.String({
      pattern: DIGITS,
      description: `Page size from 1, default ${LIMITS.agentsPageDefault}; larger than ${LIMITS.agentsPageMax} is read as ${LIMITS.agentsPageMax}.`,
    }),
  ),
  cursor: Type.Optional(
    Type.String({
      pattern: '^[0-9a-fA-F]{8}(-[0-9a-fA-F]{4}){3}-[0-9a-fA-F]{12}$',
      description: 'The `next_cursor` of the previous page.',
    }),
  ),
});

export const AgentList = Type.Object({
  agents: Type.Array(Agent),
  next_cursor: Nullable(Type.String(), {
    description: 'Pass as cursor for the next page; null on the last one.',
  }),
});
