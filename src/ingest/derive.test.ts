import { describe, expect, it } from 'vitest';
import { completeName, deriveAge } from './derive.ts';
import type { FieldWarning, LeadFields } from './types.ts';

const NOW = new Date('2026-03-01T12:00:00Z');

describe('completeName', () => {
  it.each<[LeadFields, LeadFields]>([
    [{ name: 'Ada Lovelace' }, { name: 'Ada Lovelace', first_name: 'Ada', last_name: 'Lovelace' }],
    [
      { name: 'Mary Jane Watson' },
      { name: 'Mary Jane Watson', first_name: 'Mary', last_name: 'Jane Watson' },
    ],
    [{ name: 'Cher' }, { name: 'Cher', first_name: 'Cher' }],
    [
      { first_name: 'Ada', last_name: 'Lovelace' },
      { first_name: 'Ada', last_name: 'Lovelace', name: 'Ada Lovelace' },
    ],
    [{ first_name: 'Ada' }, { first_name: 'Ada', name: 'Ada' }],
    [
      { name: 'A B', first_name: 'X' },
      { name: 'A B', first_name: 'X' },
    ],
    [{ last_name: 'Lovelace' }, { last_name: 'Lovelace' }],
  ])('When the lead has %j, then it ends with %j', (lead, expected) => {
    completeName(lead);
    expect(lead).toEqual(expected);
  });
});

describe('deriveAge', () => {
  it('When age is missing and the date of birth is valid, then the age is worked out', () => {
    const lead: LeadFields = { date_of_birth: '1980-05-04' };
    deriveAge(lead, NOW, []);
    expect(lead.age).toBe(45);
  });

  it('When an age was sent, then it is kept even if the date of birth disagrees', () => {
    const lead: LeadFields = { age: 50, date_of_birth: '1980-05-04' };
    deriveAge(lead, NOW, []);
    expect(lead.age).toBe(50);
  });

  it('When the worked-out age is under 18, then no age is set and a warning says why', () => {
    const lead: LeadFields = { date_of_birth: '2015-01-01' };
    const warnings: FieldWarning[] = [];
    deriveAge(lead, NOW, warnings);
    expect(lead.age).toBeUndefined();
    expect(warnings).toEqual([expect.objectContaining({ field: 'age', code: 'INVALID_AGE' })]);
  });
});
