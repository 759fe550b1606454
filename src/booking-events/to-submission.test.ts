import { describe, expect, it } from 'vitest';
import { loadBookingFixture, type BookingFixture } from '../../test/fixtures/booking/load.ts';
import type { JsonObject, JsonValue } from '../json.ts';
import { parseBookingEvent } from './parse-event.ts';
import { inviteeToSubmission } from './to-submission.ts';

const EVENTS = 'https://api.calendly.com/scheduled_events';
const MARIA = {
  event: '96fd3d87-3378-43cf-b931-ba0fc10c4c4a',
  invitee: '043ac50c-7501-42e6-8016-eee1aa0343c7',
};
const JAMES = {
  event: 'dab1eca0-699c-47c5-9a39-19635e319e62',
  invitee: '49b77a23-a6fe-4cb9-9e40-902f837d92f4',
};
const JAMES_NEW = {
  event: '6d2c4c5d-41e9-4a0f-90da-6f10c03212f7',
  invitee: '6a84e70e-1da9-498b-935a-993c4ec99469',
};
const LINDA = {
  event: '3fb29cdd-ff01-4215-a896-d27c1789577a',
  invitee: 'bb36b0af-0d94-474c-9557-b284954cc16a',
};

/** The links and uris every invitee submission carries, for one booking. */
function links(ids: { event: string; invitee: string }, joinUrl: string) {
  return {
    join: joinUrl,
    cancel: `https://calendly.com/cancellations/${ids.invitee}`,
    reschedule: `https://calendly.com/reschedulings/${ids.invitee}`,
    event: `${EVENTS}/${ids.event}`,
    invitee: `${EVENTS}/${ids.event}/invitees/${ids.invitee}`,
  };
}

function notesHeader(title: string, time: string, host: string, l: ReturnType<typeof links>): string {
  return `Appointment: ${title}\nTime: ${time}\nHost: ${host}\nJoin: ${l.join}\nReschedule: ${l.reschedule}\nCancel: ${l.cancel}\n---\n`;
}

function submissionOf(fixture: BookingFixture): JsonObject {
  const event = parseBookingEvent(loadBookingFixture(fixture));
  if (event?.kind !== 'invitee') throw new Error(`${fixture} is no invitee event`);
  return event.meeting;
}

const M = links(MARIA, 'https://us06web.zoom.us/j/81234567890?pwd=bXlGcm9zdHlNb3JuaW5n');
const MARIA_SUBMISSION = {
  name: 'Maria Gonzalez',
  email: 'Maria.Gonzalez@example.com',
  phone: '+1 312-555-0148',
  scheduled_at: '2027-01-15T19:30:00.000000Z',
  appointment_timezone: 'America/Chicago',
  setter_dialer_name: 'Dana Whitfield',
  campaign_name: 'Final Expense Consultation',
  utm_source: 'facebook',
  utm_medium: 'paid_social',
  utm_campaign: 'fe-jan-2027',
  notes:
    notesHeader(
      'Final Expense Consultation',
      '2027-01-15 19:30 UTC [America/Chicago]',
      'Dana Whitfield <dana.whitfield@summitlife.example>',
      M,
    ) + 'What type of coverage are you interested in?\nFinal expense, around $15,000',
  custom_fields: {
    join_url: M.join,
    cancel_url: M.cancel,
    reschedule_url: M.reschedule,
    booking_event_uri: M.event,
    invitee_uri: M.invitee,
    appointment_end_time: '2027-01-15T20:00:00.000000Z',
    host_email: 'dana.whitfield@summitlife.example',
    location_type: 'zoom',
  },
};

function jamesSubmission(ids: typeof JAMES, join: string, start: string, end: string, phone: string) {
  const l = links(ids, join);
  return {
    name: "James O'Connor",
    first_name: 'James',
    last_name: "O'Connor",
    email: 'jim.oconnor@example.net',
    phone,
    scheduled_at: `${start}:00.000000Z`,
    appointment_timezone: 'America/New_York',
    setter_dialer_name: 'Priya Raman',
    campaign_name: 'Life Insurance Review',
    utm_source: 'google',
    utm_medium: 'cpc',
    utm_campaign: 'life-review',
    utm_content: 'ad-3',
    utm_term: 'life insurance for parents',
    notes:
      notesHeader(
        'Life Insurance Review',
        `${start.replace('T', ' ')} UTC [America/New_York]`,
        'Priya Raman <priya.raman@summitlife.example>',
        l,
      ) + "Anything you'd like us to know before the call?\nLooking for a policy for my mother, she is 71.",
    custom_fields: {
      join_url: l.join,
      cancel_url: l.cancel,
      reschedule_url: l.reschedule,
      booking_event_uri: l.event,
      invitee_uri: l.invitee,
      appointment_end_time: `${end}:00.000000Z`,
      host_email: 'priya.raman@summitlife.example',
      location_type: 'google_conference',
    },
  };
}

const L = links(LINDA, 'https://us06web.zoom.us/j/89876543210');

describe('inviteeToSubmission', () => {
  it.each<[BookingFixture, object]>([
    ['invitee-created', MARIA_SUBMISSION],
    ['invitee-canceled', MARIA_SUBMISSION],
    [
      'invitee-created-nested',
      jamesSubmission(
        JAMES,
        'https://meet.google.com/xqv-rmtp-kde',
        '2027-02-03T15:00',
        '2027-02-03T15:30',
        '(404) 555-0172',
      ),
    ],
    [
      'invitee-canceled-rescheduled',
      jamesSubmission(
        JAMES,
        'https://meet.google.com/xqv-rmtp-kde',
        '2027-02-03T15:00',
        '2027-02-03T15:30',
        '(404) 555-0172',
      ),
    ],
    [
      'invitee-created-rescheduled',
      jamesSubmission(
        JAMES_NEW,
        'https://meet.google.com/hzw-pqcj-tbn',
        '2027-02-05T18:30',
        '2027-02-05T19:00',
        '+1 404-555-0172',
      ),
    ],
  ])('When %s arrives, then the submission is exactly the mapped lead', (fixture, expected) => {
    expect(submissionOf(fixture)).toEqual(expected);
  });

  it('When the mixed questionnaire arrives, then the phone comes from the phone question and the notes keep the rest', () => {
    const submission = submissionOf('invitee-created-questionnaire');
    expect({ ...submission, notes: '(see notes.test.ts)' }).toEqual({
      name: 'Linda Hartley',
      email: 'Linda.Hartley@example.org',
      phone: '312.555.0199',
      scheduled_at: '2027-03-09T22:00:00.000000Z',
      appointment_timezone: 'America/Denver',
      setter_dialer_name: 'Marcus Bell',
      campaign_name: 'Life Insurance Consultation',
      utm_source: 'newsletter',
      utm_medium: 'email',
      utm_campaign: 'spring-2027',
      notes: '(see notes.test.ts)',
      custom_fields: {
        join_url: L.join,
        cancel_url: L.cancel,
        reschedule_url: L.reschedule,
        booking_event_uri: L.event,
        invitee_uri: L.invitee,
        appointment_end_time: '2027-03-09T22:45:00.000000Z',
        host_email: 'marcus.bell@summitlife.example',
        location_type: 'zoom',
      },
    });
  });

  it('When the host has only an email and the meeting is an outbound call, then the email is the setter and the call number the phone', () => {
    const ev = 'https://api.calendly.com/scheduled_events/8a4d2f61-3c7b-4e19-b0d5-6f2e9c1a7b34';
    const id = 'c7e3a915-52bd-4f08-9e6a-1d84b3f0a2c6';
    const submission = submissionOf('invitee-created-host-email-only');
    expect(submission).toEqual({
      name: 'Robert Kim',
      email: 'robert.kim@example.com',
      phone: '+1 702-555-0163',
      scheduled_at: '2027-02-17T21:00:00.000000Z',
      appointment_timezone: 'America/Phoenix',
      setter_dialer_name: 'sofia.reyes@summitlife.example',
      campaign_name: 'Term Life Quote Call',
      notes:
        'Appointment: Term Life Quote Call\nTime: 2027-02-17 21:00 UTC [America/Phoenix]\n' +
        'Host: sofia.reyes@summitlife.example\n' +
        `Reschedule: https://calendly.com/reschedulings/${id}\nCancel: https://calendly.com/cancellations/${id}\n` +
        '---\nWhat type of coverage are you looking for?\nTerm life for my family',
      custom_fields: {
        cancel_url: `https://calendly.com/cancellations/${id}`,
        reschedule_url: `https://calendly.com/reschedulings/${id}`,
        booking_event_uri: ev,
        invitee_uri: `${ev}/invitees/${id}`,
        appointment_end_time: '2027-02-17T21:30:00.000000Z',
        host_email: 'sofia.reyes@summitlife.example',
        location_type: 'outbound_call',
        location: '+1 702-555-0163',
      },
    });
  });

  it.each<[string, JsonObject, string | undefined]>([
    ['an inbound call (the host’s number)', { type: 'inbound_call', location: '+1 702-555-0100' }, undefined],
    ['an in-person meeting', { type: 'physical', location: '12 Main St, Reno NV' }, undefined],
    ['an outbound call without a number', { type: 'outbound_call', location: 'ask me' }, undefined],
    ['an outbound call', { type: 'outbound_call', location: '702.555.0163' }, '702.555.0163'],
  ])('When the location is %s, then the phone is as the table says', (_label, location, phone) => {
    expect(inviteeToSubmission({ name: 'Ann', scheduled_event: { location } }).phone).toEqual(phone);
  });

  it.each<[string, JsonValue, string | undefined]>([
    ['a name and an email', [{ user_name: 'Dana', user_email: 'dana@x.example' }], 'Dana'],
    ['only an email', [{ user_email: 'dana@x.example' }], 'dana@x.example'],
    ['a blank name and an email', [{ user_name: ' ', user_email: 'dana@x.example' }], 'dana@x.example'],
    ['neither', [{ user: 'https://api.calendly.com/users/1' }], undefined],
  ])('When the host has %s, then the setter is as the table says', (_label, memberships, setter) => {
    const submission = inviteeToSubmission({
      name: 'Ann',
      scheduled_event: { event_memberships: memberships },
    });
    expect(submission.setter_dialer_name).toEqual(setter);
  });

  it('When a Calendly v1 booking arrives, then it maps like a current one (host, answers, instant, key)', () => {
    expect(submissionOf('v1-invitee-created')).toEqual({
      name: 'Evelyn Brooks',
      first_name: 'Evelyn',
      last_name: 'Brooks',
      email: 'Evelyn.Brooks@example.net',
      phone: '+14045550186',
      scheduled_at: '2027-04-06T10:30:00-07:00',
      appointment_timezone: 'America/New_York',
      setter_dialer_name: 'Grace Lee',
      campaign_name: 'Final Expense Review',
      utm_source: 'google',
      utm_medium: 'cpc',
      utm_campaign: 'fe-spring-2027',
      notes:
        'Appointment: Final Expense Review\nTime: 2027-04-06 17:30 UTC [America/New_York]\n' +
        'Host: Grace Lee <grace.lee@summitlife.example>\n---\n' +
        'Do you use tobacco or nicotine products?\nNo\n\n' +
        'Anything else you would like us to know?\nPlease call after 1 pm',
      custom_fields: {
        booking_event_uri: 'calendly-v1:CJQX7RWMB3ZKHT5L',
        invitee_uri: 'calendly-v1:EVBR5KD2QW8MZLXN',
        appointment_end_time: '2027-04-06T11:00:00-07:00',
        host_email: 'grace.lee@summitlife.example',
        location: 'Phone call',
      },
    });
  });

  it('When the same invitee comes in either envelope shape, then the submissions are equal', () => {
    const direct = loadBookingFixture('invitee-created').payload as JsonObject;
    expect(inviteeToSubmission({ invitee: direct })).toEqual(inviteeToSubmission(direct));
    const { scheduled_event: scheduledEvent, ...members } = direct;
    expect(inviteeToSubmission({ scheduled_event: scheduledEvent ?? null, invitee: members })).toEqual(
      inviteeToSubmission(direct),
    );
  });

  it('When both payload and payload.invitee carry a member, then payload.invitee wins and blanks fall back', () => {
    const submission = inviteeToSubmission({
      name: 'Outer Name',
      email: 'outer@example.com',
      timezone: 'America/Chicago',
      invitee: { name: 'Inner Name', email: '  ', timezone: null },
    });
    expect(submission).toEqual({
      name: 'Inner Name',
      email: 'outer@example.com',
      appointment_timezone: 'America/Chicago',
    });
  });

  it('When the payload has nothing usable, then the submission is empty (the gateway answers MISSING_NAME)', () => {
    expect(inviteeToSubmission({})).toEqual({});
    expect(
      inviteeToSubmission({ name: '', scheduled_event: { event_memberships: [7], location: 'x' } }),
    ).toEqual({});
  });
});
