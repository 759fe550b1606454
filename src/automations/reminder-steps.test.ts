import { describe, expect, it } from 'vitest';
import type { FollowUpLead } from './follow-up-leads.ts';
import { decideReminder, type ClaimedReminder } from './reminder-steps.ts';
import { reminderState } from './reminder-view.ts';

/** A day-before reminder of a 2 p.m. New York appointment, due at 2 p.m. the day before. */
const APPOINTMENT = new Date('2027-01-20T19:00:00Z');
const NOW = new Date('2027-01-19T19:00:00Z');
const reminder = (over: Partial<ClaimedReminder> = {}): ClaimedReminder => ({
  agent_id: 'a',
  appointment_id: '018f0000-0000-7000-8000-000000000001',
  kind: 'day_before',
  lead_id: 'l',
  attempts: 1,
  appointment_at: APPOINTMENT,
  due_at: NOW,
  agent_name: 'Sam Agent',
  agent_timezone: 'America/New_York',
  day_before: true,
  hour_before: true,
  template: null,
  appointment_status: 'booked',
  scheduled_at: APPOINTMENT,
  appointment_timezone: 'America/New_York',
  ...over,
});
const lead = (over: Record<string, unknown> = {}) =>
  ({
    lead_id: 'l',
    agent_id: 'a',
    status: 'Scheduled',
    first_name: 'Carol',
    phone: '2125550100',
    sms_consent: true,
    state: 'NY',
    zipcode: '10001',
    ...over,
  }) as unknown as FollowUpLead;
const CLEAR = { text: null, call: null };

describe('decideReminder', () => {
  it.each([
    [
      'a canceled appointment',
      reminder({ appointment_status: 'canceled' }),
      lead(),
      0,
      NOW,
      'appointment canceled',
    ],
    [
      'an appointment at another time',
      reminder({ scheduled_at: new Date('2027-01-21T19:00:00Z') }),
      lead(),
      0,
      NOW,
      'appointment moved',
    ],
    ['an appointment past', reminder(), lead(), 0, new Date('2027-01-20T19:00:00Z'), 'appointment passed'],
    ['the reminder turned off', reminder({ day_before: false }), lead(), 0, NOW, 'turned off'],
    ['no phone', reminder(), lead({ phone: null }), 0, NOW, 'no phone'],
    ['no texting consent', reminder(), lead({ sms_consent: false }), 0, NOW, 'no SMS consent'],
    [
      'a Florida number with 3 texts today',
      reminder(),
      lead({ state: 'FL' }),
      3,
      NOW,
      'FL allows 3 texts in 24 hours',
    ],
    [
      'a late claim whose next window opens after the appointment',
      reminder({
        kind: 'hour_before',
        scheduled_at: new Date('2027-01-20T12:30:00Z'),
        appointment_at: new Date('2027-01-20T12:30:00Z'),
      }),
      lead(),
      0,
      new Date('2027-01-20T02:30:00Z'),
      'outside calling hours until the appointment',
    ],
  ])('When it is %s, then it is skipped with the reason', (_, r, l, texts, now, reason) => {
    expect(decideReminder(r, l, CLEAR, texts, now)).toEqual({ kind: 'skipped', reason });
  });

  it('When screening forbids a text, then it is skipped with screening’s reason', () => {
    expect(decideReminder(reminder(), lead(), { text: 'dnc', call: 'dnc' }, 0, NOW)).toEqual({
      kind: 'skipped',
      reason: 'dnc',
    });
  });

  it('When a late claim is outside the window and the morning is before the appointment, then it moves to the morning', () => {
    const r = reminder({
      kind: 'hour_before',
      scheduled_at: new Date('2027-01-20T13:30:00Z'),
      appointment_at: new Date('2027-01-20T13:30:00Z'),
    });
    expect(decideReminder(r, lead(), CLEAR, 0, new Date('2027-01-20T02:30:00Z'))).toEqual({
      kind: 'moved',
      due: new Date('2027-01-20T13:00:00Z'),
      reason: 'outside calling hours',
    });
  });

  it('When all is well, then its text is due at once, keyed by the appointment and kind, with the local time', () => {
    const a = decideReminder(reminder(), lead(), CLEAR, 2, NOW);
    const b = decideReminder(reminder({ kind: 'hour_before' }), lead(), CLEAR, 2, NOW);
    expect(a).toMatchObject({
      kind: 'text',
      text: {
        to_phone: '2125550100',
        send_at: NOW,
        body: 'Hi Carol, this is Sam Agent: a reminder of our appointment Wed, Jan 20, 2:00 PM EST. Reply here if you need another time.',
      },
    });
    if (a.kind !== 'text' || b.kind !== 'text') throw new Error('expected texts');
    expect(a.text.message_id).not.toBe(b.text.message_id);
    expect(decideReminder(reminder(), lead(), CLEAR, 0, NOW)).toEqual(a);
  });
});

describe('reminderState', () => {
  const row = {
    status: 'planned' as const,
    reason: null,
    appointment_status: 'booked',
    turned_on: true,
    text_status: null,
    text_error: null,
  };
  it.each([
    ['planned', row, { status: 'planned', reason: null }],
    [
      'planned, its appointment canceled since',
      { ...row, appointment_status: 'canceled' },
      { status: 'skipped', reason: 'appointment canceled' },
    ],
    ['planned, turned off', { ...row, turned_on: false }, { status: 'planned', reason: 'turned off' }],
    [
      'sent and delivered',
      { ...row, status: 'sent' as const, text_status: 'sent' },
      { status: 'sent', reason: null },
    ],
    [
      'sent, waiting in the queue',
      { ...row, status: 'sent' as const, text_status: 'scheduled' },
      { status: 'sent', reason: 'sending' },
    ],
    [
      'sent, suppressed by the sender',
      { ...row, status: 'sent' as const, text_status: 'suppressed', text_error: 'opted_out' },
      { status: 'skipped', reason: 'opted_out' },
    ],
    [
      'sent, given up on',
      { ...row, status: 'sent' as const, text_status: 'failed', text_error: 'timeout' },
      { status: 'skipped', reason: 'not sent: timeout' },
    ],
    [
      'skipped',
      { ...row, status: 'skipped' as const, reason: 'no SMS consent' },
      { status: 'skipped', reason: 'no SMS consent' },
    ],
  ])('%s', (_, r, state) => {
    expect(reminderState(r)).toEqual(state);
  });
});
