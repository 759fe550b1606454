import { describe, expect, it } from 'vitest';
import type { AgendaEvent, AgendaPlan, AppointmentStatus } from '../appointments/transitions.ts';
import { statusAfterAgenda, statusOfNewLead, type LeadStatus } from './lead-status.ts';

function plan(subject: AppointmentStatus | null, otherBooked = false): AgendaPlan {
  return { changes: [], subject: subject ? { appointment_id: 'A', status: subject } : null, otherBooked };
}

describe('lead status rules', () => {
  it('When a lead is new, then an appointment makes it Scheduled, none New', () => {
    expect(statusOfNewLead(true)).toBe('Scheduled');
    expect(statusOfNewLead(false)).toBe('New');
  });

  // [label, event, base status, plan, expected]
  it.each<[string, AgendaEvent | null, LeadStatus, AgendaPlan, LeadStatus]>([
    ['no appointment at all', null, 'New', plan(null), 'New'],
    ['a booking that was booked or kept', { kind: 'book' }, 'Scheduled', plan('booked'), 'Scheduled'],
    ['a booking without a time', { kind: 'book' }, 'New', plan(null), 'New'],
    ['a late booking of a canceled meeting', { kind: 'book' }, 'Scheduled', plan('canceled'), 'Canceled'],
    [
      'a late booking of a canceled meeting, another booked',
      { kind: 'book' },
      'Scheduled',
      plan('canceled', true),
      'Scheduled',
    ],
    [
      'a late booking of a rescheduled meeting',
      { kind: 'book' },
      'Scheduled',
      plan('rescheduled'),
      'Scheduled',
    ],
    ['a late booking of a no-show', { kind: 'book' }, 'Scheduled', plan('no_show'), 'Scheduled'],
    ['a cancel', { kind: 'cancel', as: 'canceled' }, 'New', plan('canceled'), 'Canceled'],
    [
      'a cancel while another booking remains',
      { kind: 'cancel', as: 'canceled' },
      'New',
      plan('canceled', true),
      'Scheduled',
    ],
    ['a cancel of a meeting never seen', { kind: 'cancel', as: 'canceled' }, 'New', plan(null), 'Canceled'],
    [
      'a reschedule (its new booking on its way)',
      { kind: 'cancel', as: 'rescheduled' },
      'New',
      plan('rescheduled'),
      'Scheduled',
    ],
    ['a no-show', { kind: 'no_show' }, 'Scheduled', plan('no_show'), 'Scheduled'],
    ['a no-show removed', { kind: 'no_show_removed' }, 'Canceled', plan('booked'), 'Canceled'],
  ])('When the delivery is %s, then the lead is as the table says', (_label, event, base, p, expected) => {
    expect(statusAfterAgenda(event, base, p)).toBe(expected);
  });
});
