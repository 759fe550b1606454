import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { EMPTY_OPEN_ANSWERS, QUESTION_CLASSES, type QuestionClass } from './question-classes.ts';
import { classifyQuestion, isEmptyOpenAnswer } from './questionnaire.ts';

describe('classifyQuestion', () => {
  it.each<[string, QuestionClass]>([
    ['Phone number', 'phone'],
    ['Best phone number to reach you', 'phone'],
    ['Cell', 'phone'],
    ['Mobile #', 'phone'],
    ['What is the best number to reach you?', 'phone'],
    ['Number to text you at', 'phone'],
    ['Do you currently have life insurance?', 'underwriting'],
    ['Any existing coverage through work?', 'underwriting'],
    ['Do you smoke?', 'underwriting'],
    ['Tobacco or nicotine use in the last 12 months?', 'underwriting'],
    ['Current medications', 'underwriting'],
    ['Any prescriptions?', 'underwriting'],
    ['Have you been hospitalized in the last 2 years?', 'underwriting'],
    ['Any surgeries planned?', 'underwriting'],
    ['Are you diabetic?', 'underwriting'],
    ['History of cancer, heart attack or stroke?', 'underwriting'],
    ['Do you have COPD or use oxygen?', 'underwriting'],
    ['Any DUI or felony convictions?', 'underwriting'],
    ['Height and weight', 'underwriting'],
    ['How much do you weigh?', 'underwriting'],
    ['Who is your beneficiary?', 'underwriting'],
    ['May we send you text message reminders?', 'consent'],
    ['Do you consent to SMS updates?', 'consent'],
    ['Can we text you?', 'consent'],
    ['Is there anything else we should know?', 'open'],
    ['What prompted you to book today?', 'open'],
    ['Best time to call', 'open'],
    ['Cellulose fiber intake', 'open'],
    ['Are you a police officer?', 'open'],
  ])('When the question is %j, then it is %s', (question, expected) => {
    expect(classifyQuestion(question)).toBe(expected);
  });
});

describe('isEmptyOpenAnswer', () => {
  it.each(['', '   ', 'No', 'no.', 'NONE!', 'N/A', 'n/a', 'NA', '-', 'Nothing.', ' none? '])(
    'When an open prompt is answered %j, then the answer is dropped',
    (answer) => expect(isEmptyOpenAnswer(answer)).toBe(true),
  );

  it.each(['No thanks, just the quote', 'Nope', 'Not yet', 'n/a for now', 'Nothing serious', '--'])(
    'When an open prompt is answered %j, then the answer is kept',
    (answer) => expect(isEmptyOpenAnswer(answer)).toBe(false),
  );
});

// docs/booking-events.md shows the classification to agents; this keeps it equal to the data.
describe('docs/booking-events.md question classification table', () => {
  const doc = readFileSync(new URL('../../docs/booking-events.md', import.meta.url), 'utf8');
  const start = doc.indexOf('<!-- question-classes:start -->');
  const end = doc.indexOf('<!-- question-classes:end -->');
  /** `| \`class\` | \`kw\`, \`kw\` | … |` → { class: [kw, kw] }, from the data column of each row. */
  const rows = Object.fromEntries(
    doc
      .slice(start, end)
      .split('\n')
      .filter((line) => /^\|\s*`/.test(line))
      .map((line) => {
        const cells = line.split('|').map((cell) => cell.trim());
        const codes = (cell: string | undefined) => [...(cell ?? '').matchAll(/`([^`]+)`/g)].map((m) => m[1]);
        return [codes(cells[1])[0], { keywords: codes(cells[2]), answers: codes(cells[3]) }];
      }),
  );

  it('When the keyword data changes, then the documented keywords match it', () => {
    expect(start).toBeGreaterThanOrEqual(0);
    for (const [name, keywords] of Object.entries(QUESTION_CLASSES)) {
      expect(rows[name]?.keywords, name).toEqual(keywords);
    }
  });

  it('When the empty-answer list changes, then the documented open-prompt row matches it', () => {
    expect(rows.open?.answers).toEqual(EMPTY_OPEN_ANSWERS.filter((answer) => answer !== ''));
  });
});
