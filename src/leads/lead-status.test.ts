import { describe, expect, it } from 'vitest';
import type { AgendaEvent, AgendaPlan, AppointmentStatus } from '../appointments/transitions.ts';
import {
  canChangeStatus,
  STATUS_CHANGES,
  CALL_OUTCOMES,
  LEAD_STATUSES,
  statusAfterAgenda,
  statusAfterCall,
  statusAfterResubmit,
  statusOfNewLead,
  type CallOutcome,
  type LeadStatus,
} from './lead-status.ts';

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

describe('call outcomes and repeat deliveries (docs/admin-api.md, "Call outcomes")', () => {
  it.each<[LeadStatus, CallOutcome, LeadStatus]>([
    ['New', 'reached', 'Contacted'],
    ['Canceled', 'reached', 'Contacted'],
    ['Scheduled', 'reached', 'Scheduled'],
    ['Contacted', 'reached', 'Contacted'],
    ['Not interested', 'reached', 'Not interested'],
    ['New', 'no_answer', 'New'],
    ['Scheduled', 'no_answer', 'Scheduled'],
    ['New', 'bad_number', 'Bad number'],
    ['Scheduled', 'bad_number', 'Bad number'],
    ['New', 'not_interested', 'Not interested'],
    ['Contacted', 'not_interested', 'Not interested'],
    ['Sold', 'reached', 'Sold'],
    ['Sold', 'bad_number', 'Sold'],
    ['Sold', 'not_interested', 'Sold'],
  ])('When a %s lead’s call ends %s, then it is %s', (from, outcome, to) => {
    expect(statusAfterCall(from, outcome)).toBe(to);
  });

  it('When a call outcome is marked, then the status is always one of the known statuses and no_answer never changes it', () => {
    for (const from of LEAD_STATUSES) {
      for (const outcome of CALL_OUTCOMES) {
        expect(LEAD_STATUSES).toContain(statusAfterCall(from, outcome));
      }
      expect(statusAfterCall(from, 'no_answer')).toBe(from);
    }
  });

  it.each<[LeadStatus, LeadStatus]>([
    ['New', 'New'],
    ['Scheduled', 'Scheduled'],
    ['Contacted', 'Contacted'],
    ['Canceled', 'New'],
    ['Not interested', 'New'],
    ['Bad number', 'New'],
    ['Sold', 'Sold'],
  ])(
    'When a %s lead is delivered again without an appointment, then it is %s; with one, Scheduled',
    (from, to) => {
      expect(statusAfterResubmit(from, false)).toBe(to);
      expect(statusAfterResubmit(from, true)).toBe('Scheduled');
    },
  );
});

describe('status changes by hand', () => {
  it.each<[LeadStatus, LeadStatus, boolean]>([
    ['New', 'Contacted', true],
    ['New', 'Scheduled', false],
    ['Scheduled', 'Not interested', true],
    ['Scheduled', 'Contacted', false],
    ['Scheduled', 'New', false],
    ['Not interested', 'New', true],
    ['Bad number', 'Contacted', true],
    ['Contacted', 'Canceled', false],
    ['Sold', 'Contacted', true],
    ['Sold', 'New', false],
  ])('When a %s lead is set to %s by hand, then that is allowed: %s', (from, to, allowed) => {
    expect(canChangeStatus(from, to)).toBe(allowed);
  });

  it('When any change is asked, then no status goes to itself, and none by hand to Scheduled, Canceled or Sold', () => {
    for (const from of LEAD_STATUSES) {
      expect(canChangeStatus(from, from)).toBe(false);
      expect(canChangeStatus(from, 'Sold')).toBe(false);
      expect(canChangeStatus(from, 'Scheduled')).toBe(false);
      expect(canChangeStatus(from, 'Canceled')).toBe(false);
      for (const to of STATUS_CHANGES[from]) expect(LEAD_STATUSES).toContain(to);
    }
  });
});
