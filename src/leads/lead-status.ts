import type { AgendaEvent, AgendaPlan } from '../appointments/transitions.ts';

/**
 * The lead statuses, in the order an agent reads them; the database's CHECK holds the same list.
 * The gateway sets New, Scheduled and Canceled; the agent's call outcomes set Contacted, Not
 * interested and Bad number; a sale sets Sold (src/economics/sales.ts).
 */
export const LEAD_STATUSES = [
  'New',
  'Scheduled',
  'Canceled',
  'Contacted',
  'Not interested',
  'Bad number',
  'Sold',
] as const;
export type LeadStatus = (typeof LEAD_STATUSES)[number];

/** What an agent marks after calling a lead from the dial queue. */
export const CALL_OUTCOMES = ['reached', 'no_answer', 'bad_number', 'not_interested'] as const;
export type CallOutcome = (typeof CALL_OUTCOMES)[number];

/**
 * The lead's status after a call (docs/console.md, "Dial queue outcomes"). Reaching a New or
 * Canceled lead makes it Contacted; a Scheduled one stays Scheduled (its appointment stands). No
 * answer changes nothing. A bad number or "not interested" says so whatever the status was; a
 * Sold lead stays Sold (the policy stands whatever a later call to its client gives).
 */
export function statusAfterCall(current: LeadStatus, outcome: CallOutcome): LeadStatus {
  if (current === 'Sold') return current;
  switch (outcome) {
    case 'reached':
      return current === 'New' || current === 'Canceled' ? 'Contacted' : current;
    case 'no_answer':
      return current;
    case 'bad_number':
      return 'Bad number';
    case 'not_interested':
      return 'Not interested';
  }
}

/**
 * The statuses an agent may set by hand, from each status (docs/console.md, "Acting on a lead").
 * Scheduled and Canceled follow the lead's appointments and Sold its sales, so no hand sets them;
 * a Scheduled lead only closes (its appointment stays on the agenda until canceled); a closed one
 * may reopen; a Sold one may be set back to Contacted (a policy canceled), its sale kept.
 */
export const STATUS_CHANGES: Readonly<Record<LeadStatus, readonly LeadStatus[]>> = {
  New: ['Contacted', 'Not interested', 'Bad number'],
  Scheduled: ['Not interested', 'Bad number'],
  Canceled: ['New', 'Contacted', 'Not interested', 'Bad number'],
  Contacted: ['New', 'Not interested', 'Bad number'],
  'Not interested': ['New', 'Contacted'],
  'Bad number': ['New', 'Contacted'],
  Sold: ['Contacted'],
};

/** Whether an agent may move a lead from one status to another by hand. */
export function canChangeStatus(from: LeadStatus, to: LeadStatus): boolean {
  return STATUS_CHANGES[from].includes(to);
}

/** A new lead: Scheduled with an appointment, New without. The gateway decides, never the sender. */
export function statusOfNewLead(hasAppointment: boolean): LeadStatus {
  return hasAppointment ? 'Scheduled' : 'New';
}

/**
 * A repeat delivery: an appointment makes it Scheduled. Without one, Canceled, Not interested and
 * Bad number return to New (the prospect asked again, or the sender has new details); New,
 * Scheduled and Contacted stay.
 */
export function statusAfterResubmit(current: LeadStatus, hasAppointment: boolean): LeadStatus {
  if (hasAppointment) return 'Scheduled';
  return current === 'Canceled' || current === 'Not interested' || current === 'Bad number' ? 'New' : current;
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
