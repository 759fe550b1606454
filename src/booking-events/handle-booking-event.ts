import { lockAppointmentByExternalId, setAppointmentStatus } from '../appointments/appointment-repository.ts';
import type { Database } from '../db/index.ts';
import { appError } from '../errors.ts';
import type { JsonObject } from '../ingest/types.ts';
import type { DeliveryResponse } from '../leads/ingest-lead.ts';
import { insertHistory } from '../leads/lead-repository.ts';
import { LISTEN_RESPONSE, recordListenSample, storeListenSample } from '../listen/record-listen-sample.ts';
import type { AuthenticatedSource } from '../sources/source-repository.ts';
import { recordBookingEvent } from './booking-event-repository.ts';
import { inviteeCanceled, inviteeCreated, prepareInviteeLead } from './invitee-events.ts';
import type { BookingEvent } from './parse-event.ts';
import { verifySchedulerSignature } from './signature.ts';

export const IGNORED_RESPONSE = { success: true, message: 'Event ignored', ignored: true } as const;

export interface EventRequest {
  body: JsonObject;
  rawBody: Uint8Array;
  signatureHeader: string | string[] | undefined;
}

/**
 * A booking-scheduler webhook. Schedulers retry every non-2xx for a day and then switch the
 * webhook off, so anything the gateway does not act on is answered 200 `ignored` and recorded.
 */
export async function handleBookingEvent(
  db: Database,
  source: AuthenticatedSource,
  event: BookingEvent,
  request: EventRequest,
): Promise<DeliveryResponse> {
  if (source.signing_key) {
    const check = verifySchedulerSignature({
      header: request.signatureHeader,
      rawBody: request.rawBody,
      signingKey: source.signing_key,
      nowMs: Date.now(),
    });
    if (!check.ok) throw appError('INVALID_SIGNATURE', `Webhook signature ${check.reason}`);
  }

  if (event.kind === 'invitee') {
    const lead = prepareInviteeLead(event, source.agent_timezone);
    if (event.listen) return recordListenSample(db, source, request.body, lead);
    if (!lead.hasName) throw appError('MISSING_NAME');
    return event.event === 'invitee.created'
      ? inviteeCreated(db, source, event, lead, request.body)
      : inviteeCanceled(db, source, event, lead, request.body);
  }

  if (event.listen) {
    await storeListenSample(db, source, {
      body: request.body,
      mapped: { event: event.event, action: event.kind === 'no_show' ? event.event : 'ignored' },
      custom_fields: {},
      warnings: [],
      error_code: null,
    });
    return LISTEN_RESPONSE;
  }
  if (event.kind === 'no_show') return noShow(db, source, event, request.body);
  await recordBookingEvent(db, {
    agent_id: source.agent_id,
    source_id: source.source_id,
    event: event.event,
    invitee_uri: null,
    lead_id: null,
    outcome: 'ignored',
    payload: request.body,
  });
  return IGNORED_RESPONSE;
}

/** `invitee_no_show.created` marks the invitee's appointment `no_show`; `.deleted` undoes it. */
async function noShow(
  db: Database,
  source: AuthenticatedSource,
  event: Extract<BookingEvent, { kind: 'no_show' }>,
  raw: JsonObject,
): Promise<DeliveryResponse> {
  const marking = event.event === 'invitee_no_show.created';
  return db.withTransaction(async (tx) => {
    const appt = event.inviteeUri
      ? await lockAppointmentByExternalId(tx, source.agent_id, event.inviteeUri)
      : null;
    const base = {
      agent_id: source.agent_id,
      source_id: source.source_id,
      event: event.event,
      invitee_uri: event.inviteeUri,
      payload: raw,
    };
    if (!appt) {
      await recordBookingEvent(tx, { ...base, lead_id: null, outcome: 'ignored_unknown_invitee' });
      return IGNORED_RESPONSE;
    }
    const from = marking ? 'booked' : 'no_show';
    const to = marking ? 'no_show' : 'booked';
    if (appt.status === from) {
      await setAppointmentStatus(tx, source.agent_id, appt.appointment_id, to);
      await insertHistory(tx, {
        agent_id: source.agent_id,
        lead_id: appt.lead_id,
        source_id: source.source_id,
        event: marking ? 'no_show' : 'no_show_removed',
        details: { appointment_id: appt.appointment_id, invitee_uri: event.inviteeUri },
      });
    }
    await recordBookingEvent(tx, {
      ...base,
      lead_id: appt.lead_id,
      outcome: marking ? 'no_show_marked' : 'no_show_removed',
    });
    const { rows } = await tx.query<{ status: string }>(
      'SELECT status FROM leads WHERE agent_id = $1 AND lead_id = $2',
      [source.agent_id, appt.lead_id],
    );
    return {
      success: true,
      message: marking ? 'Appointment marked no-show' : 'No-show removed',
      listen: false,
      lead_id: appt.lead_id,
      agent_id: source.agent_id,
      status: rows[0]?.status,
    };
  });
}
