import { execFileSync } from 'node:child_process';
import { afterEach, describe, expect, it } from 'vitest';
import { limitHeapGrowth, limitSemiSpace, type V8Flags } from './heap.ts';
import { PGLITE_IMAGE_ENV } from '../test/support/db.ts';

const MB = 2 ** 20;

/** A V8 whose semi-space is what the test says, recording the flags set. */
function fakeV8(semiSpaceMb: number) {
  const flags: string[] = [];
  const v8: V8Flags & { semiMb: number } = {
    semiMb: semiSpaceMb,
    setFlag: (flag) => void flags.push(flag),
    semiSpaceBytes: () => v8.semiMb * MB - 16_384, // V8 reports a page's header less
  };
  return { v8, flags };
}

/**
 * The largest semi-space a separate node process reaches allocating objects that survive a while
 * (as a busy server's do) while it starts an embedded database, whose thread has V8 configure a
 * heap of its own, and for a second after; limited (to `limitMb`) as `leadgate serve` does it: held
 * while starting, the limit set once started. 0: V8 alone.
 */
function semiSpaceReachedMb(limitMb: number): number {
  const src = (file: string) => JSON.stringify(new URL(file, import.meta.url).href);
  const script = `
    import { getHeapSpaceStatistics } from 'node:v8';
    import { holdSemiSpace, limitSemiSpace } from ${src('./heap.ts')};
    import { createDb } from ${src('./db/index.ts')};
    const limitMb = ${limitMb};
    if (limitMb > 0) holdSemiSpace();
    const semi = () => {
      const s = getHeapSpaceStatistics().find((space) => space.space_name === 'new_space');
      return (s.space_used_size + s.space_available_size) / 2 ** 20;
    };
    const kept = [];
    let max = semi();
    const allocate = async (ms) => {
      const until = Date.now() + ms;
      while (Date.now() < until) {
        for (let i = 0; i < 2000; i++) kept.push({ i, name: 'lead ' + i });
        if (kept.length > 200000) kept.splice(0, 100000);
        max = Math.max(max, semi());
        await new Promise((resolve) => setImmediate(resolve));
      }
    };
    const image = process.env.${PGLITE_IMAGE_ENV};
    const [db] = await Promise.all([createDb(image ? { pgliteImage: image } : {}), allocate(300)]);
    if (limitMb > 0) limitSemiSpace(limitMb);
    await allocate(1000);
    await db.close();
    console.log(max);`;
  const out = execFileSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
    encoding: 'utf8',
  });
  return Number(out.trim());
}

describe('the heap’s limits', () => {
  afterEach(() => limitSemiSpace(0, fakeV8(1).v8));

  it("When a server or worker starts, then V8's heap growing factor is set from it, and left alone at 0", () => {
    const { v8, flags } = fakeV8(1);
    limitHeapGrowth(50, v8);
    limitHeapGrowth(0, v8);
    expect(flags).toEqual(['--heap-growing-percent=50']);
  });

  it('When the semi-space is limited, then its growth factor lets the next growth reach the limit at most, and none at the limit', () => {
    const { v8, flags } = fakeV8(1);
    limitSemiSpace(4, v8);
    v8.semiMb = 2;
    limitSemiSpace(4, v8); // a second call checks again, as each collection does
    v8.semiMb = 4;
    limitSemiSpace(4, v8);
    v8.semiMb = 8; // past it (grown within one long task): held there
    limitSemiSpace(4, v8);
    limitSemiSpace(6, { ...v8, semiSpaceBytes: () => MB });
    expect(flags).toEqual([
      '--semi-space-growth-factor=4',
      '--semi-space-growth-factor=2',
      '--semi-space-growth-factor=1',
      '--semi-space-growth-factor=1',
      '--semi-space-growth-factor=6',
    ]);
  });

  it('When the limit is 0, then the growth is left to V8 (its factor of 2)', () => {
    const { v8, flags } = fakeV8(4);
    limitSemiSpace(4, v8);
    limitSemiSpace(0, v8);
    expect(flags).toEqual(['--semi-space-growth-factor=1', '--semi-space-growth-factor=2']);
  });

  it('When a process holds its semi-space, starts an embedded database (a thread of its own) and then limits it to 4 MB, then it stays within 4 MB where V8 alone grows it to 16', () => {
    expect(semiSpaceReachedMb(0)).toBeGreaterThan(8);
    expect(semiSpaceReachedMb(4)).toBeLessThanOrEqual(4);
  });
});
