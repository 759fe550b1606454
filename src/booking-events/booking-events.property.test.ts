import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { BOOKING_FIXTURES, loadBookingFixture } from '../../test/fixtures/booking/load.ts';
import { defineOwn, isJsonObject, type JsonObject, type JsonValue } from '../json.ts';
import { buildBookingNotes } from './notes.ts';
import { calendlyV1 } from './generations/calendly-v1.ts';
import { parseBookingEvent } from './parse-event.ts';
import { isEmptyOpenAnswer } from './questionnaire.ts';

const RUNS = { numRuns: 400 };

const MEMBER_NAMES = [
  ...['event', 'payload', 'listen', 'invitee', 'uri', 'name', 'first_name', 'last_name', 'email', 'timezone'],
  ...['text_reminder_number', 'questions_and_answers', 'question', 'answer', 'position', 'scheduled_event'],
  ...['start_time', 'end_time', 'location', 'join_url', 'event_memberships', 'user_name', 'user_email'],
  ...['tracking', 'utm_source', 'cancellation', 'rescheduled', 'old_invitee', 'new_invitee', 'cancel_url'],
  ...['no_show', 'type', 'uuid', 'assigned_to', 'extended_assigned_to', 'primary', 'invitee_start_time'],
  ...['questions_and_responses', '1_question', '1_response', 'cancel_reason', 'canceler_name', 'new_event'],
  ...['event_type', 'email'],
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
          for (const inner of [payload.invitee, payload.event, payload.scheduled_event]) {
            if (isJsonObject(inner)) defineOwn(inner, key, value);
          }
          parseBookingEvent({ ...fixture, payload });
        },
      ),
      RUNS,
    );
  });
});

describe('older payload generations', () => {
  /** A v1 envelope: the recognised skeleton, every other member any JSON. */
  const v1Arb = fc
    .tuple(
      fc.constantFrom('invitee.created', 'invitee.canceled'),
      fc.string({ minLength: 1 }).filter((uuid) => uuid.trim() !== ''),
      json,
      objectArb,
      objectArb,
      objectArb,
    )
    .map(([event, uuid, start, invitee, meeting, payload]): JsonObject => {
      const inv = structuredClone(invitee);
      defineOwn(inv, 'uuid', uuid);
      delete inv.uri;
      const ev = structuredClone(meeting);
      defineOwn(ev, 'start_time', start);
      const body = structuredClone(payload);
      defineOwn(body, 'invitee', inv);
      defineOwn(body, 'event', ev);
      return { event, payload: body };
    });

  it('When any v1 envelope arrives, then it is read without throwing, keyed by its invitee uuid', () => {
    fc.assert(
      fc.property(v1Arb, (body) => {
        expect(calendlyV1.recognises(body)).toBe(true);
        const current = calendlyV1.toCurrent(body);
        // The current shape is never taken for v1 again: an adapter runs once.
        expect(calendlyV1.recognises(current)).toBe(false);
        const uuid = ((body.payload as JsonObject).invitee as JsonObject).uuid as string;
        const event = parseBookingEvent(body);
        if (event?.kind !== 'invitee') throw new Error('a v1 booking is an invitee event');
        expect(event.inviteeUri).toMatch(/^(calendly-v1:|sha256:)/);
        if (uuid.trim().length < 200) expect(event.inviteeUri).toBe(`calendly-v1:${uuid.trim()}`);
      }),
      RUNS,
    );
  });
});

describe('names and no-show candidates', () => {
  it('When any invitee event arrives, then a stand-in name only exists where the submission has no name, and is its email or phone', () => {
    fc.assert(
      fc.property(fc.constantFrom('invitee.created', 'invitee.canceled'), objectArb, (event, payload) => {
        const parsed = parseBookingEvent({ event, payload });
        if (parsed?.kind !== 'invitee') throw new Error('an invitee event');
        if (parsed.fallbackName === null) return;
        expect(parsed.submission.name).toBeUndefined();
        expect(parsed.submission.first_name).toBeUndefined();
        expect([parsed.submission.email, parsed.submission.phone]).toContain(parsed.fallbackName);
      }),
      RUNS,
    );
  });

  it('When any no-show arrives, then its candidate uris have no repeats and payload.invitee (a uri) comes first', () => {
    fc.assert(
      fc.property(objectArb, fc.option(fc.webUrl(), { nil: undefined }), (payload, invitee) => {
        const body = structuredClone(payload);
        if (invitee !== undefined) defineOwn(body, 'invitee', invitee);
        const parsed = parseBookingEvent({ event: 'invitee_no_show.created', payload: body });
        if (parsed?.kind !== 'no_show') throw new Error('a no-show event');
        expect(new Set(parsed.inviteeUris).size).toBe(parsed.inviteeUris.length);
        if (invitee !== undefined && invitee.trim() !== '' && invitee.length < 200)
          expect(parsed.inviteeUris[0]).toBe(invitee.trim());
      }),
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
