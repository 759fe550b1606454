import { describe, expect, it } from 'vitest';
import type { AgendaChange } from '../appointments/transitions.ts';
import { appointmentMessages } from './outbox-messages.ts';

const facts = [
  { appointment_id: 'old', scheduled_at: '2027-01-10T15:00:00.000Z', external_id: null },
  { appointment_id: 'new', scheduled_at: '2027-01-15T19:30:00.000Z', external_id: 'https://x/i/1' },
];
const context = { lead_id: 'L', source_id: 'S', appointments: facts, reason: 'Found another policy' };

describe('appointmentMessages: one message per change, named for what happened', () => {
  it.each<[string, AgendaChange[], Array<[string, Record<string, unknown>]>]>([
    [
      'a booking',
      [{ op: 'insert', appointment_id: 'new', status: 'booked' }],
      [['appointment.booked', { external_id: 'https://x/i/1' }]],
    ],
    [
      'a new time replacing the old',
      [
        { op: 'update', appointment_id: 'old', from: 'booked', to: 'rescheduled' },
        { op: 'insert', appointment_id: 'new', status: 'booked' },
      ],
      [
        [
          'appointment.rescheduled',
          { appointment_id: 'old', replaced_by: 'new', scheduled_at: '2027-01-10T15:00:00.000Z' },
        ],
        ['appointment.booked', { appointment_id: 'new' }],
      ],
    ],
    [
      'a scheduler reschedule (the new booking comes on its own)',
      [{ op: 'update', appointment_id: 'new', from: 'booked', to: 'rescheduled' }],
      [['appointment.rescheduled', { replaced_by: null }]],
    ],
    [
      'a cancel',
      [{ op: 'update', appointment_id: 'new', from: 'booked', to: 'canceled' }],
      [['appointment.canceled', { reason: 'Found another policy' }]],
    ],
    [
      'a cancel of a meeting never seen, recorded closed',
      [{ op: 'insert', appointment_id: 'new', status: 'canceled' }],
      [['appointment.canceled', { appointment_id: 'new' }]],
    ],
    [
      'a no-show',
      [{ op: 'update', appointment_id: 'new', from: 'booked', to: 'no_show' }],
      [['appointment.no_show', {}]],
    ],
    [
      'a no-show removed',
      [{ op: 'update', appointment_id: 'new', from: 'no_show', to: 'booked' }],
      [['appointment.no_show_removed', {}]],
    ],
    ['nothing', [], []],
  ])('When the change is %s, then the messages are as the table says', (_label, changes, expected) => {
    const messages = appointmentMessages(changes, context);
    expect(messages.map((m) => m.topic)).toEqual(expected.map(([topic]) => topic));
    messages.forEach((m, i) => {
      expect(m.payload).toMatchObject({ lead_id: 'L', source_id: 'S', ...expected[i]?.[1] });
    });
  });

  it('When a change names an appointment that was not read, then it is a bug and throws', () => {
    expect(() =>
      appointmentMessages([{ op: 'insert', appointment_id: 'ghost', status: 'booked' }], context),
    ).toThrow(/not read/);
  });
});
