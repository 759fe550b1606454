import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDb, TEST_DATABASE_URL, type TestDb } from '../../test/support/db.ts';

let t: TestDb;
beforeAll(async () => {
  t = await createTestDb();
  await t.db.query('CREATE TABLE rc (id int PRIMARY KEY)');
});
afterAll(() => t.cleanup());

describe('rowCount means the same on both drivers', () => {
  it('when rows are selected, inserted, updated, deleted or returned, then rowCount counts them', async () => {
    expect((await t.db.query('INSERT INTO rc VALUES (1), (2), (3)')).rowCount).toBe(3);
    expect((await t.db.query('SELECT * FROM rc WHERE id > 1')).rowCount).toBe(2);
    expect((await t.db.query('SELECT * FROM rc WHERE id > 9')).rowCount).toBe(0);
    expect((await t.db.query('UPDATE rc SET id = id + 10 WHERE id = 1 RETURNING id')).rowCount).toBe(1);
    expect((await t.db.query('UPDATE rc SET id = id WHERE id > 2')).rowCount).toBe(2);
    expect((await t.db.query('INSERT INTO rc VALUES (2) ON CONFLICT DO NOTHING')).rowCount).toBe(0);
    expect((await t.db.query('DELETE FROM rc')).rowCount).toBe(3);
  });

  it('when a transaction throws, then nothing of it remains', async () => {
    await expect(
      t.db.withTransaction(async (tx) => {
        await tx.query('INSERT INTO rc VALUES (100)');
        throw new Error('boom');
      }),
    ).rejects.toThrow('boom');
    expect((await t.db.query('SELECT * FROM rc WHERE id = 100')).rowCount).toBe(0);
  });
});

describe('a transaction aborted as a deadlock', () => {
  const deadlock = () => Object.assign(new Error('deadlock detected'), { code: '40P01' });

  it('when the database aborts it as a deadlock once, then it runs again and commits', async () => {
    let runs = 0;
    const result = await t.db.withTransaction(async (tx) => {
      runs++;
      await tx.query('INSERT INTO rc VALUES (200)');
      if (runs === 1) throw deadlock();
      return 'done';
    });
    expect(result).toBe('done');
    expect(runs).toBe(2);
    expect((await t.db.query('SELECT * FROM rc WHERE id = 200')).rowCount).toBe(1);
  });

  it('when it deadlocks every time, then it gives up after three runs; any other error is not retried', async () => {
    let runs = 0;
    await expect(
      t.db.withTransaction(async () => {
        runs++;
        throw deadlock();
      }),
    ).rejects.toMatchObject({ code: '40P01' });
    expect(runs).toBe(3);
    runs = 0;
    await expect(
      t.db.withTransaction(async () => {
        runs++;
        throw Object.assign(new Error('unique'), { code: '23505' });
      }),
    ).rejects.toMatchObject({ code: '23505' });
    expect(runs).toBe(1);
  });
});

describe('parameterized statements on PostgreSQL are prepared', () => {
  it.skipIf(!TEST_DATABASE_URL)(
    'when a statement with parameters runs, then its connection holds it prepared; one without runs unnamed',
    async () => {
      const prepared = await t.db.withTransaction(async (tx) => {
        await tx.query('SELECT id FROM rc WHERE id = $1', [7]);
        await tx.query('SELECT id FROM rc WHERE id = $1', [8]);
        await tx.query('SELECT count(*) FROM rc');
        const { rows } = await tx.query<{ statement: string }>(
          'SELECT statement FROM pg_prepared_statements',
        );
        return rows.map((r) => r.statement);
      });
      expect(prepared).toContain('SELECT id FROM rc WHERE id = $1');
      expect(prepared).not.toContain('SELECT count(*) FROM rc');
      expect(prepared.filter((s) => s === 'SELECT id FROM rc WHERE id = $1')).toHaveLength(1);
    },
  );
});
