import { readFileSync } from 'node:fs';
import koffi from 'koffi';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { glibcAllocator, keepReturningFreedMemory, type CAllocator } from './freed-memory.ts';

/** This process's resident memory, in MB. */
const rssMb = () => Number(/VmRSS:\s+(\d+)/.exec(readFileSync('/proc/self/status', 'utf8'))?.[1]) / 1024;

/** glibc's own malloc, free and memset, to make and free memory the JavaScript heap knows nothing of. */
function libc() {
  const lib = koffi.load('libc.so.6');
  return {
    malloc: lib.func('void *malloc(size_t size)') as (size: number) => unknown,
    free: lib.func('void free(void *ptr)') as (ptr: unknown) => void,
    memset: lib.func('void *memset(void *ptr, int value, size_t size)') as (
      ptr: unknown,
      v: number,
      n: number,
    ) => unknown,
  };
}

const onGlibc = process.platform === 'linux';

/**
 * Starts giving memory back to a fake allocator, on fake timers, in the environment `env`: a trim
 * every 1 s, or at a check (every 250 ms) once `memory.rss` grew by 32 MB since the last trim. A
 * trim gives back what `memory.freed` holds.
 */
async function startFaked(env: NodeJS.ProcessEnv, opts: { refuses?: boolean } = {}) {
  vi.useFakeTimers();
  const calls: string[] = [];
  const memory = { rss: 100 * MB, freed: 0 };
  const allocator: CAllocator = {
    mapAtLeast: (bytes) => calls.push(`map ${bytes}`) > 0 && !opts.refuses,
    trim: () => {
      calls.push('trim');
      memory.rss -= memory.freed;
      memory.freed = 0;
    },
  };
  const stop = await keepReturningFreedMemory({
    everyMs: 1_000,
    checkMs: 250,
    grownBytes: 32 * MB,
    rss: () => memory.rss,
    mapAtLeastBytes: 131_072,
    allocator,
    env,
  });
  return { calls, stop, memory };
}
const MB = 1024 * 1024;

describe('giving freed memory back', () => {
  afterEach(() => vi.useRealTimers());

  it('When it starts, then big blocks get their own pages once, and the rest is trimmed at every interval until stopped', async () => {
    const { calls, stop } = await startFaked({});
    expect(calls).toEqual(['map 131072']);
    vi.advanceTimersByTime(3_500);
    expect(calls).toEqual(['map 131072', 'trim', 'trim', 'trim']);
    stop?.();
    vi.advanceTimersByTime(5_000);
    expect(calls).toHaveLength(4);
  });

  it('When the process’s memory grows fast (a compilation’s burst), then it is trimmed at the next check, and the interval starts again from there', async () => {
    const { calls, memory, stop } = await startFaked({});
    calls.length = 0;
    vi.advanceTimersByTime(250);
    memory.rss += 20 * MB; // grown, not yet by 32 MB
    memory.freed += 20 * MB;
    vi.advanceTimersByTime(250);
    expect(calls).toEqual([]);
    memory.rss += 40 * MB;
    memory.freed += 30 * MB;
    vi.advanceTimersByTime(250);
    expect(calls).toEqual(['trim']); // at 750 ms, not 1 s
    expect(memory.rss).toBe(110 * MB);
    // 32 MB more than after that trim, not than before it
    memory.rss += 31 * MB;
    vi.advanceTimersByTime(750);
    expect(calls).toEqual(['trim']);
    vi.advanceTimersByTime(250); // 1 s after the last trim
    expect(calls).toEqual(['trim', 'trim']);
    stop?.();
  });

  it('When the environment sets glibc’s own MALLOC_MMAP_THRESHOLD_, then that threshold stays and only trimming is done', async () => {
    const { calls, stop } = await startFaked({ MALLOC_MMAP_THRESHOLD_: '65536' });
    vi.advanceTimersByTime(1_000);
    expect(calls).toEqual(['trim']);
    stop?.();
  });

  it('When the allocator refuses the threshold, then it starts all the same and trims at every interval', async () => {
    const { calls, stop } = await startFaked({}, { refuses: true });
    vi.advanceTimersByTime(2_000);
    expect(calls).toEqual(['map 131072', 'trim', 'trim']);
    stop?.();
  });

  it('When there is no C allocator to reach, then nothing is started', async () => {
    expect(
      await keepReturningFreedMemory({
        everyMs: 1_000,
        checkMs: 1_000,
        grownBytes: MB,
        mapAtLeastBytes: 1,
        allocator: null,
      }),
    ).toBeNull();
  });

  it.runIf(onGlibc)(
    'When a process has freed most of its blocks between blocks still in use, then a trim gives those pages back',
    async () => {
      const allocator = await glibcAllocator();
      expect(allocator).not.toBeNull();
      const { malloc, free, memset } = libc();
      // 64 MB in 4,000-byte blocks, written so they are resident; then 15 of every 16 freed. Each
      // run of 15 free blocks holds whole pages, but a block in use after it keeps glibc from
      // giving them back on its own.
      const blocks = Array.from({ length: 16_000 }, () => {
        const block = malloc(4_000);
        memset(block, 1, 4_000);
        return block;
      });
      blocks.forEach((block, i) => i % 16 !== 0 && free(block));
      const before = rssMb();
      allocator?.trim();
      const given = before - rssMb();
      blocks.forEach((block, i) => i % 16 === 0 && free(block));
      expect(given).toBeGreaterThan(30);
    },
  );
});
