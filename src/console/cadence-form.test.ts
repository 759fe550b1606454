import { describe, expect, it } from 'vitest';
import { delayText, postedRows, readSteps, rowsOf } from './cadence-form.ts';
import { stepReason } from './views/lead-cadence.ts';

describe('the cadence form’s rows', () => {
  it('When a cadence is shown for editing, then each delay is in the largest unit that holds it whole, with blank rows after', () => {
    const rows = rowsOf([
      { after_minutes: 0, action: 'call' },
      { after_minutes: 90, action: 'text', body: 'Hi' },
      { after_minutes: 120, action: 'call' },
      { after_minutes: 4320, action: 'call' },
    ]);
    expect(rows.slice(0, 4)).toEqual([
      { after: '0', unit: 'minutes', action: 'call', body: '' },
      { after: '90', unit: 'minutes', action: 'text', body: 'Hi' },
      { after: '2', unit: 'hours', action: 'call', body: '' },
      { after: '3', unit: 'days', action: 'call', body: '' },
    ]);
    expect(rows).toHaveLength(8);
    expect(readSteps(rows)).toEqual({
      ok: true,
      steps: [
        { after_minutes: 0, action: 'call' },
        { after_minutes: 90, action: 'text', body: 'Hi' },
        { after_minutes: 120, action: 'call' },
        { after_minutes: 4320, action: 'call' },
      ],
    });
  });

  it('When rows are posted, then as many come back as the form showed, never fewer than the last filled one, at most 30', () => {
    expect(postedRows({ rows: '8' })).toHaveLength(8);
    expect(postedRows({ rows: '8' }, 4)).toHaveLength(12);
    expect(postedRows({ rows: '2', after_5: '1' })).toHaveLength(5);
    expect(postedRows({ rows: '1000' }, 4)).toHaveLength(30);
    expect(postedRows({ rows: 'many' })).toHaveLength(8);
  });

  it.each([
    [0, 'at once'],
    [1, 'after 1 minute'],
    [90, 'after 90 minutes'],
    [60, 'after 1 hour'],
    [1440, 'after 1 day'],
    [4320, 'after 3 days'],
  ])('When a step waits %i minutes, then it reads “%s”', (minutes, words) => {
    expect(delayText(minutes)).toBe(words);
  });

  it.each([
    [null, ''],
    ['agent', 'stopped by you'],
    ['cadence stopped: replied', 'cadence stopped: the prospect replied'],
    ['called: no_answer', 'called: No answer'],
    ['outside calling hours', 'outside calling hours'],
  ])('When a step’s reason is %j, then the lead page says “%s”', (reason, words) => {
    expect(stepReason(reason)).toBe(words);
  });
});
