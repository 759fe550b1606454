import { describe, expect, it } from 'vitest';
import {
  BOOKING_FIXTURES,
  loadBookingFixture,
  type BookingFixture,
} from '../../../test/fixtures/booking/load.ts';
import type { JsonObject, JsonValue } from '../../json.ts';
import { calendlyV1 } from './calendly-v1.ts';
import { GENERATIONS, toCurrentGeneration } from './index.ts';

const V1_FIXTURES: BookingFixture[] = ['v1-invitee-created', 'v1-invitee-canceled'];

/** A v1 invitee.created with `event` and `payload` members overridden. */
function v1(overrides: { event?: JsonObject; invitee?: JsonObject; payload?: JsonObject } = {}): JsonObject {
  const body = loadBookingFixture('v1-invitee-created');
  const payload = body.payload as JsonObject;
  Object.assign(payload.event as JsonObject, overrides.event ?? {});
  Object.assign(payload.invitee as JsonObject, overrides.invitee ?? {});
  Object.assign(payload, overrides.payload ?? {});
  return body;
}
const currentPayload = (body: JsonObject) => calendlyV1.toCurrent(body).payload as JsonObject;
const meetingOf = (body: JsonObject) => currentPayload(body).scheduled_event as JsonObject;

describe('calendlyV1.recognises', () => {
  it.each(BOOKING_FIXTURES)(
    'When the fixture %s arrives, then it is v1 only if it is a v1 fixture',
    (name) => {
      expect(calendlyV1.recognises(loadBookingFixture(name))).toBe(V1_FIXTURES.includes(name));
    },
  );

  it.each<[string, JsonObject]>([
    ['an invitee with a uri (the nested current shape)', v1({ invitee: { uri: 'https://x/i/1' } })],
    ['an invitee without a uuid', v1({ invitee: { uuid: null } })],
    ['an event without a start time', v1({ payload: { event: { uuid: 'E' } } })],
    ['an event that is a uri (the current shape)', v1({ payload: { event: 'https://x/e/1' } })],
    ['no invitee object', v1({ payload: { invitee: 'https://x/i/1' } })],
  ])('When the payload has %s, then it is not v1', (_label, body) => {
    expect(calendlyV1.recognises(body)).toBe(false);
  });

  it('When an envelope is of no older generation, then toCurrentGeneration returns it as sent', () => {
    const body = loadBookingFixture('invitee-created');
    expect(toCurrentGeneration(body)).toBe(body);
    expect(GENERATIONS.map((g) => g.name)).toEqual(['calendly-v1']);
  });
});

describe('calendlyV1.toCurrent', () => {
  it('When the v1 booking fixture is read, then it becomes the current shape, keyed by the invitee uuid', () => {
    const body = loadBookingFixture('v1-invitee-created');
    expect(toCurrentGeneration({ ...body, listen: true })).toEqual({
      event: 'invitee.created',
      time: '2027-03-30T16:05:12Z',
      listen: true,
      payload: {
        uri: 'calendly-v1:EVBR5KD2QW8MZLXN',
        name: 'Evelyn Brooks',
        first_name: 'Evelyn',
        last_name: 'Brooks',
        email: 'Evelyn.Brooks@example.net',
        text_reminder_number: '+14045550186',
        timezone: 'America/New_York',
        questions_and_answers: (body.payload as JsonObject).questions_and_answers,
        tracking: (body.payload as JsonObject).tracking,
        rescheduled: false,
        scheduled_event: {
          uri: 'calendly-v1:CJQX7RWMB3ZKHT5L',
          name: 'Final Expense Review',
          start_time: '2027-04-06T10:30:00-07:00',
          end_time: '2027-04-06T11:00:00-07:00',
          location: { location: 'Phone call' },
          event_memberships: [
            { user_name: 'Grace Lee', user_email: 'grace.lee@summitlife.example' },
            { user_name: 'Tom Alvarez', user_email: 'tom.alvarez@summitlife.example' },
          ],
        },
      },
    });
  });

  it('When the v1 cancel fixture is read, then the invitee’s reason and canceler are the cancellation', () => {
    expect(currentPayload(loadBookingFixture('v1-invitee-canceled')).cancellation).toEqual({
      reason: 'My daughter is handling it now',
      canceled_by: 'Evelyn Brooks',
      canceler_type: null,
    });
  });

  it('When only the event carries the cancel (a host canceled), then its reason and canceler are used', () => {
    const body = v1({ event: { cancel_reason: 'Host is out sick', canceler_name: 'Grace Lee' } });
    expect(currentPayload(body).cancellation).toEqual({
      reason: 'Host is out sick',
      canceled_by: 'Grace Lee',
      canceler_type: null,
    });
  });

  it.each<[string, JsonValue, JsonValue, string | null]>([
    ['UTC with Z', '2018-03-14T12:00:00Z', null, '2018-03-14T12:00:00Z'],
    ['an offset with a colon', '2018-08-28T09:45:00-04:00', null, '2018-08-28T09:45:00-04:00'],
    ['a space and an offset without a colon', '2018-03-14 12:00:00 -0700', null, '2018-03-14T12:00:00-07:00'],
    ['a space and +0000', '2018-02-01 10:15:00 +0000', null, '2018-02-01T10:15:00+00:00'],
    ['a UTC suffix', '2018-03-14 12:00:00 UTC', null, '2018-03-14T12:00:00Z'],
    ['fractions of a second', '2018-03-14T12:00:00.123456Z', null, '2018-03-14T12:00:00.123456Z'],
    [
      'no offset, the invitee time has one',
      '2018-03-14 12:00:00',
      '2018-03-14T08:00:00-04:00',
      '2018-03-14T08:00:00-04:00',
    ],
    ['no offset anywhere', '2018-03-14 12:00:00', null, '2018-03-14T12:00:00'],
    ['only the invitee time', null, '2018-03-14T08:00:00-04:00', '2018-03-14T08:00:00-04:00'],
    ['text that is no time', 'tomorrow at noon', null, 'tomorrow at noon'],
    ['no time at all', null, null, null],
  ])(
    'When start_time is %s, then the start is as the table says',
    (_label, start, inviteeStart, expected) => {
      const meeting = meetingOf(v1({ event: { start_time: start, invitee_start_time: inviteeStart } }));
      expect(meeting.start_time ?? null).toEqual(expected);
    },
  );

  it.each<[string, JsonObject, JsonValue | undefined]>([
    [
      'no primary host: as sent',
      {
        extended_assigned_to: [
          { name: 'A', email: 'a@x.example', primary: false },
          { name: 'B', email: 'b@x.example' },
        ],
      },
      [
        { user_name: 'A', user_email: 'a@x.example' },
        { user_name: 'B', user_email: 'b@x.example' },
      ],
    ],
    [
      'a host known only by email',
      { extended_assigned_to: [{ email: 'b@x.example', primary: true }] },
      [{ user_email: 'b@x.example' }],
    ],
    [
      'only assigned_to',
      { extended_assigned_to: null, assigned_to: ['Jane Host', 7, ' '] },
      [{ user_name: 'Jane Host' }],
    ],
    [
      'extended hosts without name or email',
      { extended_assigned_to: [{ primary: true }], assigned_to: ['Jane Host'] },
      [{ user_name: 'Jane Host' }],
    ],
    ['no host at all', { extended_assigned_to: [], assigned_to: [] }, undefined],
  ])('When the event has %s, then the memberships are as the table says', (_label, event, memberships) => {
    expect(meetingOf(v1({ event })).event_memberships).toEqual(memberships);
  });

  it('When questions_and_answers is empty, then questions_and_responses is read in number order', () => {
    const body = v1({
      payload: {
        questions_and_answers: [],
        questions_and_responses: {
          '10_question': 'Tenth?',
          '10_response': 'ten',
          '2_response': 'two',
          '2_question': 'Second?',
          other: 'x',
        },
      },
    });
    expect(currentPayload(body).questions_and_answers).toEqual([
      { question: 'Second?', answer: 'two', position: 2 },
      { question: 'Tenth?', answer: 'ten', position: 10 },
    ]);
  });

  it.each<[string, JsonValue, string | null]>([
    ['an invitee object with a uuid', { uuid: 'NEWUUID', name: 'Evelyn Brooks' }, 'calendly-v1:NEWUUID'],
    [
      'an invitee object with a uri',
      { uri: 'https://api.calendly.com/x/invitees/N' },
      'https://api.calendly.com/x/invitees/N',
    ],
    ['a bare uuid', 'NEWUUID', 'calendly-v1:NEWUUID'],
    ['a uri', 'https://api.calendly.com/x/invitees/N', 'https://api.calendly.com/x/invitees/N'],
    ['null', null, null],
  ])(
    'When new_invitee is %s, then the cancel names that key and is a reschedule when there is one',
    (_label, value, key) => {
      const payload = currentPayload(v1({ payload: { new_invitee: value } }));
      expect(payload.new_invitee ?? null).toEqual(key);
      expect(payload.rescheduled).toBe(key !== null);
    },
  );

  it('When a cancel names only the new event (v1 reschedule without the invitee), then it is a reschedule', () => {
    expect(currentPayload(v1({ payload: { new_event: { uuid: 'E2' } } })).rescheduled).toBe(true);
  });

  it('When the new booking names its old invitee, then old_invitee is its key', () => {
    expect(currentPayload(v1({ payload: { old_invitee: { uuid: 'OLDUUID' } } })).old_invitee).toBe(
      'calendly-v1:OLDUUID',
    );
  });

  it('When members are named like Object.prototype members, then they are data', () => {
    const body = JSON.parse(
      '{"event":"invitee.created","__proto__":{"x":1},"payload":{"event":{"start_time":"2027-01-01T10:00:00Z"},"invitee":{"uuid":"U","__proto__":{"uri":"y"}}}}',
    ) as JsonObject;
    expect(calendlyV1.recognises(body)).toBe(true);
    const current = calendlyV1.toCurrent(body);
    expect(Object.hasOwn(current, '__proto__')).toBe(true);
    expect((current.payload as JsonObject).uri).toBe('calendly-v1:U');
  });
});
