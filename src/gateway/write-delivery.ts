import { randomUUID } from 'node:crypto';
import { DateTime } from 'luxon';
import {
  insertAppointment,
  lockAppointmentByExternalId,
  lockBookedAppointments,
  setAppointmentStatus,
  type BookedAppointment,
  type NamedAppointment,
} from '../appointments/appointment-repository.ts';
import type { ResolvedAppointment } from '../appointments/schedule.ts';
import { isSuperseded, planAgenda, type AgendaEvent, type AgendaPlan } from '../appointments/transitions.ts';
import { recordBookingEvent, type NewBookingEvent } from '../booking-events/booking-event-repository.ts';
import type { BookingEvent } from '../booking-events/parse-event.ts';
import { isConstraintViolation, isTransientDbError, type PgError } from '../db/database.ts';
import type { Database, Queryable } from '../db/index.ts';
import { fingerprintContact, isSameContact } from '../idempotency/fingerprint.ts';
import { claimIdempotencyKey, completeIdempotencyKey, type KeyScope } from '../idempotency/key-store.ts';
import type { JsonObject } from '../json.ts';
import { claimContactKeys, contactKeys, moveContactKeys } from '../leads/contact-keys.ts';
import { consentEvidence } from '../leads/consent.ts';
import { insertHistory, insertLead, lockLead, updateLead } from '../leads/lead-repository.ts';
import { statusAfterAgenda, type LeadStatus } from '../leads/lead-status.ts';
import { mergeLead, type MergeResult, type StoredLead } from '../leads/merge-lead.ts';
import { enqueue } from '../outbox/enqueue.ts';
import type { OutboxMessage } from '../outbox/topics.ts';
import type { AuthenticatedSource } from '../sources/source-repository.ts';
import { appointmentMessages, type AppointmentFacts } from './outbox-messages.ts';
import type { PreparedLead } from './prepare-lead.ts';
import {
  rejected,
  successAnswer,
  unavailable,
  type DeliveredLead,
  type DeliveryResult,
  type Rejected,
} from './result.ts';

type InviteeEvent = Extract<BookingEvent, { kind: 'invitee' }>;

/** A live delivery, decided up to what the database knows. */
export interface LiveDelivery {
  lead: PreparedLead;
  /** The replay key, per source: the sender's idempotency key, or a scheduler's invitee uri + event. */
  replayKey: string | null;
  /** Stored on the lead as `idempotency_key`. */
  leadKey: string | null;
  /** The appointment's external id: a scheduler's invitee uri. */
  externalId: string | null;
  /** What the delivery does to the agenda; null when it carries no appointment. */
  agenda: AgendaEvent | null;
  /** For a scheduler's cancel: the canceled meeting, recorded closed if it was never seen. */
  meeting: ResolvedAppointment | null;
  /** The scheduler event the delivery came from, recorded in the source's event log. */
  scheduler: { event: InviteeEvent; payload: JsonObject } | null;
  /**
   * A scheduler's invitee without a name: the same lead named by its email or phone, written only
   * if the contact is new. A stored contact is merged with `lead`, which has no name, so the
   * stand-in never replaces a stored name (nor the first name derived from it).
   */
  leadIfNew?: PreparedLead;
}

/**
 * The one transaction of a live delivery: claim the idempotency key (replay or refuse a used one),
 * recognise the contact by its phone and email keys, plan the agenda, then write the lead, its
 * appointments, history, the scheduler's event log and the outbox, and remember the answer. Any
 * failure rolls all of it back and comes back as a refusal the sender may retry.
 */
export async function writeDelivery(
  db: Database,
  source: AuthenticatedSource,
  delivery: LiveDelivery,
): Promise<DeliveryResult> {
  try {
    return await db.withTransaction((tx) => writeInTransaction(tx, source, delivery));
  } catch (err) {
    return failedWrite(err);
  }
}

/**
 * A write that failed: a failure that will pass is 503 SERVICE_UNAVAILABLE, a constraint the
 * database enforced is INSERT_FAILED, anything else SERVER_ERROR.
 */
export function failedWrite(err: unknown): Rejected {
  if (isTransientDbError(err)) return unavailable(err);
  if (isConstraintViolation(err)) return rejected('INSERT_FAILED', constraintDetails(err), { cause: err });
  return rejected('SERVER_ERROR', undefined, { cause: err });
}

async function writeInTransaction(
  tx: Queryable,
  source: AuthenticatedSource,
  delivery: LiveDelivery,
): Promise<DeliveryResult> {
  const scope: KeyScope | null = delivery.replayKey
    ? { agent_id: source.agent_id, source_id: source.source_id, key: delivery.replayKey }
    : null;
  if (scope) {
    const fingerprint = fingerprintContact(delivery.lead.fields);
    const claim = await claimIdempotencyKey(tx, scope, fingerprint);
    if (claim.kind === 'existing') {
      if (!isSameContact(claim.contact, fingerprint)) return rejected('IDEMPOTENCY_KEY_REUSED');
      if (!claim.response) throw new Error('idempotency key row without a response');
      return { kind: 'replayed', answer: claim.response };
    }
  }

  const newLeadId = randomUUID();
  const stored = await recogniseContact(tx, source.agent_id, delivery.lead, newLeadId);
  const d = stored || !delivery.leadIfNew ? delivery : { ...delivery, lead: delivery.leadIfNew };
  const leadId = stored?.lead_id ?? newLeadId;
  const agenda = await readAgenda(tx, source.agent_id, d, stored);
  const plan = d.agenda ? planAgenda(d.agenda, agenda) : { changes: [], subject: null, otherBooked: false };
  // A scheduler event about an invitee its reschedule already replaced is older news than the
  // lead: it closes the old appointment (history, event log) and leaves the lead as it is.
  const superseded = stored !== null && d.scheduler !== null && isSuperseded(agenda);

  const merge = stored
    ? {
        from: stored.status,
        result: superseded ? unchanged(stored) : mergeInto(stored, d.lead, source.agent_timezone),
      }
    : null;
  const status =
    superseded && stored
      ? stored.status
      : statusAfterAgenda(d.agenda, merge?.result.status ?? d.lead.status, plan);
  const consent = consentEvidence(d.lead.fields, source.source_id);
  const body_format = d.lead.format;
  if (merge) {
    if (!superseded)
      await updateLead(tx, source.agent_id, leadId, { ...merge.result, status, consent, body_format });
  } else {
    await insertLead(tx, leadId, {
      agent_id: source.agent_id,
      source_id: source.source_id,
      status,
      fields: d.lead.fields,
      custom_fields: d.lead.custom_fields,
      idempotency_key: d.leadKey,
      consent,
      body_format,
    });
  }
  await writeAgenda(tx, source, d, leadId, plan);
  const written: Written = { leadId, merge, status, plan, superseded };
  await writeHistory(tx, source, d, written);

  const result = {
    kind: merge ? ('merged' as const) : ('created' as const),
    lead: deliveredLead(source, d, leadId, status),
  };
  if (d.scheduler) await recordSchedulerEvent(tx, source, d.scheduler, d.agenda, written);
  await enqueue(tx, source.agent_id, [
    ...(superseded ? [] : [leadMessage(source, d, written, agenda)]),
    ...appointmentMessages(plan.changes, {
      lead_id: leadId,
      source_id: source.source_id,
      appointments: agenda.facts,
      reason: d.scheduler?.event.cancellation?.reason ?? null,
    }),
  ]);
  if (scope) await completeIdempotencyKey(tx, scope, leadId, successAnswer(result));
  return result;
}

/**
 * Claims the contact's phone and email keys for the lead it would become; when another lead already
 * holds one, that lead is the contact: it is locked, and the keys just claimed move to it.
 */
async function recogniseContact(
  tx: Queryable,
  agentId: string,
  lead: PreparedLead,
  newLeadId: string,
): Promise<StoredLead | null> {
  const [existingId] = await claimContactKeys(tx, agentId, contactKeys(lead.fields), newLeadId);
  if (!existingId) return null;
  const stored = await lockLead(tx, agentId, existingId);
  if (!stored) throw new Error(`contact key points to a missing lead ${existingId}`);
  await moveContactKeys(tx, agentId, newLeadId, existingId);
  return stored;
}

interface AgendaRead {
  named: NamedAppointment | null;
  booked: BookedAppointment[];
  incoming: AppointmentFacts | null;
  /** A scheduler booking's `old_invitee`: the lead's appointment it replaces. */
  replaced: NamedAppointment | null;
  /** A scheduler cancel's `new_invitee`: the lead's appointment that already replaced it. */
  replacement: NamedAppointment | null;
  /** Everything a change may name, for the outbox messages. */
  facts: AppointmentFacts[];
}

/**
 * The agenda as the delivery finds it, row-locked: the appointment it names, the lead's bookings,
 * and for a scheduler's reschedule the lead's appointment of the other invitee (old or new).
 */
async function readAgenda(
  tx: Queryable,
  agentId: string,
  d: LiveDelivery,
  stored: StoredLead | null,
): Promise<AgendaRead> {
  const wanted = d.agenda?.kind === 'cancel' ? d.meeting : d.lead.appointment;
  const incoming = wanted
    ? { appointment_id: randomUUID(), scheduled_at: wanted.scheduled_at, external_id: d.externalId }
    : null;
  const asks = d.agenda !== null && (incoming !== null || d.agenda.kind === 'cancel');
  const named = asks && d.externalId ? await lockAppointmentByExternalId(tx, agentId, d.externalId) : null;
  const booked = asks && stored ? await lockBookedAppointments(tx, agentId, stored.lead_id) : [];
  const event = d.scheduler?.event;
  const ofLead = async (externalId: string | null | undefined) => {
    if (!asks || !stored || !externalId || externalId === d.externalId) return null;
    const found = await lockAppointmentByExternalId(tx, agentId, externalId);
    return found?.lead_id === stored.lead_id ? found : null;
  };
  const replaced = d.agenda?.kind === 'book' ? await ofLead(event?.oldInvitee) : null;
  const replacement = d.agenda?.kind === 'cancel' ? await ofLead(event?.newInvitee) : null;
  const facts: AppointmentFacts[] = [...booked, ...(named ? [named] : [])];
  if (replaced && !facts.some((f) => f.appointment_id === replaced.appointment_id)) facts.push(replaced);
  if (incoming) facts.push(incoming);
  return { named, booked, incoming, replaced, replacement, facts };
}

/** The stored lead as it is: what a superseded event "merges". */
function unchanged(stored: StoredLead): MergeResult {
  return { fields: stored.fields, custom_fields: stored.custom_fields, status: stored.status, changes: {} };
}

function mergeInto(stored: StoredLead, lead: PreparedLead, agentTimezone: string): MergeResult {
  const today = DateTime.now().setZone(agentTimezone).toISODate() ?? '';
  return mergeLead(
    stored,
    { fields: lead.fields, custom_fields: lead.custom_fields, hasAppointment: lead.appointment !== null },
    today,
  );
}

/** Writes the planned changes; a new appointment carries the links the sender put in custom_fields. */
async function writeAgenda(
  tx: Queryable,
  source: AuthenticatedSource,
  d: LiveDelivery,
  leadId: string,
  plan: AgendaPlan,
): Promise<void> {
  for (const change of plan.changes) {
    if (change.op === 'update') {
      await setAppointmentStatus(tx, source.agent_id, change.appointment_id, change.to);
      continue;
    }
    const time = d.agenda?.kind === 'cancel' ? d.meeting : d.lead.appointment;
    if (!time) throw new Error('an appointment to insert without its time');
    const text = (key: string) => {
      const value = d.lead.custom_fields[key];
      return typeof value === 'string' ? value : null;
    };
    const setter = d.lead.fields.setter_dialer_name;
    await insertAppointment(tx, {
      ...time,
      agent_id: source.agent_id,
      appointment_id: change.appointment_id,
      lead_id: leadId,
      status: change.status,
      setter_dialer_name: typeof setter === 'string' ? setter : null,
      join_url: text('join_url'),
      cancel_url: text('cancel_url'),
      reschedule_url: text('reschedule_url'),
      external_id: d.externalId,
    });
  }
}

interface Written {
  leadId: string;
  /** For a repeat contact: the status it had, and the merge. */
  merge: { from: LeadStatus; result: MergeResult } | null;
  status: LeadStatus;
  plan: AgendaPlan;
  /** An event about an invitee already replaced by its reschedule: the lead was left as it was. */
  superseded: boolean;
}

/** The appointment a booking delivery booked or kept (the history's and messages' `appointment_id`). */
function bookedBy(d: LiveDelivery, plan: AgendaPlan): string | null {
  return d.agenda?.kind === 'book' ? (plan.subject?.appointment_id ?? null) : null;
}

/** `created` or `merged` with every field change, then what a scheduler's cancel did. */
async function writeHistory(
  tx: Queryable,
  source: AuthenticatedSource,
  d: LiveDelivery,
  w: Written,
): Promise<void> {
  const entry = { agent_id: source.agent_id, lead_id: w.leadId, source_id: source.source_id };
  const appointmentId = bookedBy(d, w.plan);
  const warnings = d.lead.warnings.length;
  if (w.superseded) {
    // Nothing of the lead changed: only what the event did to the agenda is told below.
  } else if (w.merge) {
    const rescheduled = d.agenda?.kind === 'book' ? w.plan.changes.filter((c) => c.op === 'update') : [];
    await insertHistory(tx, {
      ...entry,
      event: 'merged',
      changes: w.merge.result.changes,
      details: {
        status_from: w.merge.from,
        status_to: w.status,
        appointment_id: appointmentId,
        rescheduled_appointment_ids: rescheduled.map((c) => c.appointment_id),
        warnings,
      },
    });
  } else {
    await insertHistory(tx, {
      ...entry,
      event: 'created',
      details: { status: w.status, appointment_id: appointmentId, warnings },
    });
  }
  if (d.agenda?.kind === 'cancel' && d.scheduler) {
    const event = d.scheduler.event;
    await insertHistory(tx, {
      ...entry,
      event: `appointment_${d.agenda.as}`,
      details: {
        invitee_uri: event.inviteeUri,
        appointment_id: w.plan.subject?.appointment_id ?? null,
        new_invitee: event.newInvitee,
        reason: event.cancellation?.reason ?? null,
        canceled_by: event.cancellation?.canceled_by ?? null,
        canceler_type: event.cancellation?.canceler_type ?? null,
        status_to: w.status,
      },
    });
  }
}

/**
 * The event-log line: what a cancel did to the appointment, else whether the lead was created or
 * updated; a late booking of an invitee already replaced changed nothing and is `ignored`.
 */
function recordSchedulerEvent(
  tx: Queryable,
  source: AuthenticatedSource,
  scheduler: NonNullable<LiveDelivery['scheduler']>,
  agenda: AgendaEvent | null,
  w: Written,
): Promise<void> {
  const outcome =
    agenda?.kind === 'cancel'
      ? (`appointment_${agenda.as}` as const)
      : w.superseded
        ? 'ignored'
        : w.merge
          ? 'lead_updated'
          : 'lead_created';
  return recordBookingEvent(
    tx,
    bookingEventRow(
      source,
      scheduler.event.event,
      scheduler.event.inviteeUri,
      scheduler.payload,
      w.leadId,
      outcome,
    ),
  );
}

/** The record of one scheduler event for the agent's event log. */
export function bookingEventRow(
  source: AuthenticatedSource,
  event: string,
  inviteeUri: string | null,
  payload: JsonObject,
  leadId: string | null,
  outcome: NewBookingEvent['outcome'],
): NewBookingEvent {
  return {
    agent_id: source.agent_id,
    source_id: source.source_id,
    event,
    invitee_uri: inviteeUri,
    lead_id: leadId,
    outcome,
    payload,
  };
}

function deliveredLead(
  source: AuthenticatedSource,
  d: LiveDelivery,
  leadId: string,
  status: LeadStatus,
): DeliveredLead {
  return {
    lead_id: leadId,
    agent_id: source.agent_id,
    status,
    appointment: d.lead.appointment,
    auto_sync_enabled: source.auto_sync_enabled,
    warnings: d.lead.warnings,
    ...(d.agenda?.kind === 'cancel' ? { closed: d.agenda.as } : {}),
  };
}

/** `lead.created` or `lead.updated`, with the appointment the delivery booked or kept. */
function leadMessage(
  source: AuthenticatedSource,
  d: LiveDelivery,
  w: Written,
  agenda: AgendaRead,
): OutboxMessage {
  const appointmentId = bookedBy(d, w.plan);
  const common = {
    lead_id: w.leadId,
    source_id: source.source_id,
    status: w.status,
    appointment_id: appointmentId,
    scheduled_at: agenda.facts.find((a) => a.appointment_id === appointmentId)?.scheduled_at ?? null,
  };
  if (w.merge) {
    return {
      topic: 'lead.updated',
      payload: { ...common, status_from: w.merge.from, changed_fields: Object.keys(w.merge.result.changes) },
    };
  }
  const text = (field: string) => {
    const value = d.lead.fields[field];
    return typeof value === 'string' ? value : null;
  };
  return {
    topic: 'lead.created',
    payload: { ...common, name: text('name') ?? '', phone: text('phone'), email: text('email') },
  };
}

/** Deadlocks and serialization failures are the database asking for a retry: give it a few. */
function constraintDetails(err: PgError): string {
  const what = err.constraint ? `constraint ${err.constraint}` : 'a database constraint';
  return `The lead violates ${what}${err.detail ? `: ${err.detail}` : ''}`;
}
