import { describe, expect, it } from 'vitest';
import { fieldText, phone } from './format.ts';

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
