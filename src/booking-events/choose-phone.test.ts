import { describe, expect, it } from 'vitest';
import type { JsonValue } from '../json.ts';
import { readQuestionnaire } from './questionnaire.ts';
import { choosePhone, inviteeToSubmission } from './to-submission.ts';

const qa = (...pairs: Array<[string, JsonValue]>) =>
  readQuestionnaire(pairs.map(([question, answer]) => ({ question, answer })));

describe('choosePhone', () => {
  it('When text_reminder_number is a phone number, then it wins over the questionnaire', () => {
    expect(choosePhone('+1 312-555-0148', qa(['Phone', '312-555-0148']))).toEqual({
      phone: '+1 312-555-0148',
      unusedReminder: null,
      otherAnswers: null,
    });
  });

  it('When there is no text_reminder_number, then the first phone-question answer that is a number is used', () => {
    const questions = qa(
      ['Cell phone', 'ask my wife'],
      ['Anything else?', '213-373-4253'],
      ['Mobile', '(404) 555-0172'],
    );
    expect(choosePhone(null, questions)).toEqual({
      phone: '(404) 555-0172',
      unusedReminder: null,
      otherAnswers: 'ask my wife',
    });
  });

  it('When no phone question holds a number, then the first answer anywhere that is one is used', () => {
    const questions = qa(
      ['How old are you?', 67],
      ['Where can we call you?', '213.373.4253'],
      ['Other', '2133734254'],
    );
    expect(choosePhone(null, questions).phone).toBe('213.373.4253');
  });

  it('When the reminder number is refused but the questionnaire has one, then that is used and the reminder kept aside', () => {
    expect(choosePhone('+44 20 7946 0958', qa(['Best number to reach you', '404 555 0172']))).toEqual({
      phone: '404 555 0172',
      unusedReminder: '+44 20 7946 0958',
      otherAnswers: null,
    });
  });

  it('When nothing is a phone number, then the reminder is passed as sent for the mapper to flag', () => {
    expect(choosePhone('+44 20 7946 0958', qa(['Notes', 'none'])).phone).toBe('+44 20 7946 0958');
    expect(choosePhone(null, qa(['Notes', 'none'])).phone).toBeNull();
  });

  it.each<[string, string | null, string | null, string | null]>([
    ['a reminder number and a call number', '+1 312-555-0148', '702-555-0163', '+1 312-555-0148'],
    ['only a call number', null, '702-555-0163', '702-555-0163'],
    ['a refused reminder number and a call number', '+44 20 7946 0958', '702-555-0163', '702-555-0163'],
    ['a call number that is no phone number', null, 'call my office', '404 555 0172'],
  ])(
    'When there is %s (and a phone question), then the phone is as the table says',
    (_label, reminder, call, phone) => {
      expect(choosePhone(reminder, qa(['Best number to reach you', '404 555 0172']), call).phone).toBe(phone);
    },
  );

  it('When the call number is the phone, then the phone-question answers that differ are kept aside', () => {
    expect(
      choosePhone(null, qa(['Phone', '404 555 0172'], ['Cell', '702-555-0163']), '(702) 555-0163'),
    ).toEqual({
      phone: '(702) 555-0163',
      unusedReminder: null,
      otherAnswers: '404 555 0172',
    });
  });

  it('When phone questions hold other numbers, then they are kept once each, the lead phone left out', () => {
    const questions = qa(
      ['Phone', '(312) 555-0148'],
      ['Work phone', '312-555-0111'],
      ['Home phone', '312.555.0111'],
      ['Alt phone', 'evenings only'],
    );
    expect(choosePhone('+1 312-555-0148', questions).otherAnswers).toBe('312-555-0111; evenings only');
  });
});

describe('inviteeToSubmission phone', () => {
  it('When a second phone answer differs from the phone, then it is in custom_fields.questionnaire_phone', () => {
    const submission = inviteeToSubmission({
      name: 'Ada Park',
      text_reminder_number: '+44 20 7946 0958',
      questions_and_answers: [
        { question: 'Best number to reach you', answer: '404-555-0172', position: 0 },
        { question: 'Spouse cell', answer: '404-555-0199', position: 1 },
        { question: 'Smoker?', answer: 'No', position: 2 },
      ],
    });
    expect(submission).toEqual({
      name: 'Ada Park',
      phone: '404-555-0172',
      notes: 'Smoker?\nNo',
      custom_fields: { text_reminder_number: '+44 20 7946 0958', questionnaire_phone: '404-555-0199' },
    });
  });
});
