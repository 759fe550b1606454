import { describe, expect, it } from 'vitest';
import { newId } from './ids.ts';

const V7 = /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
/** The milliseconds an id says it was made at: its first 48 bits. */
const madeAt = (id: string) => parseInt(id.slice(0, 8) + id.slice(9, 13), 16);

describe('row ids', () => {
  it('When an id is made, then it is a version 7 UUID whose first 48 bits are the time in milliseconds', () => {
    const before = Date.now();
    const id = newId();
    const after = Date.now();
    expect(id).toMatch(V7);
    expect(madeAt(id)).toBeGreaterThanOrEqual(before);
    expect(madeAt(id)).toBeLessThanOrEqual(after);
    expect(madeAt(newId(0))).toBe(0);
    expect(madeAt(newId(2 ** 48 - 1))).toBe(2 ** 48 - 1);
    expect(newId(Date.UTC(2026, 10, 28))).toMatch(/^01a21f73-9c00-7/);
  });

  it('When ids are made in later milliseconds, then they sort after the earlier ones; within one, they differ', () => {
    const times = [1, 2, 255, 256, 4096, Date.UTC(2026, 0, 1), Date.UTC(2026, 0, 1) + 1, 2 ** 47];
    const ids = times.map((t) => newId(t));
    expect([...ids].sort()).toEqual(ids);
    const same = Array.from({ length: 10_000 }, () => newId(Date.UTC(2026, 0, 1)));
    expect(new Set(same).size).toBe(same.length);
    expect(same.every((id) => V7.test(id) && madeAt(id) === Date.UTC(2026, 0, 1))).toBe(true);
  });
});
