import { hash } from 'node:crypto';
import { LIMITS } from '../limits.ts';
import { isJsonObject, own, type JsonObject, type JsonValue } from '../json.ts';
import { readGeneration } from './generations/index.ts';
import { inviteeReader, isTrueFlag, objectAt, text } from './read-json.ts';
import { inviteeToSubmission } from './to-submission.ts';

export type InviteeEventName = 'invitee.created' | 'invitee.canceled';
export type NoShowEventName = 'invitee_no_show.created' | 'invitee_no_show.deleted';

export interface BookingCancellation {
  reason: string | null;
  canceled_by: string | null;
  canceler_type: string | null;
}

export type BookingEvent =
  | {
      kind: 'invitee';
      event: InviteeEventName;
      listen: boolean;
      /** Which payload generation it came in (`calendly`, `calendly_v1`): the lead's `body_format`. */
      format: string;
      /** payload(.invitee).uri: the lead's idempotency_key and the appointment's external id. */
      inviteeUri: string | null;
      /** The uri plus the event name: a cancel is never a replay of the booking (null without a uri). */
      replayKey: string | null;
      /**
       * The lead-submission body for the ordinary mapper (see to-submission.ts). A cancel's start
       * time is left out: the meeting no longer happens, so it must not book anything.
       */
      submission: JsonObject;
      /** The booked meeting with its start time: a cancel of an invitee never seen records it closed. */
      meeting: JsonObject;
      /**
       * What names the contact when the invitee has no name (its email, else its phone, as sent):
       * only ever the name of a NEW contact, never written over a stored one. Null when the
       * submission has a name, or nothing could name it.
       */
      fallbackName: string | null;
      rescheduled: boolean;
      oldInvitee: string | null;
      newInvitee: string | null;
      cancellation: BookingCancellation | null;
    }
  | {
      kind: 'no_show';
      event: NoShowEventName;
      listen: boolean;
      /**
       * The uris that may name the invitee, in the order to try them (see noShowCandidates); the
       * gateway acts on the first that names a known appointment.
       */
      inviteeUris: string[];
    }
  | { kind: 'other'; event: string; listen: boolean };

// `invitee.created`, `routing_form_submission.created`: dotted words. A lead has no such `event`
// together with an object `payload`, so the pair tells a scheduler event from a lead.
const EVENT_NAME = /^[A-Za-z0-9_]+(?:\.[A-Za-z0-9_]+)+$/;

const INVITEE_EVENTS: readonly string[] = [
  'invitee.created',
  'invitee.canceled',
] satisfies InviteeEventName[];
const NO_SHOW_EVENTS: readonly string[] = [
  'invitee_no_show.created',
  'invitee_no_show.deleted',
] satisfies NoShowEventName[];

/**
 * A gateway body → the scheduler event it is, or null when it is no scheduler event (then it is an
 * ordinary lead). Pure; never throws on any JSON object. Event names are matched exactly as the
 * scheduler sends them; any other well-formed name is `other`, which the gateway acknowledges and
 * records without acting on it.
 */
export function parseBookingEvent(sent: JsonObject): BookingEvent | null {
  const { body, format } = readGeneration(sent);
  const event = own(body, 'event');
  const payload = objectAt(body, 'payload');
  if (typeof event !== 'string' || !EVENT_NAME.test(event) || payload === null) return null;
  const listen = isTrueFlag(own(body, 'listen'));

  if (isInviteeEvent(event)) {
    const invitee = inviteeReader(payload);
    const inviteeUri = inviteeKey(text(invitee('uri')));
    const meeting = inviteeToSubmission(payload);
    return {
      kind: 'invitee',
      event,
      listen,
      format,
      inviteeUri,
      replayKey: inviteeUri ? `${inviteeUri}#${event}` : null,
      submission: event === 'invitee.canceled' ? without(meeting, 'scheduled_at') : meeting,
      meeting,
      fallbackName: fallbackName(meeting),
      rescheduled: isTrueFlag(invitee('rescheduled')),
      oldInvitee: inviteeKey(text(invitee('old_invitee'))),
      newInvitee: inviteeKey(text(invitee('new_invitee'))),
      cancellation: readCancellation(invitee('cancellation')),
    };
  }
  if (isNoShowEvent(event)) {
    const inviteeUris = [...new Set(noShowCandidates(payload).map((uri) => inviteeKey(uri)))];
    return { kind: 'no_show', event, listen, inviteeUris };
  }
  return { kind: 'other', event, listen };
}

/**
 * An invitee URI as the key of its appointment and events: itself, or past
 * LIMITS.inviteeUriMaxLength its SHA-256 (`sha256:<hex>`), so a huge URI still fits the indexes it
 * keys and every event about that invitee still finds the others.
 */
function inviteeKey(uri: string): string;
function inviteeKey(uri: string | null): string | null;
function inviteeKey(uri: string | null): string | null {
  if (uri === null || uri.length <= LIMITS.inviteeUriMaxLength) return uri;
  return `sha256:${hash('sha256', uri, 'hex')}`;
}

/**
 * Schedulers retry a refusal for a day: a booking without a name is named by its email or phone.
 * That name is for a new contact only: the gateway never writes it over a stored name.
 */
function fallbackName(submission: JsonObject): string | null {
  const has = (k: string) => typeof submission[k] === 'string' && submission[k].trim() !== '';
  if (has('name') || has('first_name')) return null;
  const fallback = has('email') ? submission.email : has('phone') ? submission.phone : null;
  return typeof fallback === 'string' ? fallback : null;
}

function without(obj: JsonObject, key: string): JsonObject {
  return Object.fromEntries(Object.entries(obj).filter(([k]) => k !== key));
}

function isInviteeEvent(event: string): event is InviteeEventName {
  return INVITEE_EVENTS.includes(event);
}

function isNoShowEvent(event: string): event is NoShowEventName {
  return NO_SHOW_EVENTS.includes(event);
}

function readCancellation(value: JsonValue | undefined): BookingCancellation | null {
  if (!isJsonObject(value)) return null;
  return {
    reason: text(own(value, 'reason')),
    canceled_by: text(own(value, 'canceled_by')),
    canceler_type: text(own(value, 'canceler_type')),
  };
}

/**
 * The uris that may name a no-show's invitee, in order: `payload.invitee` as a string, then
 * `payload.invitee.uri`, then `payload.uri`. Schedulers send two shapes: the InviteeNoShow
 * resource (`uri` is the no-show's own, `invitee` the invitee's uri) and, as Calendly documents
 * its webhooks, the Invitee itself (`uri` is the invitee's, with a `no_show` object). A no-show's
 * own uri never names an appointment, so trying each in turn is safe for both.
 */
function noShowCandidates(payload: JsonObject): string[] {
  const invitee = own(payload, 'invitee');
  const candidates = [
    isJsonObject(invitee) ? null : text(invitee),
    isJsonObject(invitee) ? text(own(invitee, 'uri')) : null,
    text(own(payload, 'uri')),
  ];
  return candidates.filter((uri): uri is string => uri !== null);
}
