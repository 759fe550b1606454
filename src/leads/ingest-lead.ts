import { insertAppointment } from '../appointments/appointment-repository.ts';
import type { Database } from '../db/index.ts';
import { isConstraintViolation } from '../db/database.ts';
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
import { insertHistory, insertLead } from './lead-repository.ts';
import type { PreparedLead } from './prepare-lead.ts';

export type DeliveryResponse = Record<string, unknown>;

/**
 * A live delivery, in one transaction: claim the idempotency key, create the lead and its
 * appointment, record history, enqueue the automations, remember the response. Any database
 * error rolls all of it back: no lead without its appointment, no key without its lead.
 */
export async function ingestLead(
  db: Database,
  source: AuthenticatedSource,
  lead: PreparedLead,
  idempotencyKey: string | undefined,
): Promise<DeliveryResponse> {
  try {
    return await db.withTransaction(async (tx) => {
      const scope: KeyScope | undefined = idempotencyKey
        ? { agent_id: source.agent_id, source_id: source.source_id, key: idempotencyKey }
        : undefined;
      const contact = contactIdentity(lead.fields);
      if (scope) {
        const claim = await claimIdempotencyKey(tx, scope, contact);
        if (claim.kind === 'existing') {
          if (!isSameContact(claim.contact, contact)) throw appError('IDEMPOTENCY_KEY_REUSED');
          if (!claim.response) throw new Error('idempotency key row without a response');
          return { ...claim.response, idempotent_replay: true };
        }
      }

      const leadId = await insertLead(tx, {
        agent_id: source.agent_id,
        source_id: source.source_id,
        status: lead.status,
        fields: lead.fields,
        custom_fields: lead.custom_fields,
        idempotency_key: idempotencyKey ?? null,
      });
      const custom = lead.custom_fields;
      const text = (key: string) => (typeof custom[key] === 'string' ? (custom[key] as string) : null);
      if (lead.appointment) {
        await insertAppointment(tx, {
          ...lead.appointment,
          agent_id: source.agent_id,
          lead_id: leadId,
          setter_dialer_name:
            typeof lead.fields.setter_dialer_name === 'string' ? lead.fields.setter_dialer_name : null,
          join_url: text('join_url'),
          cancel_url: text('cancel_url'),
          reschedule_url: text('reschedule_url'),
          external_id: null,
        });
      }
      await insertHistory(tx, {
        agent_id: source.agent_id,
        lead_id: leadId,
        source_id: source.source_id,
        event: 'created',
        details: { status: lead.status, warnings: lead.warnings.length },
      });

      const response = successResponse(source, leadId, lead);
      await enqueue(tx, source.agent_id, 'lead.created', {
        lead_id: leadId,
        source_id: source.source_id,
        status: lead.status,
        scheduled_at: lead.appointment?.scheduled_at ?? null,
      });
      if (scope) await completeIdempotencyKey(tx, scope, leadId, response);
      return response;
    });
  } catch (err) {
    if (err instanceof AppError) throw err;
    if (isConstraintViolation(err)) {
      throw Object.assign(appError('INSERT_FAILED', constraintDetails(err)), { cause: err });
    }
    throw Object.assign(appError('SERVER_ERROR'), { cause: err });
  }
}

function successResponse(source: AuthenticatedSource, leadId: string, lead: PreparedLead): DeliveryResponse {
  const response: DeliveryResponse = {
    success: true,
    message: lead.appointment ? 'Lead created and appointment scheduled' : 'Lead created',
    listen: false,
    lead_id: leadId,
    agent_id: source.agent_id,
    status: lead.status,
  };
  if (lead.appointment) {
    response.scheduled_at = lead.appointment.scheduled_at;
    response.appointment_timezone = lead.appointment.appointment_timezone;
    response.schedule_type = lead.appointment.schedule_type;
  }
  response.auto_sync_enabled = source.auto_sync_enabled;
  if (lead.warnings.length > 0) response.warnings = lead.warnings;
  return response;
}

function constraintDetails(err: { message: string; constraint?: string; detail?: string }): string {
  const what = err.constraint ? `constraint ${err.constraint}` : 'a database constraint';
  return `The lead violates ${what}${err.detail ? `: ${err.detail}` : ''}`;
}
