import { defineOwn, isJsonObject, own, type JsonObject, type JsonValue } from '../../json.ts';
import { objectAt, text } from '../read-json.ts';
import type { PayloadGeneration } from './generation.ts';

/**
 * Calendly's API v1 webhooks (`{"event", "time", "payload": {"event_type", "event", "invitee",
 * "questions_and_answers", "questions_and_responses", "tracking", "old_event", "old_invitee",
 * "new_event", "new_invitee"}}`). The invitee has a `uuid` and no `uri`, the meeting is
 * `payload.event` (an object, where the current generation has the event's uri), hosts are
 * `assigned_to` / `extended_assigned_to`, and a cancel's reason sits on the invitee and the event.
 * The mapping: docs/booking-events.md, "Older payloads".
 */
export const calendlyV1: PayloadGeneration = {
  name: 'calendly-v1',
  recognises(body) {
    const payload = objectAt(body, 'payload');
    const event = objectAt(payload, 'event');
    const invitee = objectAt(payload, 'invitee');
    return (
      event !== null &&
      own(event, 'start_time') !== undefined &&
      invitee !== null &&
      text(own(invitee, 'uuid')) !== null &&
      own(invitee, 'uri') === undefined
    );
  },
  toCurrent(body) {
    const envelope: JsonObject = {};
    for (const key of Object.keys(body)) {
      if (key !== 'payload') defineOwn(envelope, key, body[key] as JsonValue);
    }
    defineOwn(envelope, 'payload', currentPayload(objectAt(body, 'payload')));
    return envelope;
  },
};

const PREFIX = 'calendly-v1:';

/** The key of a v1 invitee or meeting: it has no uri, so its uuid stands for one. */
export function calendlyV1Key(uuid: string): string {
  return `${PREFIX}${uuid}`;
}

const INVITEE_MEMBERS = ['name', 'first_name', 'last_name', 'email', 'text_reminder_number', 'timezone'];

function currentPayload(payload: JsonObject | null): JsonObject {
  const event = objectAt(payload, 'event');
  const invitee = objectAt(payload, 'invitee');
  const out: JsonObject = {};
  const put = (key: string, value: JsonValue | null | undefined) => {
    if (value !== undefined && value !== null) defineOwn(out, key, value);
  };

  const uuid = text(own(invitee, 'uuid'));
  put('uri', uuid === null ? null : calendlyV1Key(uuid));
  for (const key of INVITEE_MEMBERS) put(key, own(invitee, key));
  put('questions_and_answers', questionsOf(payload));
  put('tracking', own(payload, 'tracking'));
  // A cancel that is half of a reschedule names the booking that replaced it.
  const replacement = referenceKey(own(payload, 'new_invitee'));
  put('rescheduled', replacement !== null || isPresent(own(payload, 'new_event')));
  put('old_invitee', referenceKey(own(payload, 'old_invitee')));
  put('new_invitee', replacement);
  put('cancellation', cancellationOf(invitee, event));
  put('scheduled_event', meetingOf(objectAt(payload, 'event_type'), event));
  return out;
}

/** The meeting in the current `scheduled_event` shape. */
function meetingOf(eventType: JsonObject | null, event: JsonObject | null): JsonObject {
  const meeting: JsonObject = {};
  const put = (key: string, value: JsonValue | null | undefined) => {
    if (value !== undefined && value !== null) defineOwn(meeting, key, value);
  };
  const uuid = text(own(event, 'uuid'));
  put('uri', uuid === null ? null : calendlyV1Key(uuid));
  put('name', text(own(eventType, 'name')));
  put('start_time', instantOf(own(event, 'start_time'), own(event, 'invitee_start_time')));
  put('end_time', instantOf(own(event, 'end_time'), own(event, 'invitee_end_time')));
  const location = own(event, 'location');
  put('location', isJsonObject(location) ? location : locationText(location));
  const hosts = hostsOf(event);
  if (hosts.length > 0) put('event_memberships', hosts);
  return meeting;
}

function locationText(value: JsonValue | undefined): JsonObject | null {
  const where = text(value);
  return where === null ? null : { location: where };
}

/**
 * `extended_assigned_to` (name, email; the primary host first, then as sent), else the names of
 * `assigned_to`: each as a current event membership.
 */
function hostsOf(event: JsonObject | null): JsonObject[] {
  const extended = arrayAt(event, 'extended_assigned_to').filter(isJsonObject);
  const ordered = [
    ...extended.filter((host) => own(host, 'primary') === true),
    ...extended.filter((host) => own(host, 'primary') !== true),
  ];
  const hosts: JsonObject[] = [];
  for (const host of ordered) {
    const membership: JsonObject = {};
    const name = text(own(host, 'name'));
    const email = text(own(host, 'email'));
    if (name !== null) membership.user_name = name;
    if (email !== null) membership.user_email = email;
    if (name !== null || email !== null) hosts.push(membership);
  }
  if (hosts.length > 0) return hosts;
  return arrayAt(event, 'assigned_to')
    .map((name) => (typeof name === 'string' ? text(name) : null))
    .filter((name): name is string => name !== null)
    .map((name) => ({ user_name: name }));
}

/** The invitee's reason and who canceled, else the event's (a host's cancel fills those). */
function cancellationOf(invitee: JsonObject | null, event: JsonObject | null): JsonObject | null {
  const reason = text(own(invitee, 'cancel_reason')) ?? text(own(event, 'cancel_reason'));
  const canceledBy = text(own(invitee, 'canceler_name')) ?? text(own(event, 'canceler_name'));
  if (reason === null && canceledBy === null) return null;
  return { reason, canceled_by: canceledBy, canceler_type: null };
}

/** `questions_and_answers` as sent; when it is missing or empty, `questions_and_responses` (`1_question`, `1_response`, …) in number order. */
function questionsOf(payload: JsonObject | null): JsonValue | null {
  const list = own(payload, 'questions_and_answers');
  if (Array.isArray(list) && list.length > 0) return list;
  const numbered = objectAt(payload, 'questions_and_responses');
  if (numbered === null) return Array.isArray(list) ? list : null;
  const positions = new Set<number>();
  for (const key of Object.keys(numbered)) {
    const match = /^(\d{1,6})_(?:question|response)$/.exec(key);
    if (match) positions.add(Number(match[1]));
  }
  return [...positions]
    .sort((a, b) => a - b)
    .map((position) => ({
      question: own(numbered, `${position}_question`) ?? null,
      answer: own(numbered, `${position}_response`) ?? null,
      position,
    }));
}

/**
 * A reference to another invitee (`old_invitee`, `new_invitee`): v1 sends the invitee object
 * (its uuid becomes the key, as for the invitee itself); a uri or a bare uuid is taken too.
 */
function referenceKey(value: JsonValue | undefined): string | null {
  if (isJsonObject(value)) {
    const uri = text(own(value, 'uri'));
    if (uri !== null) return uri;
    const uuid = text(own(value, 'uuid'));
    return uuid === null ? null : calendlyV1Key(uuid);
  }
  const reference = text(value);
  if (reference === null) return null;
  return reference.includes('/') || reference.startsWith(PREFIX) ? reference : calendlyV1Key(reference);
}

// `2018-03-14T12:00:00Z`, `2018-08-28T09:45:00-04:00`, `2018-03-14 12:00:00 -0700`, `… UTC`.
const V1_TIME =
  /^(\d{4}-\d{2}-\d{2})[T ](\d{2}:\d{2}(?::\d{2}(?:\.\d{1,9})?)?)\s*(Z|UTC|GMT|[+-]\d{2}:?\d{2})?$/i;

/**
 * The meeting's instant as ISO-8601: `start_time` is in the host's offset, `invitee_start_time`
 * in the invitee's; both name the same instant. The first that carries an offset wins; without
 * one, the first present is passed on as sent (the mapper then reads it in the invitee's zone).
 */
function instantOf(...values: Array<JsonValue | undefined>): string | null {
  const times = values.map((value) => text(value)).filter((value): value is string => value !== null);
  const parsed = times.map(isoOf);
  return parsed.find((time) => time.hasOffset)?.iso ?? parsed[0]?.iso ?? null;
}

function isoOf(value: string): { iso: string; hasOffset: boolean } {
  const match = V1_TIME.exec(value);
  if (!match) return { iso: value, hasOffset: false };
  const [, date, time, zone] = match;
  if (zone === undefined) return { iso: `${date}T${time}`, hasOffset: false };
  const upper = zone.toUpperCase();
  const offset =
    upper === 'Z' || upper === 'UTC' || upper === 'GMT' ? 'Z' : `${zone.slice(0, 3)}:${zone.slice(-2)}`;
  return { iso: `${date}T${time}${offset}`, hasOffset: true };
}

function arrayAt(obj: JsonObject | null, key: string): JsonValue[] {
  const value = own(obj, key);
  return Array.isArray(value) ? value : [];
}

function isPresent(value: JsonValue | undefined): boolean {
  return value !== undefined && value !== null && !(typeof value === 'string' && value.trim() === '');
}
