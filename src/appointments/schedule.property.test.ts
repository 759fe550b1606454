import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { LeadFields } from '../ingest/types.ts';
import { resolveSchedule } from './schedule.ts';

const FIELDS = [
  'scheduled_at',
  'appointment_date',
  'appointment_time',
  'appointment_timezone',
  'schedule_type',
  'state',
  'zipcode',
  'phone',
] as const;

// Arbitrary text, plus text shaped like the real thing so the parsers' deeper paths are reached.
const fieldValue = fc.oneof(
  fc.string(),
  fc.string({ unit: 'binary' }),
  fc.stringMatching(/^\d{1,4}[-/:]\d{1,2}[-/:]\d{1,4}([T ]\d{1,2}:\d{2}(:\d{2})?)?(Z|[+-]\d{2}:?\d{2})?$/),
  fc.stringMatching(/^\d{1,2}(:\d{1,2})?\s?[apAP]\.?[mM]\.?$/),
  fc.constantFrom('America/Chicago', 'EST', 'US/Eastern', 'Etc/GMT+5', 'TX', 'ID', '83814', '2086641234'),
);
const lead = fc.record(Object.fromEntries(FIELDS.map((f) => [f, fieldValue])), { requiredKeys: [] });

describe('resolveSchedule properties', () => {
  it('never throws, whatever strings the fields hold', () => {
    fc.assert(
      fc.property(lead, fc.oneof(fc.string(), fc.constant('America/New_York')), (fields, agent) => {
        resolveSchedule(fields as LeadFields, agent);
      }),
      { numRuns: 2000 },
    );
  });

  it('never loses an appointment value: unused ones are in rejected', () => {
    fc.assert(
      fc.property(lead, (fields) => {
        const r = resolveSchedule(fields as LeadFields, 'America/New_York');
        const sent = (f: string): boolean => typeof fields[f] === 'string' && fields[f].trim() !== '';
        if (r.appointment === null) {
          for (const f of ['scheduled_at', 'appointment_date', 'appointment_time']) {
            if (sent(f)) expect(r.rejected).toHaveProperty(f);
          }
        }
        for (const f of Object.keys(r.rejected)) expect(FIELDS).toContain(f);
        if (Object.keys(r.rejected).length > 0) expect(r.warnings.length).toBeGreaterThan(0);
      }),
      { numRuns: 1000 },
    );
  });

  it('always books a valid UTC instant in a zone the runtime knows', () => {
    fc.assert(
      fc.property(lead, (fields) => {
        const r = resolveSchedule(fields as LeadFields, 'America/New_York');
        if (r.appointment === null) return;
        expect(new Date(r.appointment.scheduled_at).toISOString()).toBe(r.appointment.scheduled_at);
        expect(
          () => new Intl.DateTimeFormat('en-US', { timeZone: r.appointment?.appointment_timezone }),
        ).not.toThrow();
      }),
      { numRuns: 1000 },
    );
  });
});
