import { describe, expect, it } from 'vitest';
import { normalizeBoolean } from './boolean.ts';
import type { JsonValue } from '../../json.ts';

describe('normalizeBoolean', () => {
  it.each<[JsonValue, boolean]>([
    [true, true],
    [false, false],
    [1, true],
    [0, false],
    ['true', true],
    ['FALSE', false],
    ['yes', true],
    ['No', false],
    ['Y', true],
    ['n', false],
    ['1', true],
    ['0', false],
    [' on ', true],
    ['off', false],
  ])('When the flag is %j, then it becomes %s', (input, expected) => {
    expect(normalizeBoolean(input)).toEqual({ ok: true, value: expected });
  });

  it.each<JsonValue>(['maybe', 'yess', '2', 2, -1, 0.5, 'n/a', ['yes'], { yes: true }])(
    'When the flag is %j, then it is INVALID_BOOLEAN',
    (input) => {
      expect(normalizeBoolean(input)).toMatchObject({ ok: false, code: 'INVALID_BOOLEAN' });
    },
  );
});
