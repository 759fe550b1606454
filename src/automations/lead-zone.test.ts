import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { resolveSchedule } from '../appointments/schedule.ts';
import type { LeadFields } from '../ingest/types.ts';
import { leadZone } from './lead-zone.ts';

/** Each field absent, usable or not: the places and times a stored lead may hold. */
const maybe = (values: string[]) => fc.option(fc.constantFrom(...values), { nil: undefined });
const storedLead = fc.record({
  zipcode: maybe(['75201', '79901', '46320', '97914', '99501', '96813', '00000', 'abcde', '7520']),
  state: maybe(['TX', 'FL', 'IN', 'AZ', 'HI', 'AK', 'Texas', 'ZZ', '']),
  phone: maybe(['+12145550123', '+19155550123', '+18085550123', '+442071234567', '555']),
  appointment_timezone: maybe(['America/Chicago', 'america/denver', 'US/Eastern', 'EST', 'Mars/Base', '']),
  scheduled_at: maybe(['2027-01-15T19:30:00Z', '2027-03-14T02:30:00', 'tomorrow', '']),
  appointment_date: maybe(['01/15/2027', '2027-03-14', '2027-11-07', '13/45/2027']),
  appointment_time: maybe(['2:30 PM', '02:30', '1:30 AM', '25:00']),
});

describe("a lead's zone for the automations", () => {
  it('is the zone resolveSchedule infers, whatever the lead books', () => {
    fc.assert(
      fc.property(
        storedLead,
        fc.constantFrom('America/New_York', 'America/Phoenix', 'UTC'),
        (lead, agent) => {
          const fields = Object.fromEntries(
            Object.entries(lead).filter(([, v]) => v !== undefined),
          ) as LeadFields;
          expect(leadZone(fields, agent)).toBe(resolveSchedule(fields, agent).timezone ?? agent);
        },
      ),
      { numRuns: 2_000 },
    );
  });

  it('reads only the lead’s plain values', () => {
    const lead = { zipcode: '79901', state: 'TX', tags: ['a'], custom_fields: { zipcode: '75201' }, age: 61 };
    expect(leadZone(lead, 'America/New_York')).toBe('America/Denver');
  });
});
