import { Type } from 'typebox';
import { LIMITS } from '../../limits.ts';
import { SUPPRESSION_LISTS } from '../../screening/lists.ts';
import { DIGITS, Enum, Nullable, Timestamp, UuidParam } from './common.ts';

const List = Enum(
  SUPPRESSION_LISTS,
  'dnc: the agent’s or agency’s do-not-call list; litigator: known serial TCPA plaintiffs; customer: existing customers (recorded only); registry: the National Do Not Call Registry.',
);

export const SuppressionsParams = Type.Object({
  agent_id: UuidParam('The agent. Not a UUID: 400 INVALID_AGENT_IDENTIFIER.'),
});

export const AgencySuppressionsParams = Type.Object({
  agency_id: UuidParam('The agency. Not a UUID, or not one the key manages: 404 AGENCY_NOT_FOUND.'),
});

const Entry = Type.String({ description: 'The phone (10 digits) or email, as the list has it.' });

export const SuppressionEntryParams = Type.Object({
  agent_id: UuidParam('The agent. Not a UUID: 400 INVALID_AGENT_IDENTIFIER.'),
  list: List,
  entry: Entry,
});

export const AgencySuppressionEntryParams = Type.Object({
  agency_id: UuidParam('The agency. Not a UUID, or not one the key manages: 404 AGENCY_NOT_FOUND.'),
  list: List,
  entry: Entry,
});

const Values = (description: string) =>
  Type.Optional(Type.Array(Type.String({ maxLength: LIMITS.emailMaxLength }), { description }));

export const AddSuppressionsBody = Type.Object(
  {
    list: List,
    phones: Values('Phones, written any common US way; stored as their 10 digits.'),
    emails: Values('Emails; stored in lower case.'),
  },
  {
    additionalProperties: false,
    description: `At most ${LIMITS.suppressionsPerRequest} phones and emails in all. One that is no phone or email: 400 naming it, nothing added.`,
  },
);

export const AddSuppressionsResult = Type.Object({
  list: List,
  added: Type.Integer({ description: 'Entries new to the list (one already there is not added again).' }),
  total: Type.Integer({ description: 'Entries on the list now.' }),
});

export const SuppressionsQuery = Type.Object({
  list: Type.Optional(List),
  limit: Type.Optional(
    Type.String({
      pattern: DIGITS,
      description: `Page size from 1, default ${LIMITS.suppressionsPageDefault}; larger than ${LIMITS.suppressionsPageMax} is read as ${LIMITS.suppressionsPageMax}.`,
    }),
  ),
  cursor: Type.Optional(Type.String({ description: 'The `next_cursor` of the page before.' })),
});

export const SuppressionList = Type.Object({
  entries: Type.Array(
    Type.Object({
      list: List,
      phone: Type.Optional(Type.String()),
      email: Type.Optional(Type.String()),
      added_at: Timestamp(),
    }),
  ),
  next_cursor: Nullable(Type.String()),
});
