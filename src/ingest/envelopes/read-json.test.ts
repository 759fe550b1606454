import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { bracketDepth, duplicateKeys } from './read-json.ts';

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

describe('duplicateKeys', () => {
  it('When any JSON value is written out by JSON.stringify, then no key is reported: none can repeat', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        expect(duplicateKeys(JSON.stringify(value))).toEqual([]);
      }),
      { numRuns: 300 },
    );
  });

  it('When a key is written twice into one object anywhere, then it is reported', () => {
    fc.assert(
      fc.property(
        fc.dictionary(fc.string(), fc.jsonValue()),
        fc.string(),
        fc.jsonValue(),
        (obj, key, value) => {
          const inner = JSON.stringify({ ...obj, [key]: value }).slice(1, -1);
          const twice = `{${inner}${inner ? ',' : ''}${JSON.stringify(key)}:${JSON.stringify(value)}}`;
          const text = JSON.stringify({ wrapper: [1, { deep: 'PLACEHOLDER' }] }).replace(
            '"PLACEHOLDER"',
            () => twice, // a function: a key such as "$&" is no replacement pattern
          );
          expect(duplicateKeys(text)).toContain(key);
        },
      ),
      { numRuns: 300 },
    );
  });
});
