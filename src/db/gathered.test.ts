import { describe, expect, it } from 'vitest';
import { gathered } from './gathered.ts';

/** A `run` that records each round trip's items and answers when `release` is called. */
function recorder() {
  const trips: number[][] = [];
  const releases: Array<() => void> = [];
  const run = (items: number[]) => {
    trips.push(items);
    return new Promise<string[]>((resolve) => {
      releases.push(() => {
        resolve(items.map((n) => `answer ${n}`));
      });
    });
  };
  return { trips, releases, run };
}

const turn = () => new Promise((resolve) => setImmediate(resolve));

describe('gathered', () => {
  it('When calls come in one turn, then they are one round trip and each caller gets its own answer', async () => {
    const r = recorder();
    const call = gathered(r.run);
    const answers = Promise.all([call(1), call(2), call(3)]);
    await turn();
    r.releases[0]?.();
    expect(await answers).toEqual(['answer 1', 'answer 2', 'answer 3']);
    expect(r.trips).toEqual([[1, 2, 3]]);
  });

  it('When calls come while a round trip is under way, then they wait and go together in the next one', async () => {
    const r = recorder();
    const call = gathered(r.run);
    const first = call(1);
    await turn();
    const later = [call(2), call(3)];
    await turn();
    await turn();
    expect(r.trips).toEqual([[1]]); // one round trip at a time
    r.releases[0]?.();
    expect(await first).toBe('answer 1');
    await turn();
    expect(r.trips).toEqual([[1], [2, 3]]);
    r.releases[1]?.();
    expect(await Promise.all(later)).toEqual(['answer 2', 'answer 3']);
  });

  it('When a round trip fails, then each of its callers gets the error and later calls still run', async () => {
    let fail = true;
    const call = gathered(async (items: number[]) => {
      if (fail) throw new Error('connection lost');
      return items.map((n) => n * 2);
    });
    const failed = [call(1), call(2)].map((p) => p.catch((err: unknown) => (err as Error).message));
    expect(await Promise.all(failed)).toEqual(['connection lost', 'connection lost']);
    fail = false;
    expect(await call(5)).toBe(10);
  });

  it('When run throws before returning a promise, then the callers get the error', async () => {
    const call = gathered((): Promise<number[]> => {
      throw new Error('bad statement');
    });
    await expect(call(1)).rejects.toThrow('bad statement');
  });
});
