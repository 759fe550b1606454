import { describe, expect, it } from 'vitest';
import { normalizeTags } from './tags.ts';
import type { JsonValue } from '../../json.ts';

describe('normalizeTags', () => {
  it.each<[JsonValue, string[]]>([
    [
      ['vip', 'hot'],
      ['vip', 'hot'],
    ],
    [
      [' vip ', '', 'hot', '  '],
      ['vip', 'hot'],
    ],
    [
      ['VIP', 'vip', 'Hot', 'hot'],
      ['VIP', 'Hot'],
    ],
    [
      ['a,b', 'c'],
      ['a,b', 'c'],
    ],
    [
      ['2024', 7, null],
      ['2024', '7'],
    ],
    ['vip, hot ,,VIP', ['vip', 'hot']],
    ['single', ['single']],
    [5, ['5']],
    [',', []],
    [[], []],
  ])('When the tags are %j, then they become %j', (input, expected) => {
    expect(normalizeTags(input)).toEqual({ ok: true, value: expected });
  });

  it.each<JsonValue>([true, { a: 'b' }, ['ok', { a: 'b' }], ['ok', ['nested']], ['ok', false]])(
    'When the tags are %j, then they are INVALID_TAGS',
    (input) => {
      expect(normalizeTags(input)).toMatchObject({ ok: false, code: 'INVALID_TAGS' });
    },
  );
});
