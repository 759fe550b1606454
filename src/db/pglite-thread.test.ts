import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isConstraintViolation, isPgError, type Database } from './database.ts';
import { createPgliteThreadDb } from './pglite-thread.ts';
import { pgliteImage } from '../../test/support/db.ts';

// The embedded database in a thread of its own (pglite-thread.ts, pglite-worker.ts): what the
// rest of the code relies on of a Database must hold across the two threads.

let db: Database;
beforeAll(async () => {
  db = await createPgliteThreadDb({ image: pgliteImage() });
  await db.query('CREATE TABLE t (id integer PRIMARY KEY, note text, at timestamptz, doc jsonb)');
});
afterAll(() => db.close());

describe('the embedded database in its own thread', () => {
  it('When a statement returns rows, then they come back with their types: numbers, dates, JSON, null', async () => {
    await db.query('INSERT INTO t VALUES ($1, $2, $3, $4)', [
      1,
      'first',
      '2027-01-15T20:30:00Z',
      '{"a":[1,2]}',
    ]);
    const { rows, rowCount } = await db.query<Record<string, unknown>>('SELECT * FROM t WHERE id = $1', [1]);
    expect(rowCount).toBe(1);
    expect(rows[0]).toEqual({
      id: 1,
      note: 'first',
      at: new Date('2027-01-15T20:30:00Z'),
      doc: { a: [1, 2] },
    });
    expect((await db.query('UPDATE t SET note = NULL WHERE id = 1')).rowCount).toBe(1);
  });

  it('When a statement breaks a constraint, then its error keeps its SQLSTATE, constraint and detail', async () => {
    const err = await db.query('INSERT INTO t (id) VALUES (1)').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(Error);
    expect(isPgError(err) && isConstraintViolation(err)).toBe(true);
    expect(err).toMatchObject({
      code: '23505',
      constraint: 't_pkey',
      detail: expect.stringContaining('(id)=(1)'),
    });
  });

  it('When a transaction resolves it commits, when it throws it rolls back, and statements outside wait for it', async () => {
    const order: string[] = [];
    let outside: Promise<unknown> = Promise.resolve();
    await db.withTransaction(async (tx) => {
      await tx.query('INSERT INTO t (id, note) VALUES (2, $1)', ['in a transaction']);
      outside = db
        .query('SELECT count(*)::int AS n FROM t')
        .then((r) => order.push(`outside saw ${String(r.rows[0]?.n)}`));
      await new Promise((resolve) => setTimeout(resolve, 50));
      order.push('commit');
    });
    await outside;
    expect(order).toEqual(['commit', 'outside saw 2']);

    const failed = await db
      .withTransaction(async (tx) => {
        await tx.query('INSERT INTO t (id) VALUES (3)');
        throw new Error('changed my mind');
      })
      .catch((e: unknown) => e);
    expect(failed).toMatchObject({ message: 'changed my mind' });
    expect((await db.query('SELECT 1 FROM t WHERE id = 3')).rowCount).toBe(0);
  });

  it('When a transaction begins, then its first statement goes with the begin, not a turn of the event loop later', async () => {
    const ran = db.withTransaction(
      async (tx) =>
        (await tx.query<{ at: Date }>('SELECT clock_timestamp() AS at WHERE $1::int = 1', [1])).rows[0]?.at,
    );
    // This thread is busy: a statement sent only once the begin's answer was read would run after.
    const busyUntil = Date.now() + 300;
    while (Date.now() < busyUntil);
    const at = await ran;
    expect(at?.getTime()).toBeLessThan(busyUntil);
  });

  it('When a statement of a transaction fails, then the transaction fails with its error and the next one works', async () => {
    const failed = await db
      .withTransaction(async (tx) => {
        await tx.query('INSERT INTO t (id, note) VALUES (4, $1)', ['rolled back']);
        await tx.query('SELECT 1/0 WHERE $1::int = 1', [1]);
      })
      .catch((e: unknown) => e);
    expect(failed).toMatchObject({ code: '22012' });
    expect((await db.query('SELECT 1 FROM t WHERE id = 4')).rowCount).toBe(0);
    expect(await db.withTransaction(async (tx) => (await tx.query('SELECT 7 AS n')).rows)).toEqual([
      { n: 7 },
    ]);
  });

  it('When the database works on a long statement, then the event loop goes on turning', async () => {
    let turns = 0;
    const ticker = setInterval(() => turns++, 5);
    const started = Date.now();
    try {
      await db.query('SELECT count(md5(i::text)) FROM generate_series(1, $1::integer) AS i', [400_000]);
    } finally {
      clearInterval(ticker);
    }
    const took = Date.now() - started;
    // In this thread, the statement would have held the loop from start to end: no turn at all.
    expect(took).toBeGreaterThan(40);
    expect(turns).toBeGreaterThanOrEqual(Math.floor(took / 5 / 4));
  });

  it('When a program opens the database and does not close it, then the thread does not keep the process alive', async () => {
    const script = `import { createPgliteThreadDb } from './src/db/pglite-thread.ts';
      const db = await createPgliteThreadDb({ image: process.env.LEADGATE_TEST_PGLITE_IMAGE });
      console.log(JSON.stringify((await db.query('SELECT 41 + 1 AS n')).rows));`;
    const { stdout } = await promisify(execFile)(
      process.execPath,
      ['--import', 'tsx', '--input-type=module', '-e', script],
      { timeout: 20_000 },
    );
    expect(JSON.parse(stdout)).toEqual([{ n: 42 }]);
  });

  it.runIf(process.platform === 'linux')(
    'When the thread has started, then a big block the process frees goes back to the system at once (glibc)',
    async () => {
      // A freed block of 30 MB raises the size below which glibc keeps freed blocks to 30 MB; a
      // block of 20 MB is then kept when freed, unless the thread has given big blocks pages of
      // their own (freed-memory.ts). Each in a new process: the setting is the process's.
      const script = `import { readFileSync } from 'node:fs';
        import koffi from 'koffi';
        import { createPgliteThreadDb } from './src/db/pglite-thread.ts';
        if (process.argv[1] !== 'alone') {
          const db = await createPgliteThreadDb({
            image: process.env.LEADGATE_TEST_PGLITE_IMAGE,
            returnsMemory: process.argv[1] === 'start',
          });
          await db.query('SELECT 1');
        }
        const libc = koffi.load('libc.so.6');
        const malloc = libc.func('void *malloc(size_t size)');
        const free = libc.func('void free(void *ptr)');
        const memset = libc.func('void *memset(void *ptr, int value, size_t size)');
        const rss = () => Number(/VmRSS:\\s+(\\d+)/.exec(readFileSync('/proc/self/status', 'utf8'))[1]) / 1024;
        free(malloc(30 * 2 ** 20));
        const before = rss();
        const block = malloc(20 * 2 ** 20);
        memset(block, 1, 20 * 2 ** 20);
        free(block);
        console.log(rss() - before);`;
      const keptMb = async (how: 'alone' | 'start' | 'switched-off') =>
        Number(
          (
            await promisify(execFile)(
              process.execPath,
              ['--import', 'tsx', '--input-type=module', '-e', script, how],
              { timeout: 20_000 },
            )
          ).stdout,
        );
      const [alone, started, off] = await Promise.all([
        keptMb('alone'),
        keptMb('start'),
        keptMb('switched-off'),
      ]);
      expect(alone).toBeGreaterThan(15);
      expect(started).toBeLessThan(5);
      expect(off).toBeGreaterThan(15); // EMBEDDED_RETURN_MEMORY=0: the thread leaves glibc as it is
    },
  );
});
