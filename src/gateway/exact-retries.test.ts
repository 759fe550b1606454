import { describe, expect, it } from 'vitest';
import type { Queryable } from '../db/index.ts';
import { createExactRetries } from './exact-retries.ts';
import type { SourceClaim } from './source-directory.ts';

const claim = {
  tokenHash: 'h',
  source: { source_id: 's1', revision: 1 },
  confirmed: false,
} as unknown as SourceClaim;

/** A database that answers every resend it is asked about with a stored response, and counts. */
function answeringDb() {
  const asked: string[][] = [];
  const db: Queryable = {
    async query<T>(_sql: string, params?: readonly unknown[]) {
      const keys = (params?.[3] ?? []) as string[];
      asked.push(keys);
      return {
        rows: keys.map((key, i) => ({ n: i + 1, response: { lead_id: key } })) as T[],
        rowCount: keys.length,
      };
    },
  };
  return { db, asked };
}

describe('exact retries memory', () => {
  it('asks the database only about resends it remembers, and forgets the oldest past its bound', async () => {
    const { db, asked } = answeringDb();
    const retries = createExactRetries(db, { max: 2 });
    const resend = (key: string) => ({ key, digest: `d-${key}` });
    expect(await retries.answer(claim, resend('a'))).toBeNull();
    expect(asked).toHaveLength(0);

    for (const key of ['a', 'b', 'c']) retries.remember('s1', resend(key));
    expect(await retries.answer(claim, resend('a'))).toBeNull(); // forgotten: the bound is 2
    expect(await retries.answer(claim, resend('c'))).toEqual({ lead_id: 'c' });
    expect(await retries.answer(claim, { key: 'c', digest: 'other bytes' })).toBeNull();
    expect(asked).toEqual([['c']]);
  });

  it('forgets a resend the database no longer confirms', async () => {
    let rows: unknown[] = [];
    const db: Queryable = { query: async <T>() => ({ rows: rows as T[], rowCount: rows.length }) };
    const retries = createExactRetries(db);
    retries.remember('s1', { key: 'k', digest: 'd' });
    rows = [{ n: 1, response: null }];
    expect(await retries.answer(claim, { key: 'k', digest: 'd' })).toBeNull();
    rows = [{ n: 1, response: { lead_id: 'x' } }];
    expect(await retries.answer(claim, { key: 'k', digest: 'd' })).toBeNull(); // not asked again
  });

  it('asks about the resends of one turn in one statement', async () => {
    const { db, asked } = answeringDb();
    const retries = createExactRetries(db);
    const keys = ['p', 'q', 'r'];
    for (const key of keys) retries.remember('s1', { key, digest: key });
    const answers = await Promise.all(keys.map((key) => retries.answer(claim, { key, digest: key })));
    expect(answers).toEqual(keys.map((key) => ({ lead_id: key })));
    expect(asked).toEqual([keys]);
  });
});
