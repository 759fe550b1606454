import { describe, expect, it } from 'vitest';
import { normalizerFor } from './index.ts';
import { LEAD_FIELDS } from '../fields.ts';
import type { LeadFieldName } from '../fields.ts';

const context = { now: new Date('2026-03-01T00:00:00Z') };

describe('normalizerFor', () => {
  it('When a field is an integer, boolean or list in LEAD_FIELDS, then its normalizer gives that type', () => {
    for (const field of Object.keys(LEAD_FIELDS) as LeadFieldName[]) {
      const kind = LEAD_FIELDS[field];
      const sample = kind === 'integer' ? 40 : kind === 'boolean' ? true : kind === 'string[]' ? ['a'] : 'x';
      const result = normalizerFor(field)(sample, context);
      if (!result.ok) {
        // A string field with a format ("x" is no phone) is checked in its own test; no other may refuse.
        expect(kind, field).toBe('string');
        continue;
      }
      if (kind === 'integer') expect(typeof result.value, field).toBe('number');
      else if (kind === 'boolean') expect(typeof result.value, field).toBe('boolean');
      else if (kind === 'string[]') expect(Array.isArray(result.value), field).toBe(true);
      else expect(typeof result.value, field).toBe('string');
    }
  });

  it.each<[LeadFieldName, string]>([
    ['scheduled_at', ' 2027-01-15 10:00 '],
    ['appointment_date', '01/15/2027'],
    ['appointment_time', '2:30 PM'],
    ['appointment_timezone', 'America/Chicago'],
    ['status', 'Scheduled'],
  ])('When %s is sent, then it passes through as trimmed text', (field, value) => {
    expect(normalizerFor(field)(value, context)).toEqual({ ok: true, value: value.trim() });
  });
});
