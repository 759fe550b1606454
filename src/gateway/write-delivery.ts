import { LIMITS } from '../limits.ts';
import {
  insertAppointment,
  lockAppointmentByExternalId,
  lockBookedAppointments,
  setAppointmentStatus,
  continueSeries,
} from '../appointments/appointment-repository.ts';
import { recordBookingEvent } from '../booking-events/booking-event-repository.ts';
import { isConstraintViolation, isTransientDbError, type PgError } from '../db/database.ts';
import { newId } from '../db/ids.ts';
import type { Database, Queryable } from '../db/index.ts';
import { fingerprintContact } from '../idempotency/fingerprint.ts';
import { claimIdempotencyKey, completeIdempotencyKey, type KeyScope } from '../idempotency/key-store.ts';
import { claimContactKeys, contactKeys, moveContactKeys } from '../leads/contact-keys.ts';
import { billDelivery } from '../leads/billing.ts';
import { insertHistory, insertLead, lockLead, updateLead } from '../leads/lead-repository.ts';
import { insertPurchase, lastBilled } from '../leads/purchase-repository.ts';
import type { StoredLead } from '../leads/merge-lead.ts';
import { enqueue } from '../outbox/enqueue.ts';
import { routeInAgency } from '../routing/route-delivery.ts';
import { acceptLead } from '../sources/acceptance.ts';
import { takeCapPlace } from '../sources/cap-counts.ts';
import { capPeriods } from '../sources/cap-periods.ts';
import { isSourceCurrent, type AuthenticatedSource } from '../sources/source-repository.ts';
import { hasCaps } from '../sources/terms.ts';
import { planWrite, type AgendaRead, type LiveDelivery, type WritePlan } from './plan-write.ts';
import { createRecent } from './recent.ts';
import {
  answerForUsedKey,
  rejected,
  successAnswer,
  unavailable,
  type DeliveryResult,
  type Rejected,
} from './result.ts';
import { UNCONFIRMED, type Unconfirmed, type SourceClaim } from './source-directory.ts';
import { isOneStatementCandidate } from './delivery-statement.ts';
import { createMergeWriter } from './write-merge.ts';
import { createNewContactWriter } from './write-new-contact.ts';

export type { LiveDelivery } from './plan-write.ts';

/** A live delivery's write (`createDeliveryWriter`). */
export type DeliveryWriter = (
  claim: SourceClaim,
  delivery: LiveDelivery,
) => Promise<DeliveryResult | Unconfirmed>;

/**
 * A live delivery's write. A lead outside its source's acceptance rules is refused at the door,
 * before anything is read or written (LEAD_NOT_ACCEPTED). A plain lead of an agent's own source
 * without caps is written by one statement, the token check included: a new contact — no stored
 * lead has its phone or email, its key is unused — in one round trip (write-new-contact.ts); a
 * repeat contact that asks nothing of the agenda by one read and one statement (write-merge.ts).
 * Everything else, or a delivery whose statement found the database other than it assumed, goes
 * through the one transaction (`writeInTransaction`). A contact this process wrote lately skips the
 * new contact's statement (a bounded memory of the contacts written: the statement would only find
 * it; the database decides either way). A source with caps counts each delivery in the
 * transaction, and an agency's lead is routed there. A failure writes nothing and comes back as a
 * refusal the sender may retry; a full cap writes nothing either, and is permanent
 * (SOURCE_CAP_REACHED).
 */
export function createDeliveryWriter(db: Database): DeliveryWriter {
  const writeNewContact = createNewContactWriter(db);
  const writeMerge = createMergeWriter(db);
  const recentContacts = createRecent(LIMITS.recentContactsRemembered);
  return async (claim, delivery) => {
    const refused = refusedAtTheDoor(claim.source, delivery);
    if (refused) return refused;
    const keys = contactKeys(delivery.lead.fields).map(
      (k) => `${claim.source.agent_id} ${k.kind} ${k.value}`,
    );
    try {
      const oneStatement =
        claim.source.agency_id === null && !hasCaps(claim.source.terms) && isOneStatementCandidate(delivery);
      const isNew = oneStatement && !keys.some((k) => recentContacts.has(k));
      let fast = isNew ? await writeNewContact(claim, delivery) : null;
      if (fast === null && oneStatement && keys.length > 0 && delivery.agenda === null)
        fast = await writeMerge(claim, delivery);
      const result = fast ?? (await db.withTransaction((tx) => writeInTransaction(tx, claim, delivery)));
      if (result.kind === 'created' || result.kind === 'merged') for (const k of keys) recentContacts.add(k);
      return result;
    } catch (err) {
      if (err instanceof CapReached) return err.refusal;
      return failedWrite(err);
    }
  };
}

/**
 * A plain lead outside its source's acceptance rules (sources/acceptance.ts): LEAD_NOT_ACCEPTED,
 * naming the rule. A scheduler's event is about a booking, not a lead bought: no rule applies.
 */
export function refusedAtTheDoor(source: AuthenticatedSource, d: LiveDelivery): Rejected | null {
  if (d.scheduler !== null) return null;
  const verdict = acceptLead(source.terms.accept, d.lead.fields);
  return verdict.accepted ? null : rejected('LEAD_NOT_ACCEPTED', verdict.details);
}

/** Thrown inside the transaction so that it rolls back: nothing of a delivery past a cap is kept. */
class CapReached extends Error {
  readonly refusal: Rejected;
  constructor(refusal: Rejected) {
    super(refusal.details);
    this.refusal = refusal;
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

/**
 * The one transaction of a live delivery, step by step: confirm the source taken from memory →
 * claim the idempotency key (a used one is replayed or refused) → take a place under the source's
 * caps (a full one rolls everything back) → for an agency's source, route the lead to a producer
 * (src/routing) → find the contact by its phone and email keys → read the agenda (row-locked) and
 * the source's last bill of the contact → decide (plan-write.ts, pure) → write the lead, its
 * appointments, history, event-log line, purchase and outbox messages → complete the key with the
 * answer.
 */
export async function writeInTransaction(
  tx: Queryable,
  claim: SourceClaim,
  delivery: LiveDelivery,
): Promise<DeliveryResult | Unconfirmed> {
  if (!claim.confirmed && !(await isSourceCurrent(tx, claim.tokenHash, claim.source))) return UNCONFIRMED;

  // The key is the source's, whoever the lead goes to.
  const scope = keyScope(claim.source, delivery);
  if (scope) {
    const fingerprint = fingerprintContact(delivery.lead.fields);
    const key = await claimIdempotencyKey(tx, scope, fingerprint);
    if (key.kind === 'existing') return answerForUsedKey(key, fingerprint);
  }
  await takePlaceUnderCaps(tx, claim.source, delivery);

  const agencyId = claim.source.agency_id;
  const routed = agencyId ? await routeInAgency(tx, agencyId, delivery.lead.fields, { commit: true }) : null;
  // From here on the lead is the producer's, as if it came from a source of their own.
  const source = routed
    ? { ...claim.source, agent_id: routed.agent_id, agent_timezone: routed.timezone }
    : claim.source;
  const newLeadId = newId();
  const stored = await findContact(tx, source.agent_id, delivery.lead, newLeadId);
  const d = stored || !delivery.leadIfNew ? delivery : { ...delivery, lead: delivery.leadIfNew };
  const agenda = await readAgenda(tx, source.agent_id, d, stored);
  const billed =
    stored && !d.scheduler ? await lastBilled(tx, source.agent_id, stored.lead_id, source.source_id) : null;
  const bill = billed ? billDelivery(source.terms.duplicate_days, billed.at, billed.now) : null;

  const plan = planWrite(source, delivery, { newLeadId, stored, agenda, routed, bill });

  // The writes depend on nothing but the plan: sent together, in order (database.ts,
  // transactionStatements), so the embedded database's one connection is held the shorter.
  await Promise.all([
    stored ? moveContactKeys(tx, source.agent_id, newLeadId, stored.lead_id) : null,
    ...planWrites(tx, source, plan),
    scope ? completeIdempotencyKey(tx, scope, plan.leadId, successAnswer(plan.result)) : null,
  ]);
  return plan.result;
}

/**
 * Counts a plain lead under its source's caps, in the days and months of the agent's (or the
 * agency's) zone; past one, the delivery is refused and its transaction rolled back, so a refused
 * delivery takes no place and neither does one that fails later.
 */
async function takePlaceUnderCaps(
  tx: Queryable,
  source: AuthenticatedSource,
  d: LiveDelivery,
): Promise<void> {
  const { caps, timezone } = source.terms;
  if (d.scheduler !== null || !hasCaps(source.terms)) return;
  const full = await takeCapPlace(tx, source, caps, capPeriods(Date.now(), timezone));
  if (full === null) return;
  const [count, per] = full === 'daily' ? [caps.daily, 'day'] : [caps.monthly, 'month'];
  throw new CapReached(
    rejected('SOURCE_CAP_REACHED', `this source's ${full} cap of ${count} leads is reached for this ${per}`),
  );
}

/** The delivery's replay key at its source, or null when it has none. */
function keyScope(source: AuthenticatedSource, d: LiveDelivery): KeyScope | null {
  if (!d.replayKey) return null;
  return { agent_id: source.agent_id, source_id: source.source_id, key: d.replayKey, digest: d.bodyDigest };
}

/** The statements that write what the plan decided, in the order they are sent. */
function planWrites(tx: Queryable, source: AuthenticatedSource, plan: WritePlan): Array<Promise<void>> {
  const writes: Array<Promise<void>> = [];
  if (plan.lead?.op === 'update') writes.push(updateLead(tx, source.agent_id, plan.leadId, plan.lead.row));
  if (plan.lead?.op === 'insert') writes.push(insertLead(tx, plan.leadId, plan.lead.row));
  // A plan's updates come before its insert, so a continued series reads the old one's new sequence.
  for (const change of plan.agenda) {
    if (change.op === 'update')
      writes.push(setAppointmentStatus(tx, source.agent_id, change.appointment_id, change.status));
    else {
      writes.push(insertAppointment(tx, change.row));
      if (change.continues)
        writes.push(continueSeries(tx, source.agent_id, change.row.appointment_id, change.continues));
    }
  }
  for (const entry of plan.history) writes.push(insertHistory(tx, entry));
  if (plan.purchase) writes.push(insertPurchase(tx, plan.purchase));
  if (plan.eventLog) writes.push(recordBookingEvent(tx, plan.eventLog));
  writes.push(enqueue(tx, source.agent_id, plan.messages));
  return writes;
}

/**
 * Claims the contact's phone and email keys for the lead it would become; when another lead already
 * holds one, that lead is the contact: it is locked (the caller moves the keys just claimed to it).
 */
async function findContact(
  tx: Queryable,
  agentId: string,
  lead: LiveDelivery['lead'],
  newLeadId: string,
): Promise<StoredLead | null> {
  const [existingId] = await claimContactKeys(tx, agentId, contactKeys(lead.fields), newLeadId);
  if (!existingId) return null;
  const stored = await lockLead(tx, agentId, existingId);
  if (!stored) throw new Error(`contact key points to a missing lead ${existingId}`);
  return stored;
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
    ? { appointment_id: newId(), scheduled_at: wanted.scheduled_at, external_id: d.externalId }
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
  const facts = [...booked, ...(named ? [named] : [])];
  if (replaced && !facts.some((f) => f.appointment_id === replaced.appointment_id)) facts.push(replaced);
  if (incoming) facts.push(incoming);
  return { named, booked, incoming, replaced, replacement, facts };
}

function constraintDetails(err: PgError): string {
  const what = err.constraint ? `constraint ${err.constraint}` : 'a database constraint';
  return `The lead violates ${what}${err.detail ? `: ${err.detail}` : ''}`;
}
