import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { BOOKING_FIXTURES, loadBookingFixture } from '../../test/fixtures/booking/load.ts';
import { defineOwn, isJsonObject, type JsonObject, type JsonValue } from '../json.ts';
import { buildBookingNotes } from './notes.ts';
import { parseBookingEvent } from './parse-event.ts';
import { isEmptyOpenAnswer } from './questionnaire.ts';

const RUNS = { numRuns: 400 };

const MEMBER_NAMES = [
  ...['event', 'payload', 'listen', 'invitee', 'uri', 'name', 'first_name', 'last_name', 'email', 'timezone'],
  ...['text_reminder_number', 'questions_and_answers', 'question', 'answer', 'position', 'scheduled_event'],
  ...['start_time', 'end_time', 'location', 'join_url', 'event_memberships', 'user_name', 'user_email'],
  ...['tracking', 'utm_source', 'cancellation', 'rescheduled', 'old_invitee', 'new_invitee', 'cancel_url'],
  ...['__proto__', 'constructor', 'toString', 'hasOwnProperty'],
];
const EVENT_NAMES = ['invitee.created', 'invitee.canceled', 'invitee_no_show.created', 'x.y', 'a'];

/** JSON values whose object keys are mostly the members the parser reads, built like JSON.parse would. */
const { json } = fc.letrec<{ json: JsonValue }>((tie) => ({
  json: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    fc.constantFrom<JsonValue>(
      null,
      true,
      false,
      '',
      ' ',
      'No',
      'N/A',
      '(404) 555-0172',
      '2027-01-15T19:30:00Z',
    ),
    fc.constantFrom<JsonValue>(...EVENT_NAMES, 'America/Chicago', 'not a zone'),
    fc.string(),
    fc.double({ noNaN: true, noDefaultInfinity: true }),
    fc.integer(),
    fc.array(tie('json'), { maxLength: 4 }),
    fc
      .array(fc.tuple(fc.oneof(fc.constantFrom(...MEMBER_NAMES), fc.string()), tie('json')), { maxLength: 6 })
      .map((entries) => {
        const obj: JsonObject = {};
        for (const [key, value] of entries) defineOwn(obj, key, value);
        return obj;
      }),
  ),
}));

const objectArb = json.filter((value): value is JsonObject => isJsonObject(value));

describe('parseBookingEvent properties', () => {
  it('When any JSON object arrives, then it never throws', () => {
    fc.assert(
      fc.property(objectArb, (body) => {
        parseBookingEvent(body);
      }),
      RUNS,
    );
  });

  it('When an envelope carries any payload, then it never throws and is recognised', () => {
    fc.assert(
      fc.property(fc.constantFrom(...EVENT_NAMES.slice(0, 4)), objectArb, json, (event, payload, listen) => {
        expect(parseBookingEvent({ event, payload, listen })).not.toBeNull();
      }),
      RUNS,
    );
  });

  it('When a fixture is mutated anywhere, then it never throws', () => {
    const fixtures = BOOKING_FIXTURES.map(loadBookingFixture);
    fc.assert(
      fc.property(
        fc.constantFrom(...fixtures),
        fc.constantFrom(...MEMBER_NAMES),
        json,
        (fixture, key, value) => {
          const payload = structuredClone(fixture.payload) as JsonObject;
          defineOwn(payload, key, value);
          const invitee = payload.invitee;
          if (isJsonObject(invitee)) defineOwn(invitee, key, value);
          parseBookingEvent({ ...fixture, payload });
        },
      ),
      RUNS,
    );
  });
});

describe('buildBookingNotes properties', () => {
  const item = fc.oneof(
    json,
    fc.record(
      { question: json, answer: json, position: fc.oneof(fc.integer(), fc.double(), json) },
      { requiredKeys: [] },
    ),
  );

  it('When the questionnaire is any array (non-object items, numbers as answers), then it never throws', () => {
    fc.assert(
      fc.property(fc.array(item, { maxLength: 12 }), fc.option(fc.string()), (questions, zone) => {
        const notes = buildBookingNotes({ questions, startTime: '2027-01-15T19:30:00Z', timezone: zone });
        expect(typeof notes).toBe('string');
      }),
      RUNS,
    );
  });

  it('When an open prompt has a real answer, then that answer is in the notes', () => {
    fc.assert(
      fc.property(fc.stringMatching(/^[A-Za-z][A-Za-z ]{3,30}$/), (answer) => {
        fc.pre(!isEmptyOpenAnswer(answer));
        const notes = buildBookingNotes({ questions: [{ question: 'Anything else?', answer }] });
        expect(notes).toBe(`Anything else?\n${answer.trim()}`);
      }),
      RUNS,
    );
  });
});
