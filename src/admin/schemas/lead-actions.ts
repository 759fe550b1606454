import { Type } from 'typebox';
import { LIMITS } from '../../limits.ts';
import { CALL_OUTCOMES, LEAD_STATUSES } from '../../leads/lead-status.ts';
import { Enum, Text, Uuid } from './common.ts';

/** The bodies of an agent's actions on a lead, and what each answers. */

export const LeadStatusBody = Type.Object({
  status: Enum(
    LEAD_STATUSES,
    'The new status; the allowed changes from each status are in docs/admin-api.md ("Acting on a lead"). Another: 409 STATUS_NOT_ALLOWED.',
  ),
});

export const LeadNoteBody = Type.Object({
  note: Text(LIMITS.noteMaxLength, 'What the agent wants to remember, in the lead’s history.'),
});

export const LeadCallBody = Type.Object({
  outcome: Enum(CALL_OUTCOMES, 'The call’s outcome; the lead’s open call task, if any, is closed by it.'),
});

export const LeadActionResult = Type.Object({
  lead_id: Uuid(),
  status: Enum(LEAD_STATUSES, 'The lead’s status after the action.'),
  status_from: Enum(LEAD_STATUSES, 'Its status before.'),
});
