import {
  lockAppointmentByExternalId,
  setAppointmentStatus,
  type NamedAppointment,
} from '../appointments/appointment-repository.ts';
import { planAgenda } from '../appointments/transitions.ts';
import { recordBookingEvent } from '../booking-events/booking-event-repository.ts';
import type { BookingEvent } from '../booking-events/parse-event.ts';
import { verifySchedulerSignature } from '../booking-events/signature.ts';
import type { Database } from '../db/index.ts';
import type { JsonObject } from '../json.ts';
import { insertHistory, readLeadStatus } from '../leads/lead-repository.ts';
import { enqueue } from '../outbox/enqueue.ts';
import type { AuthenticatedSource } from '../sources/source-repository.ts';
import { recordListenEvent, recordListenSample } from './listen.ts';
import { appointmentMessages } from './outbox-messages.ts';
import { prepareLead } from './prepare-lead.ts';
import { missingName, rejected, type DeliveryResult } from './result.ts';
import { bookingEventRow } from './plan-records.ts';
import { onDatabaseWord, type SourceClaim, type Unconfirmed } from './source-directory.ts';
import type { Gateway } from './gateway.ts';
import { failedWrite } from './write-delivery.ts';

type NoShowEvent = Extract<BookingEvent, { kind: 'no_show' }>;

/**
 * A booking-scheduler webhook (docs/booking-events.md). An invitee booking or cancel is a lead
 * delivery with an agenda event and goes through the same transaction as any lead. Schedulers retry
 * every non-2xx for a day and then switch the webhook off, so an event the gateway does not act on
 * is answered 200 `ignored` and recorded for the agent. A booking's or cancel's write, and a Listen
 * sample's insert, check the token themselves, so with a source from this process's memory they need
 * no lookup first; any other answer or write is given only on the database's word (UNCONFIRMED) —
 * a failed signature too, since the key it was checked with may be one the agent has replaced.
 */
export async function deliverSchedulerEvent(
  gateway: Gateway,
  claim: SourceClaim,
  event: BookingEvent,
  request: { body: JsonObject; rawBody: Buffer | undefined; signatureHeader: string | string[] | undefined },
): Promise<DeliveryResult | Unconfirmed> {
  const { source } = claim;
  const { db } = gateway;
  if (source.signing_key) {
    const check = verifySchedulerSignature({
      header: request.signatureHeader,
      rawBody: request.rawBody ?? new Uint8Array(),
      signingKey: source.signing_key,
      nowMs: Date.now(),
    });
    if (!check.ok)
      return onDatabaseWord(claim, async () =>
        rejected('INVALID_SIGNATURE', `Webhook signature ${check.reason}`),
      );
  }
  const { body } = request;

  switch (event.kind) {
    case 'invitee': {
      const lead = { ...prepareLead(event.submission, source.agent_timezone), format: event.format };
      // A nameless invitee is named by its email or phone, but only if it becomes a new contact:
      // a stored contact's name is never replaced by that stand-in.
      const asNew =
        lead.hasName || event.fallbackName === null
          ? lead
          : {
              ...prepareLead({ ...event.submission, name: event.fallbackName }, source.agent_timezone),
              format: event.format,
            };
      if (event.listen) return recordListenSample(gateway, claim, body, asNew);
      if (!asNew.hasName) return onDatabaseWord(claim, async () => missingName());
      const uri = event.inviteeUri;
      const canceled = event.event === 'invitee.canceled';
      return gateway.writeDelivery(claim, {
        lead,
        ...(asNew === lead ? {} : { leadIfNew: asNew }),
        replayKey: event.replayKey,
        bodyDigest: null,
        leadKey: uri,
        externalId: uri,
        agenda: canceled
          ? { kind: 'cancel', as: event.rescheduled ? 'rescheduled' : 'canceled' }
          : { kind: 'book' },
        // A cancel of an invitee never seen records the meeting, closed, so a late booking of it is not revived.
        meeting: canceled && uri ? prepareLead(event.meeting, source.agent_timezone).appointment : null,
        scheduler: { event, payload: body },
      });
    }
    case 'no_show':
      if (event.listen)
        return recordListenEvent(gateway, claim, body, { event: event.event, action: event.event });
      return onDatabaseWord(claim, () => writeNoShow(db, source, event, body));
    case 'other':
      if (event.listen)
        return recordListenEvent(gateway, claim, body, { event: event.event, action: 'ignored' });
      return onDatabaseWord(claim, async () => {
        try {
          await recordBookingEvent(db, bookingEventRow(source, event.event, null, body, null, 'ignored'));
          return { kind: 'ignored' };
        } catch (err) {
          return failedWrite(err);
        }
      });
  }
}

/**
 * `invitee_no_show.created` marks the invitee's appointment `no_show`; `.deleted` undoes it. The
 * invitee is the first of the event's candidate uris that names a known appointment.
 */
async function writeNoShow(
  db: Database,
  source: AuthenticatedSource,
  event: NoShowEvent,
  body: JsonObject,
): Promise<DeliveryResult> {
  const marked = event.event === 'invitee_no_show.created';
  try {
    return await db.withTransaction(async (tx): Promise<DeliveryResult> => {
      let named: NamedAppointment | null = null;
      let uri = event.inviteeUris[0] ?? null;
      for (const candidate of event.inviteeUris) {
        named = await lockAppointmentByExternalId(tx, source.agent_id, candidate);
        if (named) {
          uri = candidate;
          break;
        }
      }
      if (!named) {
        await recordBookingEvent(
          tx,
          bookingEventRow(source, event.event, uri, body, null, 'ignored_unknown_invitee'),
        );
        return { kind: 'ignored' };
      }
      const plan = planAgenda(
        { kind: marked ? 'no_show' : 'no_show_removed' },
        { named, booked: [], incoming: null },
      );
      for (const change of plan.changes) {
        if (change.op !== 'update') continue;
        await setAppointmentStatus(tx, source.agent_id, change.appointment_id, change.to);
        await insertHistory(tx, {
          agent_id: source.agent_id,
          lead_id: named.lead_id,
          source_id: source.source_id,
          event: marked ? 'no_show' : 'no_show_removed',
          details: { appointment_id: named.appointment_id, invitee_uri: uri },
        });
      }
      await enqueue(
        tx,
        source.agent_id,
        appointmentMessages(plan.changes, {
          source_id: source.source_id,
          lead_id: named.lead_id,
          appointments: [named],
        }),
      );
      await recordBookingEvent(
        tx,
        bookingEventRow(
          source,
          event.event,
          uri,
          body,
          named.lead_id,
          marked ? 'no_show_marked' : 'no_show_removed',
        ),
      );
      const status = await readLeadStatus(tx, source.agent_id, named.lead_id);
      return { kind: 'no_show', marked, lead_id: named.lead_id, agent_id: source.agent_id, status };
    });
  } catch (err) {
    return failedWrite(err);
  }
}
