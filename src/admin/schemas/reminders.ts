import { Type } from 'typebox';
import { REMINDER_KINDS } from '../../automations/reminder-plan.ts';
import { Enum, Nullable, Timestamp, Uuid } from './common.ts';

/** A reminder text of one of the lead's appointments (docs/reminders.md). */
export const LeadReminder = Type.Object({
  appointment_id: Uuid(),
  kind: Enum(REMINDER_KINDS, '`day_before`: 24 hours before; `hour_before`: an hour before.'),
  appointment_at: Timestamp('The appointment’s time it was planned for.'),
  due_at: Timestamp('Inside the prospect’s calling hours, before the appointment.'),
  status: Enum(['planned', 'sent', 'skipped']),
  reason: Nullable(Type.String(), {
    description:
      'Why it was skipped (`appointment canceled`, `no SMS consent`, `dnc`…) or waits (`turned off`, `outside calling hours`); null otherwise.',
  }),
});
