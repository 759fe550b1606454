import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDb, editQuery, TEST_DATABASE_URL, type TestDb } from '../../test/support/db.ts';
import { connectionConfig, createPostgresDb } from './postgres.ts';

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

describe('statements of a transaction sent together', () => {
  it('when they are sent without waiting, then they run in order with no warning from the driver, and one that fails rolls back the whole', async () => {
    const warnings: string[] = [];
    const warned = (w: Error) => warnings.push(w.message);
    process.on('warning', warned);
    try {
      const ids = await t.db.withTransaction((tx) =>
        Promise.all([
          tx.query('INSERT INTO rc VALUES (500)'),
          tx.query('INSERT INTO rc VALUES ($1::int)', [501]),
          tx.query<{ n: number }>('SELECT count(*)::int AS n FROM rc WHERE id >= 500'),
        ]),
      );
      expect(ids[2].rows[0]?.n).toBe(2);
      await expect(
        t.db.withTransaction((tx) =>
          Promise.all([
            tx.query('INSERT INTO rc VALUES (502)'),
            tx.query('INSERT INTO rc VALUES (500)'),
            tx.query('INSERT INTO rc VALUES (503)'),
          ]),
        ),
      ).rejects.toMatchObject({ code: '23505' });
      expect((await t.db.query('SELECT id FROM rc WHERE id >= 500 ORDER BY id')).rows).toEqual([
        { id: 500 },
        { id: 501 },
      ]);
      await new Promise((resolve) => setImmediate(resolve)); // a warning is emitted on the next tick
      expect(warnings).toEqual([]);
    } finally {
      process.off('warning', warned);
    }
  });
});

describe('statements a transaction sent and did not wait for', () => {
  it('when the transaction ends, then they have run inside it: committed with it, or rolled back with it', async () => {
    // Each behind a slower statement, so neither has run yet when the code inside has ended.
    await t.db.withTransaction(async (tx) => {
      void tx.query('SELECT pg_sleep(0.05)');
      void tx.query('INSERT INTO rc VALUES ($1::int)', [504]);
    });
    await expect(
      t.db.withTransaction(async (tx) => {
        void tx.query('SELECT pg_sleep(0.05)').catch(() => undefined);
        void tx.query('INSERT INTO rc VALUES ($1::int)', [505]).catch(() => undefined);
        throw new Error('boom');
      }),
    ).rejects.toThrow('boom');
    expect((await t.db.query('SELECT id FROM rc WHERE id IN (504, 505)')).rows).toEqual([{ id: 504 }]);
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

describe('parameterized statements are prepared, on both drivers', () => {
  it('when a statement with parameters runs, then its connection holds it prepared; one without runs unnamed', async () => {
    const prepared = await t.db.withTransaction(async (tx) => {
      await tx.query('SELECT id FROM rc WHERE id = $1', [7]);
      await tx.query('SELECT id FROM rc WHERE id = $1', [8]);
      await tx.query('SELECT count(*) FROM rc');
      const { rows } = await tx.query<{ statement: string }>('SELECT statement FROM pg_prepared_statements');
      return rows.map((r) => r.statement);
    });
    expect(prepared).toContain('SELECT id FROM rc WHERE id = $1');
    expect(prepared).not.toContain('SELECT count(*) FROM rc');
    expect(prepared.filter((s) => s === 'SELECT id FROM rc WHERE id = $1')).toHaveLength(1);
  });

  it('when values of every kind go in and out of a prepared statement, then they read as they do unprepared', async () => {
    const sql = `SELECT $1::jsonb AS j, $2::timestamptz AS at, $3::int AS n, $4::boolean AS b, $5::text[] AS list,
                        $6::text AS nothing, $7::bigint AS big, $8::uuid AS id`;
    const params = [
      JSON.stringify({ a: [1, 'x'], b: null }),
      '2027-01-15T19:30:00.000Z',
      42,
      true,
      ['a', 'b,c'],
      null,
      9_007_199_254_740_991,
      '0b5f2c1e-8a7d-4f3e-9c2b-1a2b3c4d5e6f',
    ];
    const { rows } = await t.db.query(sql, params);
    expect(rows).toEqual([
      {
        j: { a: [1, 'x'], b: null },
        at: new Date('2027-01-15T19:30:00.000Z'),
        n: 42,
        b: true,
        list: ['a', 'b,c'],
        nothing: null,
        big: 9_007_199_254_740_991,
        id: '0b5f2c1e-8a7d-4f3e-9c2b-1a2b3c4d5e6f',
      },
    ]);
    expect((await t.db.query(sql, params)).rows).toEqual(rows); // and again, from the prepared statement
  });

  it('when a prepared statement breaks a constraint, then the error carries its SQLSTATE and constraint, and the next call works', async () => {
    await t.db.query('INSERT INTO rc VALUES ($1)', [300]);
    await expect(t.db.query('INSERT INTO rc VALUES ($1)', [300])).rejects.toMatchObject({
      code: '23505',
      constraint: 'rc_pkey',
    });
    expect((await t.db.query('INSERT INTO rc VALUES ($1)', [301])).rowCount).toBe(1);
  });

  it.skipIf(TEST_DATABASE_URL)(
    'when a statement comes while a transaction runs on the one embedded connection, then it waits for the transaction and sees what it committed',
    async () => {
      let release: () => void = () => undefined;
      const held = new Promise<void>((resolve) => (release = resolve));
      const order: string[] = [];
      const tx = t.db.withTransaction(async (q) => {
        await q.query('INSERT INTO rc VALUES ($1)', [400]);
        await held;
        order.push('commit');
      });
      await new Promise((resolve) => setTimeout(resolve, 20));
      const read = t.db.query('SELECT id FROM rc WHERE id = $1', [400]).then((r) => {
        order.push('read');
        return r.rowCount;
      });
      await new Promise((resolve) => setTimeout(resolve, 20));
      release();
      await tx;
      expect(await read).toBe(1);
      expect(order).toEqual(['commit', 'read']);
    },
  );
});

describe.runIf(TEST_DATABASE_URL)('PostgreSQL connections', () => {
  it('When a connection opens, then JIT is off and the connection string’s own options still hold', async () => {
    const { rows } = await t.db.query<{ jit: string; schema: string }>(
      "SELECT current_setting('jit') AS jit, current_schema() AS schema",
    );
    expect(rows[0]?.jit).toBe('off');
    let options = '';
    editQuery(t.url ?? '', (p) => (options = p.get('options') ?? ''));
    expect(rows[0]?.schema).toBe(options.split('=')[1]);
  });

  it('When the connection string has no options, then they are just jit=off; its own are kept', () => {
    expect(connectionConfig('postgres://u@h:5432/db')).toMatchObject({
      user: 'u',
      host: 'h',
      port: 5432,
      database: 'db',
      options: '-c jit=off',
    });
    expect(connectionConfig('postgres://u@h/db?options=-c%20search_path%3Dx').options).toBe(
      '-c search_path=x -c jit=off',
    );
  });

  it('When the connection string names a Unix socket directory, then it is read as PostgreSQL clients read it', () => {
    for (const url of [
      'postgres://u@/db?host=/var/run/postgresql',
      'postgresql:///db?host=/var/run/postgresql',
      'postgres://%2Fvar%2Frun%2Fpostgresql/db',
    ]) {
      expect(connectionConfig(url)).toMatchObject({ host: '/var/run/postgresql', database: 'db' });
    }
    expect(() => connectionConfig('postgres://u@h:notaport/db')).toThrow();
  });

  it('When the server is reached through its Unix socket (postgres://user@/db?host=dir), then queries run with JIT off', async (ctx) => {
    const { rows } = await t.db.query<{ dir: string; port: number; db: string; usr: string }>(
      `SELECT split_part(current_setting('unix_socket_directories'), ',', 1) AS dir,
              current_setting('port')::int AS port, current_database() AS db, current_user AS usr`,
    );
    const at = rows[0];
    if (!at?.dir) return ctx.skip(); // a server that listens on no Unix socket
    const socket = createPostgresDb(
      `postgres://${encodeURIComponent(at.usr)}@/${encodeURIComponent(at.db)}?host=${encodeURIComponent(at.dir.trim())}&port=${at.port}`,
    );
    try {
      const res = await socket.query<{ jit: string; local: boolean }>(
        "SELECT current_setting('jit') AS jit, inet_server_addr() IS NULL AS local",
      );
      expect(res.rows[0]).toEqual({ jit: 'off', local: true });
    } finally {
      await socket.close();
    }
  });
});
