import { describe, expect, it } from 'vitest';
import { normalizeState } from './state.ts';
import { US_STATES } from '../tables/us-states.ts';
import type { JsonValue } from '../../json.ts';

describe('normalizeState', () => {
  it.each<[string, string]>([
    ['TX', 'TX'],
    ['tx', 'TX'],
    [' Tx ', 'TX'],
    ['Texas', 'TX'],
    ['TEXAS', 'TX'],
    ['new york', 'NY'],
    ['New-York', 'NY'],
    ['N.Y.', 'NY'],
    ['North  Carolina', 'NC'],
    ['DC', 'DC'],
    ['D.C.', 'DC'],
    ['District of Columbia', 'DC'],
    ['Washington, D.C.', 'DC'],
    ['Washington', 'WA'],
    ['PR', 'PR'],
    ['Puerto Rico', 'PR'],
    ['gu', 'GU'],
    ['Guam', 'GU'],
    ['VI', 'VI'],
    ['U.S. Virgin Islands', 'VI'],
    ['Virgin Islands', 'VI'],
    ['AS', 'AS'],
    ['American Samoa', 'AS'],
    ['MP', 'MP'],
    ['Northern Mariana Islands', 'MP'],
  ])('When the state is %j, then it becomes %s', (input, expected) => {
    expect(normalizeState(input)).toEqual({ ok: true, value: expected });
  });

  it('When any code or name of the table is sent, then it maps to its code', () => {
    for (const [code, name] of Object.entries(US_STATES)) {
      expect(normalizeState(code)).toEqual({ ok: true, value: code });
      expect(normalizeState(name.toUpperCase())).toEqual({ ok: true, value: code });
    }
  });

  it.each<JsonValue>(['XX', 'Texass', 'Ontario', 'AE', 'T', 'US', 48, ['TX'], { code: 'TX' }])(
    'When the state is %j, then it is INVALID_STATE',
    (input) => {
      expect(normalizeState(input)).toMatchObject({ ok: false, code: 'INVALID_STATE' });
    },
  );
});
