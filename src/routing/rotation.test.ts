import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { rotate, type RotationSeat } from './rotation.ts';

/** Runs `n` leads through the rotation with fixed seats; returns who got each lead. */
function run(weights: readonly number[], n: number, credits?: number[]): string[] {
  let seats: RotationSeat[] = weights.map((weight, i) => ({
    agent_id: `p${i}`,
    weight,
    credit: credits?.[i] ?? 0,
  }));
  const order: string[] = [];
  for (let k = 0; k < n; k++) {
    const { agent_id, credits: next } = rotate(seats);
    order.push(agent_id);
    seats = seats.map((s) => ({ ...s, credit: next.get(s.agent_id) ?? Number.NaN }));
  }
  return order;
}

const counts = (order: readonly string[]) =>
  order.reduce((m, a) => m.set(a, (m.get(a) ?? 0) + 1), new Map<string, number>());

describe('rotate: weighted fair rotation', () => {
  it.each<[string, number[], number, Record<string, number>]>([
    ['three equal producers, 30 leads', [1, 1, 1], 30, { p0: 10, p1: 10, p2: 10 }],
    ['weights 2:1, 30 leads', [2, 1], 30, { p0: 20, p1: 10 }],
    ['weights 3:1:1, 10 leads', [3, 1, 1], 10, { p0: 6, p1: 2, p2: 2 }],
    ['one producer takes every lead', [4], 5, { p0: 5 }],
  ])('When %s, then each gets its share', (_, weights, n, expected) => {
    expect(Object.fromEntries(counts(run(weights, n)))).toEqual(expected);
  });

  it('When producers have equal weights, then they take turns in seat order', () => {
    expect(run([1, 1, 1], 6)).toEqual(['p0', 'p1', 'p2', 'p0', 'p1', 'p2']);
  });

  it('When weights are 2:1, then two go to the heavier and one to the lighter, again and again', () => {
    expect(run([2, 1], 6)).toEqual(['p0', 'p0', 'p1', 'p0', 'p0', 'p1']);
  });

  it('When the weights are such that "most credit wins" lags a producer by more than a lead, then this one does not', () => {
    // 9,9,9,1,9,1,1: the web servers' smooth weighted round robin leaves a producer 1.07 leads behind.
    const weights = [9, 9, 9, 1, 9, 1, 1];
    expect(worstLag(weights, run(weights, 200))).toBeLessThan(1);
  });

  it('When any weights run for any number of leads, then every prefix keeps each count within one lead of its share', () => {
    fc.assert(
      fc.property(
        fc.array(fc.integer({ min: 1, max: 12 }), { minLength: 1, maxLength: 8 }),
        fc.integer({ min: 1, max: 150 }),
        (weights, n) => worstLag(weights, run(weights, n)) < 1,
      ),
      { numRuns: 300 },
    );
  });

  it('When a producer joins with no credit, then the others keep their turns and the newcomer gets no burst', () => {
    // Two producers have served 100 leads between them; a third joins: the next 30 split evenly.
    const before = run([1, 1], 100);
    expect(counts(before).get('p0')).toBe(50);
    expect(Object.fromEntries(counts(run([1, 1, 1], 30, [0, 0, 0])))).toEqual({ p0: 10, p1: 10, p2: 10 });
  });

  it('When no seat is given, then it refuses rather than choosing nobody', () => {
    expect(() => rotate([])).toThrow(/needs a producer/);
  });
});

/** The largest |count − share| over every prefix of the run, in leads. */
function worstLag(weights: readonly number[], order: readonly string[]): number {
  const total = weights.reduce((a, b) => a + b, 0);
  const given = weights.map(() => 0);
  let worst = 0;
  order.forEach((agent, k) => {
    const i = Number(agent.slice(1));
    given[i] = (given[i] ?? 0) + 1;
    weights.forEach((w, i) => {
      worst = Math.max(worst, Math.abs((given[i] ?? 0) - ((k + 1) * w) / total));
    });
  });
  return worst;
}
