import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { acquireDataDirLock, DataDirInUseError } from './data-dir-lock.ts';

/** A live process standing for another server, gone after `ms`. */
function owner(ms: number) {
  const child = spawn(process.execPath, ['-e', `setTimeout(() => {}, ${ms})`], { stdio: 'ignore' });
  return {
    pid: child.pid ?? 0,
    gone: new Promise((resolve) => child.once('exit', resolve)),
    kill: () => child.kill(),
  };
}

const lockedBy = (pid: number) => {
  const dir = mkdtempSync(join(tmpdir(), 'leadgate-lock-'));
  writeFileSync(join(dir, 'leadgate.lock'), String(pid));
  return dir;
};

describe('the DATA_DIR lock', () => {
  it('When the owner is gone, then the lock is taken over at once, and released again', async () => {
    const gone = owner(0);
    await gone.gone;
    const dir = lockedBy(gone.pid);
    const lock = await acquireDataDirLock(dir, 0);
    lock.release();
    expect(existsSync(join(dir, 'leadgate.lock'))).toBe(false);
  });

  it('When the owner is on its way out, then the start waits for it and takes the lock', async () => {
    const going = owner(300);
    const dir = lockedBy(going.pid);
    const lock = await acquireDataDirLock(dir, 5_000);
    await going.gone;
    lock.release();
  });

  it('When the owner stays, then the start is refused after the wait, naming it', async () => {
    const staying = owner(30_000);
    const dir = lockedBy(staying.pid);
    try {
      await expect(acquireDataDirLock(dir, 200)).rejects.toThrow(DataDirInUseError);
      await expect(acquireDataDirLock(dir, 0)).rejects.toThrow(`pid ${staying.pid}`);
    } finally {
      staying.kill();
    }
  });
});
