/**
 * The life of an appointment, as one pure function: what a delivery does to the agent's agenda,
 * given what is already there. No I/O; the gateway reads the state (row-locked), calls
 * `planAgenda`, and writes the changes it returns. The rules, and why:
 * docs/decisions/0013-statuses-and-appointments.md, docs/decisions/0019-booking-events.md.
 */

export const APPOINTMENT_STATUSES = ['booked', 'rescheduled', 'canceled', 'no_show'] as const;
export type AppointmentStatus = (typeof APPOINTMENT_STATUSES)[number];

/** What a delivery asks of the agenda. */
export type AgendaEvent =
  /** The delivery carries an appointment: a lead with a time, or a scheduler's booking. */
  | { kind: 'book' }
  /** A scheduler's cancel of one invitee; `rescheduled` when the invitee moved to a new time. */
  | { kind: 'cancel'; as: 'canceled' | 'rescheduled' }
  /** A scheduler reports that the invitee did not show up, or takes that back. */
  | { kind: 'no_show' }
  | { kind: 'no_show_removed' };

export interface AppointmentRef {
  appointment_id: string;
  status: AppointmentStatus;
}

export interface AgendaState {
  /** The appointment the delivery names by its external id (a scheduler's invitee), if recorded. */
  named: AppointmentRef | null;
  /** The lead's booked appointments before this delivery (empty for a new lead). */
  booked: ReadonlyArray<{ appointment_id: string; scheduled_at: string; external_id: string | null }>;
  /**
   * The appointment this delivery would write, with the id it gets if it is written: the time a
   * lead or booking asks for, or for a cancel the canceled meeting (recorded closed, so a late
   * booking of it is never revived).
   */
  incoming: { appointment_id: string; scheduled_at: string; external_id: string | null } | null;
  /**
   * For a scheduler's booking that is a reschedule: the appointment of the invitee it replaces
   * (its `old_invitee`), if recorded for the same lead. That meeting will not happen.
   */
  replaced?: AppointmentRef | null;
}

export type AgendaChange =
  /** `continues`: the appointment a reschedule replaced, whose calendar event this one carries on. */
  | { op: 'insert'; appointment_id: string; status: AppointmentStatus; continues?: string }
  | { op: 'update'; appointment_id: string; from: AppointmentStatus; to: AppointmentStatus };

export interface AgendaPlan {
  changes: AgendaChange[];
  /** The appointment the delivery is about once the changes are made; null when there is none. */
  subject: AppointmentRef | null;
  /** Whether the lead still has a booked appointment other than the subject after the changes. */
  otherBooked: boolean;
}

/**
 * Decides the changes. Order independence comes from the named appointment: a booking already
 * recorded (even closed) is never booked again, a cancel never touches another appointment, and a
 * scheduler's booking replaces another scheduler booking only when it says so itself (its
 * `old_invitee`); otherwise each invitee has its own events.
 */
export function planAgenda(event: AgendaEvent, state: AgendaState): AgendaPlan {
  const changes: AgendaChange[] = [];
  const subject = decide(event, state, changes);
  return { changes, subject, otherBooked: hasOtherBooked(state, changes, subject) };
}

function decide(event: AgendaEvent, state: AgendaState, changes: AgendaChange[]): AppointmentRef | null {
  const { named, incoming } = state;
  switch (event.kind) {
    case 'book': {
      if (!incoming) return null;
      if (named) return named; // a retried or late booking: it keeps whatever happened to it since
      const at = Date.parse(incoming.scheduled_at);
      const same = state.booked.find((b) => Date.parse(b.scheduled_at) === at);
      if (same) return { appointment_id: same.appointment_id, status: 'booked' }; // a resend, not a reschedule
      for (const old of state.booked) {
        // A scheduler's invitee is moved only by its own events; any other new time replaces the old.
        if (incoming.external_id && old.external_id) continue;
        changes.push(update(old.appointment_id, 'booked', 'rescheduled'));
      }
      const replaced = state.replaced;
      if (
        replaced &&
        isOpen(replaced.status) &&
        !changes.some((c) => c.appointment_id === replaced.appointment_id)
      )
        changes.push(update(replaced.appointment_id, replaced.status, 'rescheduled'));
      // The calendar's event moves with the meeting; one canceled outright stays canceled.
      const moved =
        changes.find((c) => c.op === 'update')?.appointment_id ??
        (replaced?.status === 'rescheduled' ? replaced.appointment_id : undefined);
      return insert(changes, incoming.appointment_id, 'booked', moved);
    }
    case 'cancel': {
      if (!named) return incoming ? insert(changes, incoming.appointment_id, event.as) : null;
      if (!isOpen(named.status)) return named; // closed stays closed
      changes.push(update(named.appointment_id, named.status, event.as));
      return { appointment_id: named.appointment_id, status: event.as };
    }
    case 'no_show':
    case 'no_show_removed': {
      if (!named) return null;
      const [from, to] =
        event.kind === 'no_show' ? (['booked', 'no_show'] as const) : (['no_show', 'booked'] as const);
      if (named.status !== from) return named; // repeated, or the appointment moved on
      changes.push(update(named.appointment_id, from, to));
      return { appointment_id: named.appointment_id, status: to };
    }
  }
}

/**
 * Whether a scheduler event is about an invitee that its reschedule already replaced: its own
 * appointment is already `rescheduled` (closed by the new booking, or by an earlier delivery), or
 * the invitee that replaced it (a cancel's `new_invitee`) is already on the lead's agenda. Such an
 * event is older news than what the lead holds: it may only close the old appointment, never
 * change the lead (docs/booking-events.md, "Reschedules in any order").
 */
export function isSuperseded(state: {
  named: AppointmentRef | null;
  replacement: AppointmentRef | null;
}): boolean {
  return state.named?.status === 'rescheduled' || state.replacement !== null;
}

/** Booked, or marked no-show but not closed: a cancel or a reschedule still closes it. */
function isOpen(status: AppointmentStatus): boolean {
  return status === 'booked' || status === 'no_show';
}

function update(appointment_id: string, from: AppointmentStatus, to: AppointmentStatus): AgendaChange {
  return { op: 'update', appointment_id, from, to };
}

function insert(
  changes: AgendaChange[],
  appointment_id: string,
  status: AppointmentStatus,
  continues?: string,
): AppointmentRef {
  changes.push(
    continues
      ? { op: 'insert', appointment_id, status, continues }
      : { op: 'insert', appointment_id, status },
  );
  return { appointment_id, status };
}

function hasOtherBooked(
  state: AgendaState,
  changes: AgendaChange[],
  subject: AppointmentRef | null,
): boolean {
  const closed = new Set(
    changes.filter((c) => c.op === 'update' && c.to !== 'booked').map((c) => c.appointment_id),
  );
  return state.booked.some(
    (b) => b.appointment_id !== subject?.appointment_id && !closed.has(b.appointment_id),
  );
}
