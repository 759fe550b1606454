import { formatNotesTime } from '../appointments/notes-time.ts';
import type { JsonValue } from '../json.ts';
import { keepsInNotes, readQuestionnaire } from './questionnaire.ts';

/** What the notes are built from; every member may be missing. */
export interface BookingNotesInput {
  eventName?: string | null;
  /** scheduled_event.start_time, any ISO instant. */
  startTime?: string | null;
  /** The invitee's IANA zone; `UTC` when missing. */
  timezone?: string | null;
  hostName?: string | null;
  hostEmail?: string | null;
  joinUrl?: string | null;
  rescheduleUrl?: string | null;
  cancelUrl?: string | null;
  /** The raw `questions_and_answers` member, whatever its shape. */
  questions?: JsonValue;
}

export const NOTES_SEPARATOR = '---';

/**
 * The appointment notes (docs/booking-events.md, "The notes"): title, time, host, join,
 * reschedule and cancel lines in that order, a `---` separator, then one block per kept question
 * (question line, answer line), blocks separated by a blank line. A line whose value is missing is
 * left out and the others keep their order; the separator is written only between a header and at
 * least one question block. Pure and total: '' when there is nothing to say.
 */
export function buildBookingNotes(input: BookingNotesInput): string {
  const header = [
    line('Appointment', input.eventName),
    timeLine(input.startTime, input.timezone),
    line('Host', hostText(input.hostName, input.hostEmail)),
    line('Join', input.joinUrl),
    line('Reschedule', input.rescheduleUrl),
    line('Cancel', input.cancelUrl),
  ].filter((entry): entry is string => entry !== null);

  const blocks = readQuestionnaire(input.questions)
    .filter(keepsInNotes)
    .map((item) => `${item.question}\n${item.answer}`);

  if (blocks.length === 0) return header.join('\n');
  const questionnaire = blocks.join('\n\n');
  return header.length === 0 ? questionnaire : `${header.join('\n')}\n${NOTES_SEPARATOR}\n${questionnaire}`;
}

function present(value: string | null | undefined): string | null {
  const trimmed = typeof value === 'string' ? value.trim() : '';
  return trimmed === '' ? null : trimmed;
}

function line(label: string, value: string | null | undefined): string | null {
  const shown = present(value);
  return shown === null ? null : `${label}: ${shown}`;
}

/** `Time: 2027-01-15 19:30 UTC [America/Chicago]` (docs/decisions/0017-time-zones-and-local-times.md). */
function timeLine(start: string | null | undefined, zone: string | null | undefined): string | null {
  const shownStart = present(start);
  return shownStart === null ? null : `Time: ${formatNotesTime(shownStart, present(zone) ?? 'UTC')}`;
}

/** `Dana Whitfield <dana@agency.example>`: the address lets the agent tell two hosts of one name apart. */
function hostText(name: string | null | undefined, email: string | null | undefined): string | null {
  const shownName = present(name);
  const shownEmail = present(email);
  if (shownName === null) return shownEmail;
  return shownEmail === null ? shownName : `${shownName} <${shownEmail}>`;
}
