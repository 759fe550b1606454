import { afterEach, describe, expect, it, vi } from 'vitest';
import { LIMITS } from '../config.ts';
import type { Database } from './database.ts';
import { maintainEmbedded } from './maintenance.ts';

afterEach(() => {
  vi.useRealTimers();
});

function fakeDb(fail: () => boolean) {
  const statements: string[] = [];
  const db = {
    kind: 'pglite',
    query: async (sql: string) => {
      statements.push(sql);
      if (fail()) throw new Error('disk full');
      return { rows: [], rowCount: 0 };
    },
  } as unknown as Database;
  return { db, statements };
}

describe('maintainEmbedded', () => {
  it('When its interval passes, then the embedded database is vacuumed and analyzed, again and again until stopped', async () => {
    vi.useFakeTimers();
    const { db, statements } = fakeDb(() => false);
    const stop = maintainEmbedded(db, { warn: () => undefined });
    await vi.advanceTimersByTimeAsync(LIMITS.embeddedMaintenanceMs - 1);
    expect(statements).toEqual([]);
    await vi.advanceTimersByTimeAsync(1);
    expect(statements).toEqual(['VACUUM (ANALYZE)']);
    await vi.advanceTimersByTimeAsync(LIMITS.embeddedMaintenanceMs);
    expect(statements).toHaveLength(2);
    stop();
    await vi.advanceTimersByTimeAsync(5 * LIMITS.embeddedMaintenanceMs);
    expect(statements).toHaveLength(2);
  });

  it('When a run fails, then it is logged and the next one still comes', async () => {
    vi.useFakeTimers();
    let failing = true;
    const { db, statements } = fakeDb(() => failing);
    const warnings: string[] = [];
    const stop = maintainEmbedded(db, { warn: (_obj, msg) => warnings.push(msg) });
    await vi.advanceTimersByTimeAsync(LIMITS.embeddedMaintenanceMs);
    expect(warnings).toHaveLength(1);
    failing = false;
    await vi.advanceTimersByTimeAsync(LIMITS.embeddedMaintenanceMs);
    expect(statements).toHaveLength(2);
    expect(warnings).toHaveLength(1);
    stop();
  });
});
