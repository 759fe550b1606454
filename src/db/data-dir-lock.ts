import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';

export interface DataDirLock {
  release(): void;
}

export class DataDirInUseError extends Error {}

/** How long a start waits for a live owner to go before it refuses. */
const OWNER_GOING_MS = 5_000;

/**
 * The embedded database is one process's: a second server on the same DATA_DIR would corrupt it.
 * A lock file holds the owner's pid; a stale one (owner gone) is taken over. A live owner gets
 * `waitMs` to go first: a server whose launcher was just killed (`kill -9` of `npm start`) is on
 * its way out, and a supervisor restarting it at once must not be refused for that.
 */
export async function acquireDataDirLock(dataDir: string, waitMs = OWNER_GOING_MS): Promise<DataDirLock> {
  mkdirSync(dataDir, { recursive: true });
  const file = join(dataDir, 'leadgate.lock');
  const deadline = Date.now() + waitMs;
  for (;;) {
    try {
      writeFileSync(file, String(process.pid), { flag: 'wx' });
      let released = false;
      return {
        release() {
          if (released) return;
          released = true;
          rmSync(file, { force: true });
        },
      };
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    }
    const owner = Number(readFileSync(file, 'utf8').trim());
    if (!(Number.isInteger(owner) && owner > 0 && owner !== process.pid && isAlive(owner))) {
      rmSync(file, { force: true }); // stale lock of a process that is gone
    } else if (Date.now() < deadline) {
      await sleep(50);
    } else {
      throw new DataDirInUseError(
        `DATA_DIR ${dataDir} is in use by another leadgate process (pid ${owner}). ` +
          'Stop it, or start this one with another DATA_DIR, or use DATABASE_URL for several processes.',
      );
    }
  }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}
