import type { AgendaEvent, AgendaPlan } from '../appointments/transitions.ts';

/** The lead statuses, in the order an agent reads them; the database's CHECK holds the same list. */
export const LEAD_STATUSES = ['New', 'Scheduled', 'Canceled'] as const;
export type LeadStatus = (typeof LEAD_STATUSES)[number];

/** A new lead: Scheduled with an appointment, New without. The gateway decides, never the sender. */
export function statusOfNewLead(hasAppointment: boolean): LeadStatus {
  return hasAppointment ? 'Scheduled' : 'New';
}

/** A repeat delivery: an appointment makes it Scheduled; without one, Canceled returns to New. */
export function statusAfterResubmit(current: LeadStatus, hasAppointment: boolean): LeadStatus {
  if (hasAppointment) return 'Scheduled';
  return current === 'Canceled' ? 'New' : current;
}

/**
 * The status once the delivery's agenda changes are made. `base` is what the two rules above
 * give. A cancel leaves the lead Scheduled while another booking remains (or a reschedule's new
 * booking is on its way); a late booking of an appointment already closed does not revive it.
 */
export function statusAfterAgenda(event: AgendaEvent | null, base: LeadStatus, plan: AgendaPlan): LeadStatus {
  switch (event?.kind) {
    case 'book': {
      const subject = plan.subject?.status;
      if (!subject || subject === 'booked') return base;
      if (plan.otherBooked) return 'Scheduled';
      return subject === 'canceled' ? 'Canceled' : base;
    }
    case 'cancel':
      return event.as === 'rescheduled' || plan.otherBooked ? 'Scheduled' : 'Canceled';
    default:
      return base; // no appointment, or a no-show: the lead keeps its status
  }
}
