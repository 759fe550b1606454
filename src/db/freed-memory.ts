/**
 * Memory the process frees, given back to the system, on Linux with glibc
 * (docs/decisions/0034-embedded-server-gives-back-freed-memory.md; switched off with
 * EMBEDDED_RETURN_MEMORY=0).
 *
 * glibc's allocator keeps what a process frees for its next allocations, and an embedded server
 * frees a lot: V8 compiles PGlite's hot WebAssembly functions on its background threads and frees
 * that compiler memory within seconds, and a busy server frees thousands of small blocks a second
 * besides. Left to glibc, much of it stays: once a big block is freed, glibc keeps every later
 * block up to that size in its heaps, and it gives back only the free memory at a heap's end, never
 * free pages between blocks still in use. Here blocks of `mapAtLeastBytes` and more get pages of
 * their own, given back when freed (what glibc's MALLOC_MMAP_THRESHOLD_ does at a process's start),
 * and every `everyMs` the free pages inside the heaps go back too (malloc_trim), from the database's
 * thread; sooner when the process's memory has just grown fast (`grownBytes`), as it does while V8
 * compiles under a first burst of load.
 *
 * glibc is reached through koffi, an FFI and an optional dependency: where it is not installed, or
 * the C library is not glibc (macOS, Windows, musl), nothing is done and the process keeps its
 * memory as it would have.
 */

/** The two calls of glibc's allocator used here. */
export interface CAllocator {
  /**
   * Blocks of `bytes` and more get pages of their own, given back when freed (M_MMAP_THRESHOLD);
   * false where the allocator refused the size.
   */
  mapAtLeast(bytes: number): boolean;
  /** Gives every whole free page of every heap back to the system (malloc_trim(0)). */
  trim(): void;
}

// glibc's malloc.h
const M_MMAP_THRESHOLD = -3;

/** glibc's allocator, or null where there is none to reach (no koffi, no glibc). */
export async function glibcAllocator(): Promise<CAllocator | null> {
  if (process.platform !== 'linux') return null;
  try {
    const koffi = (await import('koffi')).default;
    const libc = koffi.load('libc.so.6');
    const mallopt = libc.func('int mallopt(int param, int value)') as (
      param: number,
      value: number,
    ) => number;
    const mallocTrim = libc.func('int malloc_trim(size_t pad)') as (pad: number) => number;
    return {
      mapAtLeast: (bytes) => mallopt(M_MMAP_THRESHOLD, bytes) === 1,
      trim: () => void mallocTrim(0),
    };
  } catch {
    return null;
  }
}

export interface ReturningOptions {
  /** Trims at least this often. */
  everyMs: number;
  /**
   * And sooner, at the next of these checks, once the process's resident memory has grown by
   * `grownBytes` since the last trim: V8's compilation under a first burst of load takes and frees
   * its memory within seconds, and a trim at the next interval would come after the peak.
   */
  checkMs: number;
  grownBytes: number;
  /** The process's resident memory in bytes; by default `process.memoryUsage.rss()`. */
  rss?: () => number;
  mapAtLeastBytes: number;
  /** The allocator; by default glibc's (glibcAllocator). */
  allocator?: CAllocator | null;
  /** The process's environment: a MALLOC_MMAP_THRESHOLD_ given there is glibc's, and stays. */
  env?: NodeJS.ProcessEnv;
}

/**
 * Starts giving freed memory back (above); resolves to how to stop, or to null where the C
 * allocator cannot be reached. The timer never keeps the process alive. A threshold the allocator
 * refuses leaves its own, and the trimming goes on: this is memory given back where it can be,
 * never a reason for the database not to start.
 */
export async function keepReturningFreedMemory(opts: ReturningOptions): Promise<(() => void) | null> {
  const allocator = opts.allocator === undefined ? await glibcAllocator() : opts.allocator;
  if (!allocator) return null;
  if ((opts.env ?? process.env).MALLOC_MMAP_THRESHOLD_ === undefined)
    void allocator.mapAtLeast(opts.mapAtLeastBytes);
  const rss = opts.rss ?? (() => process.memoryUsage.rss());
  // The resident memory after the last trim, and the time since it, counted in checks.
  let rssAfter = rss();
  let waited = 0;
  const trim = () => {
    allocator.trim();
    waited = 0;
    rssAfter = rss();
  };
  const timer = setInterval(() => {
    waited += opts.checkMs;
    if (waited >= opts.everyMs || rss() - rssAfter >= opts.grownBytes) trim();
  }, opts.checkMs);
  timer.unref();
  return () => clearInterval(timer);
}
