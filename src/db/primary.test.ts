import { connect, createServer, type Server, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createTestDb,
  editQuery,
  readOnlyUrl,
  TEST_DATABASE_URL,
  type TestDb,
} from '../../test/support/db.ts';
import { freePort } from '../../test/faults/cluster.ts';
import { isTransientDbError, NoPrimaryError, type Database } from './database.ts';
import { createPostgresDb } from './postgres.ts';

/**
 * A TCP relay to the test server, standing in for one host of a multi-host DATABASE_URL: `cut()`
 * is that machine gone (every connection broken, nothing listening).
 */
interface Relay {
  port: number;
  accepted: number;
  /** Bytes sent through it to the server: which relay the calls go through. */
  sent: number;
  cut(): Promise<void>;
}

async function startRelay(to: { host: string; port: number }): Promise<Relay> {
  const sockets = new Set<Socket>();
  const relay = { port: await freePort(), accepted: 0, sent: 0, cut };
  const server: Server = createServer((inbound) => {
    relay.accepted++;
    const outbound = connect(to.port, to.host);
    inbound.on('data', (d: Buffer) => (relay.sent += d.length));
    for (const [a, b] of [
      [inbound, outbound],
      [outbound, inbound],
    ] as const) {
      sockets.add(a);
      a.pipe(b);
      a.on('error', () => b.destroy());
      a.on('close', () => {
        sockets.delete(a);
        b.destroy();
      });
    }
  });
  await new Promise<void>((resolve) => server.listen(relay.port, '127.0.0.1', resolve));
  async function cut() {
    const closed = new Promise((resolve) => server.close(resolve));
    for (const s of sockets) s.destroy();
    await closed;
  }
  return relay;
}

/** The test URL with its one host replaced by `hosts` (`h1:p1,h2:p2`) and `query` added. */
const withHosts = (url: string, hosts: string, query: Record<string, string> = {}) =>
  editQuery(url.replace(/@[^/@]+\//, `@${hosts}/`), (p) => {
    for (const [k, v] of Object.entries(query)) p.set(k, v);
  });

describe.runIf(TEST_DATABASE_URL)('a DATABASE_URL with several hosts', () => {
  let t: TestDb;
  let server: { host: string; port: number };
  const opened: Database[] = [];
  const open = (url: string) => {
    const db = createPostgresDb(url);
    opened.push(db);
    return db;
  };

  beforeAll(async () => {
    t = await createTestDb();
    const { rows } = await t.db.query<{ port: number }>("SELECT current_setting('port')::int AS port");
    server = { host: '127.0.0.1', port: rows[0]?.port ?? 5432 };
    await t.db.query('CREATE TABLE failover_probe (n int)');
  });
  afterAll(async () => {
    await Promise.all(opened.map((db) => db.close()));
    await t.cleanup();
  });

  it('When the first host is down, then the next one in the list is used, for reads and for writes', async () => {
    const down = await freePort();
    for (const target of ['any', 'read-write', 'primary']) {
      const db = open(
        withHosts(t.url ?? '', `127.0.0.1:${down},${server.host}:${server.port}`, {
          target_session_attrs: target,
        }),
      );
      await db.withTransaction((tx) => tx.query('INSERT INTO failover_probe VALUES ($1)', [1]));
      const { rows } = await db.query<{ port: number }>('SELECT inet_server_port() AS port');
      expect(rows[0]?.port).toBe(server.port);
    }
  });

  it('When the host in use goes away, then the call under way fails as unavailable (a 503, never a 500) and the next calls go to the other host', async () => {
    for (const target of ['any', 'read-write']) {
      const a = await startRelay(server);
      const b = await startRelay(server);
      const db = open(
        withHosts(t.url ?? '', `127.0.0.1:${a.port},127.0.0.1:${b.port}`, { target_session_attrs: target }),
      );
      await db.query('INSERT INTO failover_probe VALUES ($1)', [2]);
      const sentBefore = [a.sent, b.sent];
      await db.query('INSERT INTO failover_probe VALUES ($1)', [2]);
      const [first, other] = a.sent > (sentBefore[0] ?? 0) ? [a, b] : [b, a];
      if (target === 'any') expect(first).toBe(a); // the URL's order
      const before = other.sent;
      await first.cut();
      const errors: unknown[] = [];
      for (let i = 0; i < 3; i++) {
        await db
          .query('INSERT INTO failover_probe VALUES ($1)', [3])
          .catch((err: unknown) => errors.push(err));
      }
      // The pool's idle connections were cut: at most the first call fails, and as unavailable.
      expect(errors.length).toBeLessThanOrEqual(1);
      for (const err of errors) expect(isTransientDbError(err), String(err)).toBe(true);
      expect(other.sent).toBeGreaterThan(before);
      await other.cut();
    }
  });

  it('When the only host does not take writes (a standby, or read-only), then read-write refuses every call as no primary, and any lets the write fail as unavailable', async () => {
    const readOnly = readOnlyUrl(t.url ?? '');
    const strict = open(editQuery(readOnly, (p) => p.set('target_session_attrs', 'read-write')));
    for (const call of [() => strict.query('SELECT 1'), () => strict.query('SELECT 1')]) {
      const err = await call().catch((e: unknown) => e);
      expect(err).toBeInstanceOf(NoPrimaryError);
      expect(String(err)).toMatch(/does not take writes/);
      expect(isTransientDbError(err)).toBe(true);
    }
    const lax = open(readOnly);
    const err = await lax.query('INSERT INTO failover_probe VALUES ($1)', [4]).catch((e: unknown) => e);
    expect(err).toMatchObject({ code: '25006' });
    expect(isTransientDbError(err)).toBe(true);
    expect((await lax.query<{ n: number }>('SELECT 1 AS n')).rows).toEqual([{ n: 1 }]);
  });

  it('When the read-write target is named by PGTARGETSESSIONATTRS, then it holds as if in the URL', async () => {
    const readOnly = readOnlyUrl(t.url ?? '');
    process.env.PGTARGETSESSIONATTRS = 'read-write';
    try {
      const db = open(readOnly);
      await expect(db.query('SELECT 1')).rejects.toBeInstanceOf(NoPrimaryError);
    } finally {
      delete process.env.PGTARGETSESSIONATTRS;
    }
  });
});
