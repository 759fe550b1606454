import { describe, expect, it } from 'vitest';
import { dollars, fieldText, phone, wholeDollars } from './format.ts';

describe('phone', () => {
  it.each([
    ['3055550147', '(305) 555-0147'],
    ['13055550147', '(305) 555-0147'],
    ['+442071234567', '+442071234567'],
    ['555-0147', '555-0147'],
    [null, '—'],
    ['', '—'],
  ])('When the stored phone is %j, then it reads %j', (stored, shown) => {
    expect(phone(stored)).toBe(shown);
  });

  it('When a field is the phone, then fieldText formats it; any other field is shown as stored', () => {
    expect(fieldText('phone', '3055550147')).toBe('(305) 555-0147');
    expect(fieldText('zipcode', '3055550147')).toBe('3055550147');
    expect(fieldText('sms_consent', true)).toBe('yes');
  });
});

describe('money', () => {
  it.each([
    [0, '$0.00', '$0'],
    [1250, '$12.50', '$13'],
    [120000, '$1,200.00', '$1,200'],
    [145050, '$1,450.50', '$1,451'],
    [-4000, '-$40.00', '-$40'],
  ])('When the amount is %i cents, then it reads %j, or %j on a chart', (cents, exact, whole) => {
    expect(dollars(cents)).toBe(exact);
    expect(wholeDollars(cents)).toBe(whole);
  });
});
