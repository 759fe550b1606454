import { describe, expect, it } from 'vitest';
import { loadBookingFixture, type BookingFixture } from '../../test/fixtures/booking/load.ts';
import { parseBookingEvent } from '../booking-events/parse-event.ts';
import { prepareLead } from './prepare-lead.ts';

describe('prepareLead: the map step', () => {
  it.each<BookingFixture>([
    'invitee-created',
    'invitee-created-nested',
    'invitee-created-questionnaire',
    'invitee-created-rescheduled',
  ])(
    'When the booking %s goes through the lead mapper, then it is a Scheduled lead without warnings',
    (fixture) => {
      const event = parseBookingEvent(loadBookingFixture(fixture));
      if (event?.kind !== 'invitee') throw new Error(`${fixture} is not an invitee event`);
      const lead = prepareLead(event.submission, 'America/New_York');
      expect(lead.warnings).toEqual([]);
      expect(lead.status).toBe('Scheduled');
      expect(lead.fields.phone).toMatch(/^\d{10}$/);
    },
  );

  it('When a cancel is mapped, then its start time books nothing and the meeting keeps it', () => {
    const event = parseBookingEvent(loadBookingFixture('invitee-canceled'));
    if (event?.kind !== 'invitee') throw new Error('not an invitee event');
    expect(prepareLead(event.submission, 'America/New_York')).toMatchObject({
      appointment: null,
      status: 'New',
    });
    expect(prepareLead(event.meeting, 'America/New_York').appointment).toMatchObject({
      scheduled_at: '2027-01-15T19:30:00.000Z',
    });
  });

  it('When a sender sends its own status, then the gateway decides and keeps the sent one in custom_fields', () => {
    const lead = prepareLead({ name: 'Sam Sent', status: 'Sold' }, 'America/Chicago');
    expect(lead.status).toBe('New');
    expect(lead.fields).not.toHaveProperty('status');
    expect(lead.custom_fields).toEqual({ status: 'Sold' });
    expect(lead.warnings.map((w) => w.code)).toEqual(['STATUS_IGNORED']);
  });

  it('When the name is blank, then the lead has no name (the gateway answers MISSING_NAME)', () => {
    expect(prepareLead({ name: '  ', phone: '2145550100' }, 'America/Chicago').hasName).toBe(false);
    expect(prepareLead({ first_name: 'Ann' }, 'America/Chicago').hasName).toBe(true);
  });
});
