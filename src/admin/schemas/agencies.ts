import { Type } from 'typebox';
import { LIMITS } from '../../limits.ts';
import { LICENSE_STATES } from '../../routing/prospect-state.ts';
import { ROUTING_RULES, SKIP_REASONS } from '../../routing/route.ts';
import { Enum, ListOf, Nullable, Text, Timestamp, Uuid, UuidParam } from './common.ts';

const Zone = Text(
  LIMITS.timezoneMaxLength,
  'IANA time zone, e.g. America/Chicago: the day a daily cap counts.',
);
const ClaimMinutes = Nullable(Type.Integer({ minimum: 1, maximum: 10_080 }), {
  description:
    'A lead given by rotation and not worked (no call outcome) within this many minutes of the prospect’s calling hours moves to the next producer, at most twice, then to the fallback producer. null: never.',
});

export const Agency = Type.Object({
  agency_id: Uuid(),
  name: Type.String(),
  fallback_agent_id: Uuid('The producer who takes what nobody else may.'),
  timezone: Type.String(),
  claim_minutes: ClaimMinutes,
  created_at: Timestamp(),
});

/** What a producer has in an agency: where it is licensed, its share, its cap, whether it is paused. */
const Terms = {
  licensed_states: Type.Array(Enum(LICENSE_STATES)),
  weight: Type.Integer({ minimum: 1 }),
  daily_cap: Nullable(Type.Integer({ minimum: 1 })),
  active: Type.Boolean({ description: 'false: paused, skipped by the rotation (reason `inactive`).' }),
};
const AssignedToday = Type.Integer({ description: 'Leads given today, in the agency’s time zone.' });

export const Member = Type.Object({
  agent_id: Uuid(),
  name: Type.String({ description: 'The producer’s name.' }),
  ...Terms,
  assigned_today: AssignedToday,
});

export const AgencyWithMembers = Type.Object({ ...Agency.properties, members: Type.Array(Member) });

export const AgencyList = ListOf('agencies', Agency);

export const CreateAgencyBody = Type.Object({
  name: Text(),
  fallback_agent_id: Uuid(
    'An existing agent; with an agent key, the key’s own agent. Any other: 404 AGENT_NOT_FOUND.',
  ),
  timezone: Type.Optional(Zone),
  claim_minutes: Type.Optional(ClaimMinutes),
});

export const UpdateAgencyBody = Type.Object({
  name: Type.Optional(Text()),
  fallback_agent_id: Type.Optional(
    Uuid(
      'An existing agent; with an agent key, only the key’s own agent (handing an agency over is the operator’s act). Any other: 404 AGENT_NOT_FOUND.',
    ),
  ),
  timezone: Type.Optional(Zone),
  claim_minutes: Type.Optional(ClaimMinutes),
});

export const PutMemberBody = Type.Object({
  licensed_states: Type.Array(Type.String({ pattern: '^[A-Za-z]{2}$' }), {
    maxItems: LICENSE_STATES.length,
    uniqueItems: true,
    description: 'Two-letter codes (any case) of the 50 states and DC where the producer holds a license.',
  }),
  weight: Type.Optional(
    Type.Integer({ minimum: 1, maximum: 100, description: 'Share of the rotation (default 1).' }),
  ),
  daily_cap: Type.Optional(
    Nullable(Type.Integer({ minimum: 1, maximum: 100_000 }), {
      description: 'Leads a day at most; null: none.',
    }),
  ),
  active: Type.Optional(Type.Boolean({ description: 'Default true.' })),
});

export const AgencyParams = Type.Object({
  agency_id: UuidParam('The agency. Not a UUID or unknown: 404 AGENCY_NOT_FOUND.'),
});

export const MemberParams = Type.Object({
  agency_id: AgencyParams.properties.agency_id,
  agent_id: UuidParam(
    'The producer (an agent). Not a UUID: 400 INVALID_AGENT_IDENTIFIER. With an agent key, only its own agent or a producer the agency has; any other: 404.',
  ),
});

export const FallbackLead = Type.Object({
  lead_id: Uuid(),
  name: Type.String(),
  phone: Nullable(Type.String()),
  email: Nullable(Type.String()),
  status: Type.String(),
  state: Nullable(Type.String(), { description: 'The prospect’s state; null: unknown.' }),
  skipped: Type.Array(Type.Object({ agent_id: Uuid(), reason: Enum(SKIP_REASONS) })),
  created_at: Timestamp(),
  licensed: Type.Array(Type.Object({ agent_id: Uuid(), name: Type.String() }), {
    description: 'The producers licensed in the lead’s state: those it may be given to.',
  }),
});

export const FallbackQueue = ListOf('leads', FallbackLead);

export const AssignBody = Type.Object({
  agent_id: Uuid(
    'A producer of the agency licensed in the lead’s state. Not a producer of the agency: 404 AGENT_NOT_FOUND; not licensed there, or holding the contact as another lead: 400 VALIDATION_ERROR.',
  ),
});

export const QueueLeadParams = Type.Object({
  agency_id: AgencyParams.properties.agency_id,
  lead_id: UuidParam('A lead in the agency’s fallback queue. Not a UUID or not there: 404 LEAD_NOT_FOUND.'),
});

export const Routing = Type.Object(
  {
    rule: Enum(ROUTING_RULES),
    agency_id: Uuid(),
    state: Nullable(Type.String(), {
      description: 'The prospect’s state as routing found it; null: unknown.',
    }),
    skipped: Type.Array(Type.Object({ agent_id: Uuid(), reason: Enum(SKIP_REASONS) })),
    tried: Type.Array(Uuid(), { description: 'Every producer the lead was given to, first to last.' }),
    assigned_at: Timestamp('When it was given to the producer it is with.'),
  },
  { description: 'How a lead of an agency came to its producer (docs/routing.md).' },
);

export const InvitationBody = Type.Object(PutMemberBody.properties, {
  description: 'The terms the producer will have once it accepts: as a producer’s (PUT …/members/:agent_id).',
});

export const Invitation = Type.Object({
  invitation_id: Uuid(
    'The invitation itself: whoever holds it may accept it, once, until `expires_at`. Hand it to the producer.',
  ),
  agency_id: Uuid(),
  agency_name: Type.String(),
  ...Terms,
  created_at: Timestamp(),
  expires_at: Timestamp(),
});

export const InvitationList = ListOf('invitations', Invitation);

export const InvitationParams = Type.Object({
  agency_id: AgencyParams.properties.agency_id,
  invitation_id: UuidParam(
    'An open invitation of the agency. Not a UUID, unknown, of another agency, accepted or expired: 404 INVITATION_NOT_FOUND.',
  ),
});

export const Membership = Type.Object({
  agency_id: Uuid(),
  agency_name: Type.String(),
  ...Terms,
  assigned_today: AssignedToday,
});

export const MembershipList = ListOf('memberships', Membership);
