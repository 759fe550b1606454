import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { bracketDepth } from './read-json.ts';

describe('bracketDepth', () => {
  it.each<[string, number]>([
    ['{}', 1],
    ['{"a":[1,{"b":[]}]}', 4],
    ['{"a":"[[[[{{{{"}', 1],
    ['{"a":"\\"[[["}', 1],
    ['{"a":"\\\\","b":[[]]}', 3],
    ['', 0],
  ])('When the text is %s, then the depth is %i', (text, depth) => {
    expect(bracketDepth(text)).toBe(depth);
  });

  it('When any JSON value is written out, then its counted depth is its real depth', () => {
    const depthOf = (v: unknown): number =>
      v !== null && typeof v === 'object' ? 1 + Math.max(0, ...Object.values(v).map(depthOf)) : 0;
    fc.assert(
      fc.property(fc.jsonValue({ maxDepth: 6 }), (value) => {
        expect(bracketDepth(JSON.stringify(value))).toBe(depthOf(value));
      }),
      { numRuns: 500 },
    );
  });
});
