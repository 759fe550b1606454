import { normalizePhone } from '../ingest/normalize/phone.ts';
import { defineOwn, own, type JsonObject, type JsonValue } from '../json.ts';
import { buildBookingNotes } from './notes.ts';
import { readQuestionnaire, type QuestionAnswer } from './questionnaire.ts';
import { asObject, inviteeReader, objectAt, text } from './read-json.ts';

const UTM_FIELDS = ['utm_source', 'utm_medium', 'utm_campaign', 'utm_content', 'utm_term'] as const;

/**
 * An `invitee.*` payload → a plain lead-submission body, by the mapping of docs/booking-events.md. The body goes
 * through the same mapper as any lead, so values are passed as sent (the mapper lowercases the
 * email and normalizes the phone) and only members with a value are written. The idempotency key
 * and `listen` are not part of it: the gateway takes them from the envelope (invitee uri plus event
 * name, see docs/decisions/0019-booking-events.md). Pure; never throws on any JSON object.
 */
export function inviteeToSubmission(payload: JsonObject): JsonObject {
  const invitee = inviteeReader(payload);
  const event = asObject(invitee('scheduled_event'));
  const location = objectAt(event, 'location');
  const host = asObject(firstOf(own(event, 'event_memberships')));
  const tracking = asObject(invitee('tracking'));
  const questions = invitee('questions_and_answers');

  const firstName = text(invitee('first_name'));
  const lastName = text(invitee('last_name'));
  const eventName = text(own(event, 'name'));
  const startTime = text(own(event, 'start_time'));
  const timezone = text(invitee('timezone'));
  const hostName = text(own(host, 'user_name'));
  const hostEmail = text(own(host, 'user_email'));
  const joinUrl = text(own(location, 'join_url'));
  const cancelUrl = text(invitee('cancel_url'));
  const rescheduleUrl = text(invitee('reschedule_url'));
  const phone = choosePhone(
    text(invitee('text_reminder_number')),
    readQuestionnaire(questions),
    outboundCallNumber(location),
  );
  const notes = buildBookingNotes({
    eventName,
    startTime,
    timezone,
    hostName,
    hostEmail,
    joinUrl,
    rescheduleUrl,
    cancelUrl,
    questions,
  });

  const body: JsonObject = {};
  put(body, 'name', text(invitee('name')) ?? joinName(firstName, lastName));
  put(body, 'first_name', firstName);
  put(body, 'last_name', lastName);
  put(body, 'email', text(invitee('email')));
  put(body, 'phone', phone.phone);
  put(body, 'scheduled_at', startTime);
  put(body, 'appointment_timezone', timezone);
  // Current payloads often name a host by email only: the email then tells the agent who set it.
  put(body, 'setter_dialer_name', hostName ?? hostEmail);
  put(body, 'campaign_name', eventName);
  for (const field of UTM_FIELDS) put(body, field, text(own(tracking, field)));
  put(body, 'notes', notes);

  const custom: JsonObject = {};
  put(custom, 'join_url', joinUrl);
  put(custom, 'cancel_url', cancelUrl);
  put(custom, 'reschedule_url', rescheduleUrl);
  put(custom, 'booking_event_uri', text(own(event, 'uri')));
  put(custom, 'invitee_uri', text(invitee('uri')));
  put(custom, 'appointment_end_time', text(own(event, 'end_time')));
  put(custom, 'host_email', hostEmail);
  put(custom, 'location_type', text(own(location, 'type')));
  // The address of an in-person meeting, or the number of a phone meeting.
  put(custom, 'location', text(own(location, 'location')));
  put(custom, 'text_reminder_number', phone.unusedReminder);
  put(custom, 'questionnaire_phone', phone.otherAnswers);
  if (Object.keys(custom).length > 0) defineOwn(body, 'custom_fields', custom);
  return body;
}

/** Writes only values that say something: only members that say something. */
function put(target: JsonObject, key: string, value: string | null): void {
  if (value !== null && value !== '') defineOwn(target, key, value);
}

function joinName(first: string | null, last: string | null): string {
  return [first, last].filter((part) => part !== null).join(' ');
}

function firstOf(value: JsonValue | undefined): JsonValue | undefined {
  return Array.isArray(value) ? value[0] : undefined;
}

/** A phone meeting where the host calls the invitee (`outbound_call`): `location` is the invitee's number. */
function outboundCallNumber(location: JsonObject | null): string | null {
  return text(own(location, 'type')) === 'outbound_call' ? text(own(location, 'location')) : null;
}

export interface PhoneChoice {
  phone: string | null;
  /** A text_reminder_number the normalizer refused while a questionnaire number was used instead. */
  unusedReminder: string | null;
  /** Answers to phone questions that are not the lead's phone, joined with "; ". */
  otherAnswers: string | null;
}

/**
 * text_reminder_number when it is a phone number; else the number of an outbound call (the number
 * the invitee gave the host to call) when it is one; else the first phone-question answer that is
 * one; else the first answer anywhere that is one; else text_reminder_number as sent (the mapper
 * then keeps it raw with a warning). Phone questions never reach the notes, so any of their answers
 * that is not the chosen phone is returned to be kept in custom_fields: nothing the invitee typed
 * is lost (the call number stays in custom_fields.location).
 */
export function choosePhone(
  reminder: string | null,
  questionnaire: QuestionAnswer[],
  callNumber: string | null = null,
): PhoneChoice {
  const accepted = (value: string) => normalizePhone(value).ok;
  const phoneAnswers = questionnaire.filter((item) => item.questionClass === 'phone' && item.answer !== '');
  const fromQuestionnaire =
    phoneAnswers.find((item) => accepted(item.answer)) ??
    questionnaire.find((item) => item.answer !== '' && accepted(item.answer));

  const reminderOk = reminder !== null && accepted(reminder);
  const callOk = callNumber !== null && accepted(callNumber);
  const phone = reminderOk ? reminder : callOk ? callNumber : (fromQuestionnaire?.answer ?? reminder);
  const chosen = phone === null ? null : digitsOf(phone);
  // One entry per number (first spelling), the lead's own phone excluded.
  const others = new Map<string, string>();
  for (const { answer } of phoneAnswers) {
    const key = digitsOf(answer);
    if (key !== chosen && !others.has(key)) others.set(key, answer);
  }
  return {
    phone,
    unusedReminder: reminder !== null && phone !== reminder ? reminder : null,
    otherAnswers: others.size === 0 ? null : [...others.values()].join('; '),
  };
}

/** The normalized number, or the raw text when it is none: two spellings of one number compare equal. */
function digitsOf(value: string): string {
  const normalized = normalizePhone(value);
  return normalized.ok ? normalized.value : value;
}
