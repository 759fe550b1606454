/**
 * Calls gathered into round trips: the calls made in one turn of the event loop, or while the
 * previous round trips are under way, go to `run` together. Under load one statement answers many
 * callers; a caller alone waits only for the next turn. At most `concurrency` round trips run at a
 * time (1 by default). `run` gets the items in the order they came and returns one result per item,
 * in that order; when it fails, every caller of that round trip gets its error.
 */
export function gathered<I, R>(
  run: (items: I[]) => Promise<R[]>,
  opts: { concurrency?: number } = {},
): (item: I) => Promise<R> {
  interface Waiting {
    item: I;
    resolve: (result: R) => void;
    reject: (err: unknown) => void;
  }
  const concurrency = opts.concurrency ?? 1;
  let waiting: Waiting[] = [];
  let running = 0;
  let scheduled = false;
  const flush = () => {
    scheduled = false;
    if (running >= concurrency || waiting.length === 0) return;
    const batch = waiting;
    waiting = [];
    running++;
    Promise.resolve()
      .then(() => run(batch.map((w) => w.item)))
      .then(
        (results) => {
          batch.forEach((w, i) => {
            w.resolve(results[i] as R);
          });
        },
        (err: unknown) => {
          for (const w of batch) w.reject(err);
        },
      )
      .finally(() => {
        running--;
        flush();
      });
  };
  return (item) =>
    new Promise<R>((resolve, reject) => {
      waiting.push({ item, resolve, reject });
      if (running < concurrency && !scheduled) {
        scheduled = true;
        setImmediate(flush);
      }
    });
}
