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

describe('gathered, several round trips at a time', () => {
  it('When a second turn brings calls while one round trip runs, then they go at once, up to the limit', async () => {
    const r = recorder();
    const call = gathered(r.run, { concurrency: 2 });
    const first = call(1);
    await turn();
    const second = call(2);
    await turn();
    const third = [call(3), call(4)];
    await turn();
    await turn();
    expect(r.trips).toEqual([[1], [2]]); // two under way; the third waits for one of them
    r.releases[0]?.();
    expect(await first).toBe('answer 1');
    await turn();
    expect(r.trips).toEqual([[1], [2], [3, 4]]);
    r.releases[1]?.();
    r.releases[2]?.();
    expect(await second).toBe('answer 2');
    expect(await Promise.all(third)).toEqual(['answer 3', 'answer 4']);
  });
});
