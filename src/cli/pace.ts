import { parseRetryAfter, sleep } from '@leadgate/sender';

/** How a pace waits and tells the time (tests give a fake clock). */
export interface Clock {
  now: () => number;
  sleep: (ms: number, signal?: AbortSignal) => Promise<void>;
}

// Aborted during a hold, the wait ends early and the request then fails with the signal's reason.
const realClock: Clock = { now: Date.now, sleep };

/** When the gateway answers 429 without a readable Retry-After. */
const DEFAULT_HOLD_MS = 1_000;

/** An import's pace: `run` each row's sending through it, and give the sender client its `fetch`. */
export interface Pace {
  run<T>(send: () => Promise<T>): Promise<T>;
  fetch: typeof fetch;
  /** How many rows may be in flight now (at most the import's concurrency, at least 1). */
  readonly window: number;
}

/**
 * The pace of an import whose rows all share one source's rate limit. When the gateway answers
 * `429`:
 * - no row is sent until its `Retry-After` has passed, and the refused request is sent again as it
 *   was (the same idempotency key) once it has, as often as the gateway asks. The sender client
 *   above never sees the `429`: a row is not given up on because the source is busy, and the
 *   client's own schedule (1, 2, 4 … s) is kept for failures;
 * - fewer rows go at once: the window of rows in flight is halved (once a hold: the 429s of one
 *   burst are one signal), and grows by one a window's worth of answers again, up to the import's
 *   concurrency. Else, after a hold, every row in flight went at once and most were refused again.
 *
 * With each row retrying on its own schedule instead, an import against a source's limit would be
 * slower and, against small bursts, give rows up after their six 429s (docs/decisions/0049).
 */
export function createPace(concurrency: number, base: typeof fetch, clock: Clock = realClock): Pace {
  let heldUntil = 0;
  /** When the last halving was: a 429 to a request sent before it is not a new signal. */
  let halvedAt = -Infinity;
  let window = concurrency;
  let inFlight = 0;
  const queue: (() => void)[] = [];
  const admit = () => {
    while (queue.length > 0 && inFlight < Math.floor(window)) {
      inFlight++;
      queue.shift()?.();
    }
  };

  const paced: typeof fetch = async (input, init) => {
    for (;;) {
      const wait = heldUntil - clock.now();
      if (wait > 0) await clock.sleep(wait, init?.signal ?? undefined);
      const sentAt = clock.now();
      const res = await base(input, init);
      if (res.status !== 429) {
        window = Math.min(concurrency, window + 1 / window);
        admit();
        return res;
      }
      await res.body?.cancel();
      if (sentAt > halvedAt) {
        window = Math.max(1, window / 2);
        halvedAt = clock.now();
      }
      const hold = parseRetryAfter(res.headers.get('retry-after'), clock.now()) ?? DEFAULT_HOLD_MS;
      heldUntil = Math.max(heldUntil, clock.now() + hold);
    }
  };

  return {
    fetch: paced,
    get window() {
      return window;
    },
    async run(send) {
      await new Promise<void>((resolve) => {
        queue.push(resolve);
        admit();
      });
      try {
        return await send();
      } finally {
        inFlight--;
        admit();
      }
    },
  };
}
