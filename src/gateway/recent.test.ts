import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { createRecent, hash53 } from './recent.ts';

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

describe('recent, in memory', () => {
  it('keeps its values as numbers, not strings: 20,000 keys of 150 characters in under 2.5 MB of heap', () => {
    setFlagsFromString('--expose-gc');
    const gc = runInNewContext('gc') as () => void;
    const agent = '01a231c3-4a1c-7ad3-99bb-0907fd1fcac9';
    const key = (i: number) => `${agent} email ${'x'.repeat(80)}.${1_000_000 + i}@example.com`;
    gc();
    const before = process.memoryUsage().heapUsed;
    const recent = createRecent(20_000);
    for (let i = 0; i < 40_000; i++) recent.add(key(i));
    gc();
    const held = process.memoryUsage().heapUsed - before;
    // The hashes take the same whatever the keys' length; the strings would take several times the
    // bound (docs/decisions/0030).
    expect(held).toBeLessThan(2.5 * 1024 * 1024);
    expect(recent.has(key(39_999)) && !recent.has(key(19_999))).toBe(true);
  });

  it('gives 200,000 distinct keys 200,000 distinct hashes', () => {
    const hashes = new Set<number>();
    for (let i = 0; i < 200_000; i++) hashes.add(hash53(`agent phone +1214${String(i).padStart(7, '0')}`));
    expect(hashes.size).toBe(200_000);
    expect([...hashes].every((h) => Number.isSafeInteger(h) && h >= 0)).toBe(true);
  });
});
