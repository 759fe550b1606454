import { PerformanceObserver } from 'node:perf_hooks';
import { getHeapSpaceStatistics, setFlagsFromString } from 'node:v8';

/** The two V8 calls the limits below make, replaceable in tests. */
export interface V8Flags {
  setFlag(flag: string): void;
  /** The size of the young generation's semi-space now, in bytes (what it can allocate in). */
  semiSpaceBytes(): number;
}

const node: V8Flags = {
  setFlag: setFlagsFromString,
  semiSpaceBytes: () => {
    const space = getHeapSpaceStatistics().find((s) => s.space_name === 'new_space');
    return space ? space.space_used_size + space.space_available_size : 0;
  },
};

/**
 * HEAP_GROWTH_PERCENT: the JavaScript heap may grow that far past what the last full collection
 * kept before V8 collects again (V8 reads the factor at every collection, so setting it at start
 * is enough). V8's own factor let a busy server's RSS swing by 90 MB; 0 leaves it to V8.
 */
export function limitHeapGrowth(percent: number, v8: Pick<V8Flags, 'setFlag'> = node): void {
  if (percent > 0) v8.setFlag(`--heap-growing-percent=${percent}`);
}

/**
 * SEMI_SPACE_MB: the young generation's semi-space grows to at most this many MB (V8's own limit
 * is 16), as node's `--max-semi-space-size` would hold it, but set by the server itself: that flag
 * is read only as node starts, so `npm start` would impose one size on embedded and PostgreSQL
 * servers alike, which want different ones.
 *
 * V8 starts a semi-space at 1 MB and grows it by its `--semi-space-growth-factor` (2) when enough
 * of it survives collections; it reads the factor at each growth, and may shrink the space again
 * when allocation slows. After each collection the factor is set so that the next growth reaches
 * the limit at most (4 from 1 MB to a limit of 4, 1 at the limit: no growth). V8 puts a factor
 * below 2 back to 2 whenever it configures a heap, as it does for each worker thread's (the embedded
 * database's), so the factor is set again at every check, not only when it changes. A growth before
 * the next check (within one long task) can still leave the space past the limit, where it is then
 * held, and V8 does not shrink a space in use: so while a server starts (its modules' evaluation,
 * its database thread's start: long tasks, and a heap configured) `leadgate serve` holds the space
 * at 1 MB (`holdSemiSpace`), whence two growths reach 4, and `startServer` sets the limit once it
 * listens. One limit a process, the last call's; 0 leaves the growth to V8 again.
 */
export function limitSemiSpace(mb: number, v8: V8Flags = node): void {
  semiSpace.v8 = v8;
  semiSpace.limit = mb * 2 ** 20;
  if (mb <= 0) {
    // Only a limit set before has anything to undo (a PostgreSQL server never sets one).
    if (!semiSpace.observer) return;
    semiSpace.observer.disconnect();
    semiSpace.observer = null;
    v8.setFlag('--semi-space-growth-factor=2');
    return;
  }
  checkSemiSpace();
  if (semiSpace.observer) return;
  semiSpace.observer = new PerformanceObserver(checkSemiSpace);
  semiSpace.observer.observe({ entryTypes: ['gc'] });
}

/** Holds the semi-space where it is (1 MB when node has just started), for a limit set later. */
export function holdSemiSpace(v8: V8Flags = node): void {
  limitSemiSpace(1, v8);
}

const semiSpace = { v8: node, limit: 0, observer: null as PerformanceObserver | null };

function checkSemiSpace(): void {
  const current = semiSpace.v8.semiSpaceBytes();
  const factor = current > 0 ? Math.max(1, Math.floor(semiSpace.limit / current)) : 1;
  semiSpace.v8.setFlag(`--semi-space-growth-factor=${factor}`);
}
