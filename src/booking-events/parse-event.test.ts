import { describe, expect, it } from 'vitest';
import { loadBookingFixture, type BookingFixture } from '../../test/fixtures/booking/load.ts';
import type { JsonObject, JsonValue } from '../json.ts';
import { parseBookingEvent } from './parse-event.ts';

const EVENTS = 'https://api.calendly.com/scheduled_events';
const MARIA_URI = `${EVENTS}/96fd3d87-3378-43cf-b931-ba0fc10c4c4a/invitees/043ac50c-7501-42e6-8016-eee1aa0343c7`;
const JAMES_URI = `${EVENTS}/dab1eca0-699c-47c5-9a39-19635e319e62/invitees/49b77a23-a6fe-4cb9-9e40-902f837d92f4`;
const JAMES_NEW_URI = `${EVENTS}/6d2c4c5d-41e9-4a0f-90da-6f10c03212f7/invitees/6a84e70e-1da9-498b-935a-993c4ec99469`;
const LINDA_URI = `${EVENTS}/3fb29cdd-ff01-4215-a896-d27c1789577a/invitees/bb36b0af-0d94-474c-9557-b284954cc16a`;

const LINDA_NO_SHOW = 'https://api.calendly.com/invitee_no_shows/0d538977-59f5-4096-95a0-a2498b68869e';

/** The event without its submission bodies and their name stand-in (to-submission.test.ts checks those). */
function parsed(fixture: BookingFixture) {
  const event = parseBookingEvent(loadBookingFixture(fixture));
  if (event?.kind !== 'invitee') return event;
  const { submission: _submission, meeting: _meeting, fallbackName: _fallbackName, ...rest } = event;
  return rest;
}

describe('parseBookingEvent', () => {
  it.each<[string, JsonObject]>([
    ['a plain lead', { name: 'Ada Park', phone: '2133734253' }],
    ['a lead with an event field but no payload', { name: 'Ada', event: 'invitee.created' }],
    ['a payload that is no object', { event: 'invitee.created', payload: [] }],
    ['a null payload', { event: 'invitee.created', payload: null }],
    ['an event that is no dotted name', { event: 'Open house', payload: {} }],
    ['an event with one word', { event: 'created', payload: {} }],
    ['an event with a trailing dot', { event: 'invitee.', payload: {} }],
    ['an event that is no string', { event: 7, payload: {} }],
    ['an empty event', { event: '', payload: {} }],
  ])('When the body is %s, then it is no scheduler event', (_label, body) => {
    expect(parseBookingEvent(body)).toBeNull();
  });

  it('When invitee.created arrives, then its invitee and links are read', () => {
    expect(parsed('invitee-created')).toEqual({
      kind: 'invitee',
      format: 'calendly',
      event: 'invitee.created',
      listen: false,
      inviteeUri: MARIA_URI,
      replayKey: `${MARIA_URI}#invitee.created`,
      rescheduled: false,
      oldInvitee: null,
      newInvitee: null,
      cancellation: null,
    });
  });

  it('When the invitee is nested under payload.invitee, then its uri is read there', () => {
    expect(parsed('invitee-created-nested')).toMatchObject({ kind: 'invitee', inviteeUri: JAMES_URI });
  });

  it('When invitee.canceled arrives, then the cancellation is read', () => {
    expect(parsed('invitee-canceled')).toEqual({
      kind: 'invitee',
      format: 'calendly',
      event: 'invitee.canceled',
      listen: false,
      inviteeUri: MARIA_URI,
      replayKey: `${MARIA_URI}#invitee.canceled`,
      rescheduled: false,
      oldInvitee: null,
      newInvitee: null,
      cancellation: {
        reason: 'Found a policy through my credit union',
        canceled_by: 'Maria Gonzalez',
        canceler_type: 'invitee',
      },
    });
  });

  it('When a cancel says rescheduled, then the new invitee is named', () => {
    expect(parsed('invitee-canceled-rescheduled')).toEqual({
      kind: 'invitee',
      format: 'calendly',
      event: 'invitee.canceled',
      listen: false,
      inviteeUri: JAMES_URI,
      replayKey: `${JAMES_URI}#invitee.canceled`,
      rescheduled: true,
      oldInvitee: null,
      newInvitee: JAMES_NEW_URI,
      cancellation: {
        reason: 'Something came up at work',
        canceled_by: "James O'Connor",
        canceler_type: 'invitee',
      },
    });
  });

  it('When a cancel arrives, then its lead submission has no start time and its meeting has', () => {
    const event = parseBookingEvent(loadBookingFixture('invitee-canceled'));
    if (event?.kind !== 'invitee') throw new Error('not an invitee event');
    expect(event.submission).not.toHaveProperty('scheduled_at');
    expect(event.meeting).toMatchObject({ scheduled_at: '2027-01-15T19:30:00.000000Z' });
    expect({ ...event.submission, scheduled_at: event.meeting.scheduled_at }).toEqual(event.meeting);
  });

  it.each<[string, JsonObject, string | null]>([
    ['an email', { uri: 'https://x/i/1', email: 'ann@example.com', name: ' ' }, 'ann@example.com'],
    ['only a phone', { uri: 'https://x/i/1', text_reminder_number: '+1 312 555 0148' }, '+1 312 555 0148'],
    ['nothing to name it by', { uri: 'https://x/i/1' }, null],
  ])(
    'When a booking has no name but %s, then that is its stand-in name, kept out of the submission',
    (_label, payload, name) => {
      const event = parseBookingEvent({ event: 'invitee.created', payload });
      if (event?.kind !== 'invitee') throw new Error('not an invitee event');
      expect(event.fallbackName).toEqual(name);
      // Only a new contact is named by it: the gateway never merges it over a stored name.
      expect(event.submission).not.toHaveProperty('name');
      expect(event.meeting).not.toHaveProperty('name');
    },
  );

  it('When a cancel arrives with "name": null, then it has a stand-in name and its submission none', () => {
    const event = parseBookingEvent(loadBookingFixture('invitee-canceled-no-name'));
    if (event?.kind !== 'invitee') throw new Error('not an invitee event');
    expect(event.fallbackName).toBe('Maria.Gonzalez@example.com');
    expect(event.submission).not.toHaveProperty('name');
    expect(event.submission).not.toHaveProperty('first_name');
  });

  it('When a booking has a name, then it has no stand-in', () => {
    const event = parseBookingEvent(loadBookingFixture('invitee-created'));
    expect(event).toMatchObject({ fallbackName: null, submission: { name: 'Maria Gonzalez' } });
  });

  it('When a booking has no uri, then it has no replay key', () => {
    expect(parseBookingEvent({ event: 'invitee.created', payload: { name: 'Ann' } })).toMatchObject({
      inviteeUri: null,
      replayKey: null,
    });
  });

  it('When the new booking of a reschedule arrives, then the old invitee is named', () => {
    expect(parsed('invitee-created-rescheduled')).toMatchObject({
      inviteeUri: JAMES_NEW_URI,
      oldInvitee: JAMES_URI,
      rescheduled: false,
    });
  });

  it.each<[BookingFixture, string]>([
    ['invitee-no-show-created', 'invitee_no_show.created'],
    ['invitee-no-show-deleted', 'invitee_no_show.deleted'],
  ])('When %s (the InviteeNoShow resource) arrives, then the invitee is tried first', (fixture, event) => {
    expect(parsed(fixture)).toEqual({
      kind: 'no_show',
      event,
      listen: false,
      inviteeUris: [LINDA_URI, LINDA_NO_SHOW],
    });
  });

  it.each<[BookingFixture, string]>([
    ['invitee-no-show-created-invitee', 'invitee_no_show.created'],
    ['invitee-no-show-deleted-invitee', 'invitee_no_show.deleted'],
  ])(
    'When %s (the Invitee itself, as Calendly documents it) arrives, then payload.uri names the invitee',
    (fixture, event) => {
      expect(parsed(fixture)).toEqual({ kind: 'no_show', event, listen: false, inviteeUris: [LINDA_URI] });
    },
  );

  it.each<[string, JsonObject, string[]]>([
    [
      'the invitee as an object',
      { uri: 'https://x/ns/1', invitee: { uri: 'https://x/i/1' } },
      ['https://x/i/1', 'https://x/ns/1'],
    ],
    [
      'the invitee uri twice',
      { uri: 'https://x/i/1', invitee: 'https://x/i/1', no_show: { uri: 'https://x/ns/1' } },
      ['https://x/i/1'],
    ],
    ['no uri at all', {}, []],
    ['uris that are no text', { uri: 7, invitee: { uri: null } }, ['7']],
  ])(
    'When a no-show payload has %s, then the candidates come in order without repeats',
    (_label, payload, uris) => {
      expect(parseBookingEvent({ event: 'invitee_no_show.created', payload })).toMatchObject({
        inviteeUris: uris,
      });
    },
  );

  it('When a Calendly v1 booking arrives, then it is read by its generation and keyed by the invitee uuid', () => {
    expect(parsed('v1-invitee-created')).toEqual({
      kind: 'invitee',
      format: 'calendly_v1',
      event: 'invitee.created',
      listen: false,
      inviteeUri: 'calendly-v1:EVBR5KD2QW8MZLXN',
      replayKey: 'calendly-v1:EVBR5KD2QW8MZLXN#invitee.created',
      rescheduled: false,
      oldInvitee: null,
      newInvitee: null,
      cancellation: null,
    });
  });

  it('When a Calendly v1 cancel arrives, then the same key finds the booking and the reason is read', () => {
    expect(parsed('v1-invitee-canceled')).toEqual({
      kind: 'invitee',
      format: 'calendly_v1',
      event: 'invitee.canceled',
      listen: false,
      inviteeUri: 'calendly-v1:EVBR5KD2QW8MZLXN',
      replayKey: 'calendly-v1:EVBR5KD2QW8MZLXN#invitee.canceled',
      rescheduled: false,
      oldInvitee: null,
      newInvitee: null,
      cancellation: {
        reason: 'My daughter is handling it now',
        canceled_by: 'Evelyn Brooks',
        canceler_type: null,
      },
    });
    const event = parseBookingEvent({ ...loadBookingFixture('v1-invitee-canceled'), listen: 'true' });
    expect(event).toMatchObject({ listen: true, meeting: { scheduled_at: '2027-04-06T10:30:00-07:00' } });
  });

  it('When another scheduler event arrives, then it is other', () => {
    expect(parsed('routing-form-submission-created')).toEqual({
      kind: 'other',
      event: 'routing_form_submission.created',
      listen: false,
    });
    expect(parseBookingEvent({ event: 'Invitee.Created', payload: {} })).toMatchObject({ kind: 'other' });
  });

  it.each<[JsonValue, boolean]>([
    [true, true],
    ['true', true],
    [' TRUE ', true],
    [1, true],
    ['1', true],
    [false, false],
    ['false', false],
    [0, false],
    ['yes', false],
    [null, false],
  ])('When listen is %j, then listen is %s', (listen, expected) => {
    const body = { ...loadBookingFixture('invitee-created'), listen };
    expect(parseBookingEvent(body)?.listen).toBe(expected);
    expect(parseBookingEvent({ event: 'invitee_no_show.created', payload: {}, listen })?.listen).toBe(
      expected,
    );
  });

  it('When members are named like Object.prototype members, then nothing inherited is read', () => {
    const body = JSON.parse(
      '{"event":"invitee.created","payload":{"__proto__":{"uri":"x"},"constructor":1}}',
    );
    expect(parseBookingEvent(body)).toMatchObject({ inviteeUri: null, submission: {} });
  });
});
