import { describe, expect, it } from 'vitest';
import { loadBookingFixture } from '../../test/fixtures/booking/load.ts';
import type { JsonValue } from '../json.ts';
import { buildBookingNotes, type BookingNotesInput } from './notes.ts';
import { parseBookingEvent } from './parse-event.ts';

const MIXED_QUESTIONNAIRE_NOTES = `Appointment: Life Insurance Consultation
Time: 2027-03-09 22:00 UTC [America/Denver]
Host: Marcus Bell <marcus.bell@summitlife.example>
Join: https://us06web.zoom.us/j/89876543210
Reschedule: https://calendly.com/reschedulings/bb36b0af-0d94-474c-9557-b284954cc16a
Cancel: https://calendly.com/cancellations/bb36b0af-0d94-474c-9557-b284954cc16a
---
Do you currently have life insurance?
No

Do you use tobacco or nicotine products?
No

Any major health conditions (heart disease, cancer, stroke, diabetes)?
None

Are you taking any prescription medications?
Lisinopril 10 mg, metformin

Who would you name as your beneficiary?
My daughter, Elena

What would you like the policy to cover?
Funeral costs, and something left over for my grandkids

May we send you text message reminders?
No

How did you hear about us?
My neighbor Rosa recommended you`;

const FULL: BookingNotesInput = {
  eventName: 'Final Expense Consultation',
  startTime: '2027-01-15T19:30:00.000000Z',
  timezone: 'America/Chicago',
  hostName: 'Dana Whitfield',
  hostEmail: 'dana@agency.example',
  joinUrl: 'https://zoom.example/j/1',
  rescheduleUrl: 'https://scheduler.example/r/1',
  cancelUrl: 'https://scheduler.example/c/1',
  questions: [{ question: 'Anything else?', answer: 'Call after 5pm' }],
};

describe('buildBookingNotes', () => {
  it('When the mixed questionnaire fixture arrives, then the notes read exactly as expected', () => {
    const event = parseBookingEvent(loadBookingFixture('invitee-created-questionnaire'));
    expect(event?.kind === 'invitee' && event.submission.notes).toBe(MIXED_QUESTIONNAIRE_NOTES);
  });

  it('When every value is there, then the six header lines, the separator and the blocks are in order', () => {
    expect(buildBookingNotes(FULL)).toBe(
      [
        'Appointment: Final Expense Consultation',
        'Time: 2027-01-15 19:30 UTC [America/Chicago]',
        'Host: Dana Whitfield <dana@agency.example>',
        'Join: https://zoom.example/j/1',
        'Reschedule: https://scheduler.example/r/1',
        'Cancel: https://scheduler.example/c/1',
        '---',
        'Anything else?',
        'Call after 5pm',
      ].join('\n'),
    );
  });

  it('When values are missing, then their lines are left out and the rest keep their order', () => {
    const notes = buildBookingNotes({
      ...FULL,
      hostName: null,
      hostEmail: ' ',
      joinUrl: '',
      cancelUrl: undefined,
    });
    expect(notes.split('\n').slice(0, 4)).toEqual([
      'Appointment: Final Expense Consultation',
      'Time: 2027-01-15 19:30 UTC [America/Chicago]',
      'Reschedule: https://scheduler.example/r/1',
      '---',
    ]);
  });

  it('When the time zone is missing, then the time line says UTC', () => {
    expect(buildBookingNotes({ startTime: '2027-01-15T13:30:00-06:00' })).toBe(
      'Time: 2027-01-15 19:30 UTC [UTC]',
    );
  });

  it.each<[string | null, string | null, string]>([
    ['Dana Whitfield', null, 'Host: Dana Whitfield'],
    [null, 'dana@agency.example', 'Host: dana@agency.example'],
    ['Dana Whitfield', 'dana@agency.example', 'Host: Dana Whitfield <dana@agency.example>'],
  ])('When the host is %s / %s, then the host line reads %s', (hostName, hostEmail, expected) => {
    expect(buildBookingNotes({ hostName, hostEmail })).toBe(expected);
  });

  it('When no question is kept, then there is no separator', () => {
    const notes = buildBookingNotes({ ...FULL, questions: [{ question: 'Anything else?', answer: 'N/A' }] });
    expect(notes.endsWith('Cancel: https://scheduler.example/c/1')).toBe(true);
  });

  it('When there is no header, then the notes are the question blocks alone', () => {
    expect(buildBookingNotes({ questions: [{ question: 'Smoker?', answer: 'No' }] })).toBe('Smoker?\nNo');
    expect(buildBookingNotes({})).toBe('');
  });

  it('When items carry positions, then they are ordered by position, the rest after them as sent', () => {
    const questions: JsonValue = [
      { question: 'C', answer: 'third', position: 2 },
      { question: 'X', answer: 'no position' },
      { question: 'A', answer: 'first', position: '0' },
      { question: 'B', answer: 'second', position: 1 },
    ];
    expect(buildBookingNotes({ questions })).toBe('A\nfirst\n\nB\nsecond\n\nC\nthird\n\nX\nno position');
  });

  it('When answers are numbers, booleans, lists or multi-line, then they are written as text', () => {
    const questions: JsonValue = [
      7,
      'not an item',
      { question: 'How many dependents?', answer: 3 },
      { question: 'Veteran?', answer: true },
      { question: 'Which products interest you?', answer: ['Term', '', 'IUL'] },
      { question: 'Tell us more', answer: 'Line one\r\nLine two' },
      { answer: 'an answer without its question' },
    ];
    expect(buildBookingNotes({ questions })).toBe(
      [
        'How many dependents?\n3',
        'Veteran?\nYes',
        'Which products interest you?\nTerm, IUL',
        'Tell us more\nLine one\nLine two',
        'Question 7\nan answer without its question',
      ].join('\n\n'),
    );
  });

  it('When a phone question is answered, then neither question nor answer is in the notes', () => {
    const questions = [
      { question: 'Best number to reach you?', answer: '(404) 555-0172' },
      { question: 'Cell phone', answer: 'not sure' },
    ];
    expect(buildBookingNotes({ questions })).toBe('');
  });
});
