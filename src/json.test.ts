import { describe, expect, it } from 'vitest';
import { text } from './json.ts';

describe('text', () => {
  it.each([
    ['Maria', 'Maria'],
    [' spaced ', ' spaced '],
    ['', null],
    [null, null],
    [undefined, null],
    [42, null],
    [true, null],
    [{ a: 'b' }, null],
  ])('When the value is %j, then its text is %j', (value, shown) => {
    expect(text(value)).toBe(shown);
  });
});
