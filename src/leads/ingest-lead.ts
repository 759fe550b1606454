import { randomUUID } from 'node:crypto';
import { DateTime } from 'luxon';
import type { Database, Queryable } from '../db/index.ts';
import { isConstraintViolation, isPgError } from '../db/database.ts';
import { appError, AppError } from '../errors.ts';
import {
  claimIdempotencyKey,
  completeIdempotencyKey,
  contactIdentity,
  isSameContact,
  type KeyScope,
} from '../idempotency/idempotency-key.ts';
import { enqueue } from '../outbox/outbox.ts';
import type { AuthenticatedSource } from '../sources/source-repository.ts';
import { claimContactKeys, contactKeys } from './contact-keys.ts';
import { createNewLead, mergeIntoLead, type Outcome } from './lead-writes.ts';
import type { PreparedLead } from './prepare-lead.ts';

export type DeliveryResponse = Record<string, unknown>;

export interface DeliveryOptions {
  /** The replay key, per source (header or body; for booking events the invitee uri + event name). */
  idempotencyKey?: string;
  /** Stored on the lead as `idempotency_key` when it differs from the replay key (booking events). */
  leadKey?: string;
  /** The appointment's external id (booking events: the invitee uri). */
  externalId?: string;
  /** Booking events act on the lead after it is created or merged, in the same transaction. */
  after?: (tx: Queryable, outcome: Outcome, response: DeliveryResponse) => Promise<DeliveryResponse>;
}

/**
 * A live delivery, in one transaction: claim the idempotency key, recognise the contact (claim
 * its phone and email keys), create the lead or merge into the existing one, book the
 * appointment, record history, enqueue the automations, remember the response. Any database
 * error rolls all of it back: no lead without its appointment, no key without its lead.
 */
export async function ingestLead(
  db: Database,
  source: AuthenticatedSource,
  lead: PreparedLead,
  options: DeliveryOptions = {},
): Promise<DeliveryResponse> {
  try {
    return await retryOnConflict(() =>
      db.withTransaction((tx) => deliverInTransaction(tx, source, lead, options)),
    );
  } catch (err) {
    if (err instanceof AppError) throw err;
    if (isConstraintViolation(err)) {
      throw Object.assign(appError('INSERT_FAILED', constraintDetails(err)), { cause: err });
    }
    throw Object.assign(appError('SERVER_ERROR'), { cause: err });
  }
}

async function deliverInTransaction(
  tx: Queryable,
  source: AuthenticatedSource,
  lead: PreparedLead,
  options: DeliveryOptions,
): Promise<DeliveryResponse> {
  const idempotencyKey = options.idempotencyKey;
  const scope: KeyScope | undefined = idempotencyKey
    ? { agent_id: source.agent_id, source_id: source.source_id, key: idempotencyKey }
    : undefined;
  if (scope) {
    const contact = contactIdentity(lead.fields);
    const claim = await claimIdempotencyKey(tx, scope, contact);
    if (claim.kind === 'existing') {
      if (!isSameContact(claim.contact, contact)) throw appError('IDEMPOTENCY_KEY_REUSED');
      if (!claim.response) throw new Error('idempotency key row without a response');
      return { ...claim.response, idempotent_replay: true };
    }
  }

  const newLeadId = randomUUID();
  const existing = await claimContactKeys(tx, source.agent_id, contactKeys(lead.fields), newLeadId);
  const target = existing[0];
  const today = DateTime.now().setZone(source.agent_timezone).toISODate() ?? '';
  const keys = { leadKey: options.leadKey ?? idempotencyKey ?? null, externalId: options.externalId ?? null };
  const outcome = target
    ? await mergeIntoLead(tx, source, lead, { leadId: target, claimedFor: newLeadId, today }, keys)
    : await createNewLead(tx, source, lead, newLeadId, keys);

  let response = successResponse(source, lead, outcome);
  if (options.after) response = await options.after(tx, outcome, response);
  await enqueue(tx, source.agent_id, outcome.merged ? 'lead.updated' : 'lead.created', {
    lead_id: outcome.leadId,
    source_id: source.source_id,
    status: response.status,
    scheduled_at: outcome.appointmentBooked ? (lead.appointment?.scheduled_at ?? null) : null,
  });
  if (scope) await completeIdempotencyKey(tx, scope, outcome.leadId, response);
  return response;
}

function successResponse(
  source: AuthenticatedSource,
  lead: PreparedLead,
  outcome: Outcome,
): DeliveryResponse {
  const message = outcome.merged
    ? 'Lead updated'
    : lead.appointment
      ? 'Lead created and appointment scheduled'
      : 'Lead created';
  const response: DeliveryResponse = {
    success: true,
    message,
    listen: false,
    lead_id: outcome.leadId,
    agent_id: source.agent_id,
    status: outcome.status,
  };
  if (lead.appointment) {
    response.scheduled_at = lead.appointment.scheduled_at;
    response.appointment_timezone = lead.appointment.appointment_timezone;
    response.schedule_type = lead.appointment.schedule_type;
  }
  if (outcome.merged) response.resubmit = true;
  response.auto_sync_enabled = source.auto_sync_enabled;
  if (lead.warnings.length > 0) response.warnings = lead.warnings;
  return response;
}

/** Deadlocks and serialization failures are the database asking for a retry: give it two. */
async function retryOnConflict<T>(run: () => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await run();
    } catch (err) {
      const retryable = isPgError(err) && (err.code === '40P01' || err.code === '40001');
      if (!retryable || attempt >= 3) throw err;
    }
  }
}

function constraintDetails(err: { message: string; constraint?: string; detail?: string }): string {
  const what = err.constraint ? `constraint ${err.constraint}` : 'a database constraint';
  return `The lead violates ${what}${err.detail ? `: ${err.detail}` : ''}`;
}
