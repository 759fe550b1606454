import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createRecent } from './recent.ts';

/** The contract, the slow way: the last `max` distinct values added, in order. */
function model(max: number) {
  let kept: string[] = [];
  return {
    has: (v: string) => kept.includes(v),
    add(v: string) {
      if (kept.includes(v)) return;
      kept.push(v);
      if (kept.length > max) kept = kept.slice(kept.length - max);
    },
  };
}

describe('recent', () => {
  it('remembers the last max values added and forgets the oldest past the bound', () => {
    const recent = createRecent(3);
    for (const v of ['a', 'b', 'c', 'a', 'd']) recent.add(v);
    expect(['a', 'b', 'c', 'd'].map((v) => recent.has(v))).toEqual([false, true, true, true]);
  });

  it('answers as the model does for any adds', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 6 }),
        fc.array(fc.constantFrom('a', 'b', 'c', 'd', 'e', 'f', 'g', 'h'), { maxLength: 60 }),
        (max, values) => {
          const recent = createRecent(max);
          const expected = model(max);
          for (const v of values) {
            recent.add(v);
            expected.add(v);
            for (const probe of 'abcdefgh') expect(recent.has(probe)).toBe(expected.has(probe));
          }
        },
      ),
    );
  });

  it('forgets a deleted value, and never holds more than max', () => {
    const recent = createRecent(2);
    recent.add('a');
    recent.delete('a');
    expect(recent.has('a')).toBe(false);
    for (const v of ['a', 'b', 'c']) recent.add(v);
    expect(['a', 'b', 'c'].map((v) => recent.has(v))).toEqual([false, true, true]);
  });
});
