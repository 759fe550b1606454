import type { AgendaChange } from '../appointments/transitions.ts';
import type { OutboxMessage } from '../outbox/topics.ts';

/** An appointment as the messages describe it. */
export interface AppointmentFacts {
  appointment_id: string;
  scheduled_at: string;
  external_id: string | null;
}

/**
 * One outbox message per agenda change, named for what happened: a booking, a reschedule (with
 * the appointment that replaces it when the same delivery booked one), a cancel, a no-show and its
 * removal. Pure: the transaction writes what this returns.
 */
export function appointmentMessages(
  changes: readonly AgendaChange[],
  context: {
    lead_id: string;
    source_id: string;
    /** Every appointment a change can name: the named one, the lead's booked ones, the incoming one. */
    appointments: readonly AppointmentFacts[];
    /** A scheduler's cancellation reason. */
    reason?: string | null;
  },
): OutboxMessage[] {
  const facts = new Map(context.appointments.map((a) => [a.appointment_id, a]));
  const booked = changes.find((c) => c.op === 'insert' && c.status === 'booked')?.appointment_id ?? null;
  const messages: OutboxMessage[] = [];
  for (const change of changes) {
    const known = facts.get(change.appointment_id);
    if (!known) throw new Error(`agenda change for an appointment not read: ${change.appointment_id}`);
    const payload = {
      appointment_id: known.appointment_id,
      lead_id: context.lead_id,
      source_id: context.source_id,
      scheduled_at: known.scheduled_at,
      external_id: known.external_id,
    };
    const to = change.op === 'insert' ? change.status : change.to;
    if (to === 'booked') {
      const restored = change.op === 'update' && change.from === 'no_show';
      messages.push({ topic: restored ? 'appointment.no_show_removed' : 'appointment.booked', payload });
    } else if (to === 'rescheduled') {
      const replaced_by = booked !== change.appointment_id ? booked : null;
      messages.push({ topic: 'appointment.rescheduled', payload: { ...payload, replaced_by } });
    } else if (to === 'canceled') {
      messages.push({
        topic: 'appointment.canceled',
        payload: { ...payload, reason: context.reason ?? null },
      });
    } else messages.push({ topic: 'appointment.no_show', payload });
  }
  return messages;
}
