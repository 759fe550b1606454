import { describe, expect, it } from 'vitest';
import type { FeedAppointment } from './feed-repository.ts';
import { consoleUrl, feedEvent, feedUrl, matchesEtag } from './feed.ts';

const at = Date.parse('2027-01-15T19:30:00Z');
const row = (over: Partial<FeedAppointment> = {}): FeedAppointment => ({
  uid: '0191e3b4-5d6e-7f80-9a1b-2c3d4e5f6a7b',
  lead_id: '0191e3b4-0000-7f80-9a1b-2c3d4e5f6a7b',
  start: at,
  end: null,
  schedule_type: 'appointment',
  status: 'booked',
  sequence: 2,
  join_url: null,
  modified: at - 86_400_000,
  name: 'Harold Jenkins',
  phone: '3125550142',
  notes: null,
  ...over,
});

describe('feedEvent: an appointment as its calendar event', () => {
  it.each([
    ['booked', 'CONFIRMED', 'Harold Jenkins · Appointment'],
    ['no_show', 'CONFIRMED', 'Harold Jenkins · Appointment (no-show)'],
    ['canceled', 'CANCELLED', 'Harold Jenkins · Appointment'],
    ['rescheduled', 'CANCELLED', 'Harold Jenkins · Appointment'],
  ])('When the appointment is %s, then the event is %s, "%s"', (status, shown, summary) => {
    expect(feedEvent(row({ status }), 30, 'https://x/console')).toMatchObject({ status: shown, summary });
  });

  it.each([
    [null, 30, at + 30 * 60_000],
    [null, 45, at + 45 * 60_000],
    [at + 20 * 60_000, 30, at + 20 * 60_000],
  ])(
    'When the booking ends at %s and the agent’s length is %i minutes, then the event ends at %i',
    (end, minutes, ends) => {
      expect(feedEvent(row({ end }), minutes, 'https://x/console').end).toBe(ends);
    },
  );

  it.each([
    ['3125550142', 'Phone: +1 (312) 555-0142'],
    ['13125550142', 'Phone: +1 (312) 555-0142'],
    ['+442071838750', 'Phone: +442071838750'],
    [null, 'No phone on the lead'],
  ])('When the phone is %s, then the description says "%s"', (phone, line) => {
    expect(feedEvent(row({ phone }), 30, 'https://x/console').description.split('\n')[0]).toBe(line);
  });

  it('When notes are long, then the first 2,000 characters go in, and the follow-up says its type', () => {
    const e = feedEvent(
      row({ notes: `  ${'a'.repeat(2_500)}  `, schedule_type: 'follow_up' }),
      30,
      'https://x/console',
    );
    expect(e.description).toContain(`\n\n${'a'.repeat(2_000)}…`);
    expect(e.description).not.toContain('a'.repeat(2_001));
    expect(e.summary).toBe('Harold Jenkins · Follow-up call');
    expect(e.url).toBe('https://x/console/leads/0191e3b4-0000-7f80-9a1b-2c3d4e5f6a7b');
    expect(e.uid).toBe('0191e3b4-5d6e-7f80-9a1b-2c3d4e5f6a7b@leadgate');
  });
});

describe('URLs', () => {
  it('PUBLIC_BASE_URL ends in /v1: the feed is under it, the console beside it', () => {
    expect(feedUrl('https://leads.example.com/v1', 'abc')).toBe(
      'https://leads.example.com/v1/calendar/abc.ics',
    );
    expect(consoleUrl('https://leads.example.com/v1')).toBe('https://leads.example.com/console');
  });
});

describe('matchesEtag', () => {
  it.each([
    [undefined, false],
    ['"abc"', true],
    ['W/"abc"', true],
    ['"x", "abc"', true],
    ['*', true],
    ['"abcd"', false],
    ['abc', false],
  ])('If-None-Match %j matches "abc": %s', (header, matches) => {
    expect(matchesEtag(header, '"abc"')).toBe(matches);
  });
});
