import { describe, expect, it } from 'vitest';
import type { LeadFields } from '../ingest/types.ts';
import { LICENSE_STATES, prospectState } from './prospect-state.ts';

describe('prospectState: the state a producer must be licensed in', () => {
  it.each<[string, LeadFields, { state: string; from: string } | null]>([
    [
      'the lead gives its state',
      { state: 'TX', zipcode: '44101', phone: '2125550100' },
      { state: 'TX', from: 'state' },
    ],
    ['only a ZIP code', { zipcode: '44101' }, { state: 'OH', from: 'zipcode' }],
    ['a ZIP+4 only', { zipcode: '73301-0001' }, { state: 'TX', from: 'zipcode' }],
    [
      'a ZIP of the White House (an exception to its prefix)',
      { zipcode: '20500' },
      { state: 'DC', from: 'zipcode' },
    ],
    ['only a phone', { phone: '2125550100' }, { state: 'NY', from: 'phone' }],
    ['a phone with its country code', { phone: '+1 (512) 555-0100' }, { state: 'TX', from: 'phone' }],
    ['a toll-free phone only', { phone: '8005550100' }, null],
    [
      'a ZIP nobody uses and a phone',
      { zipcode: '00001', phone: '3055550100' },
      { state: 'FL', from: 'phone' },
    ],
    ['a Puerto Rico ZIP', { zipcode: '00601' }, { state: 'PR', from: 'zipcode' }],
    ['nothing to go by', { name: 'Ann' }, null],
  ])('When %s, then the state is found where it should be', (_, fields, expected) => {
    expect(prospectState(fields)).toEqual(expected);
  });

  it('When producers are licensed, then the 50 states and DC are the states they can be licensed in', () => {
    expect(LICENSE_STATES).toHaveLength(51);
    expect(LICENSE_STATES).toContain('DC');
    expect(LICENSE_STATES).not.toContain('PR');
  });
});
