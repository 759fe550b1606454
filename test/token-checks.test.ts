import { randomUUID } from 'node:crypto';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { hashToken, tokenKey, carriesCheck } from '../src/sources/tokens.ts';
import type { Queryable } from '../src/db/index.ts';
import { adminInject, seedSource, watchedTestApp, type TestApp } from './support/app.ts';
import { createTestDb } from './support/db.ts';
import { deliver } from './support/deliver.ts';
import type { FaultyDb } from './support/faulty-db.ts';

// Every token the gateway issues carries a check under the installation's key (src/sources/tokens.ts);
// a token that fails it is refused without a lookup once no source has a token issued before the
// checks (src/sources/token-checks.ts). These run on PGlite and, with TEST_DATABASE_URL, PostgreSQL.

const V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
const lead = (name: string) => ({ name, phone: '(312) 555-0147' });
const lookups = (faulty: FaultyDb) => faulty.state.seen.filter((sql) => sql.includes('token_hash = ANY'));

/** An agent and a source whose token was issued before the checks (a random UUID), straight into the tables. */
async function insertOldSource(
  db: Queryable,
  active: boolean,
): Promise<{ source_id: string; token: string }> {
  const agentId = randomUUID();
  const sourceId = randomUUID();
  const token = randomUUID();
  await db.query(
    `INSERT INTO agents (agent_id, name, timezone) VALUES ($1, 'Old Agent', 'America/Chicago')`,
    [agentId],
  );
  await db.query(
    `INSERT INTO sources (agent_id, source_id, name, token_hash, active) VALUES ($1, $2, 'Old source', $3, $4)`,
    [agentId, sourceId, hashToken(token), active],
  );
  return { source_id: sourceId, token };
}

/**
 * A test app, watched, over a database that already holds a source whose token was issued before
 * the checks (an upgraded installation), active or not.
 */
async function appWithOldSource(active: boolean) {
  let old = { source_id: '', token: '' };
  const watched = await watchedTestApp({
    before: async (db) => {
      old = await insertOldSource(db, active);
    },
  });
  return { ...watched, old };
}

/** Delivers with a made-up token: refused 401; returns how many token lookups reached the database. */
async function madeUpLookups(t: TestApp, faulty: FaultyDb): Promise<number> {
  faulty.state.seen.length = 0;
  expect((await deliver(t.app, randomUUID(), lead('Nobody'))).statusCode).toBe(401);
  return lookups(faulty).length;
}

afterEach(() => {
  vi.useRealTimers();
});

describe('checked source tokens', () => {
  it("When a source is created, then its token is a version-4 UUID carrying the installation's check, and made-up tokens are refused 401 without a lookup", async () => {
    const { t, faulty, close } = await watchedTestApp();
    try {
      const { token } = await seedSource(t.db, 'Fresh Agent');
      expect(token).toMatch(V4);
      expect(carriesCheck(token, await tokenKey(t.db))).toBe(true);
      faulty.state.seen.length = 0;
      const typo = `${token.slice(0, 35)}${token.endsWith('0') ? '1' : '0'}`;
      for (const madeUp of [randomUUID(), randomUUID(), typo]) {
        for (const via of ['header', 'path'] as const) {
          const res = await deliver(t.app, madeUp, lead('Nobody'), { via });
          expect(res.statusCode).toBe(401);
          expect(res.json().error_code).toBe('INVALID_SOURCE_TOKEN');
        }
      }
      expect(lookups(faulty)).toEqual([]);
      expect((await deliver(t.app, token, lead('Real Lead'))).statusCode).toBe(200);
      expect(lookups(faulty)).toHaveLength(1);
    } finally {
      await close();
    }
  });

  it('When a source still has a token issued before the checks, then it delivers, made-up tokens are looked up, and once it is regenerated they are refused without one', async () => {
    const { t, faulty, old, close } = await appWithOldSource(true);
    try {
      expect((await deliver(t.app, old.token, lead('Old Token Lead'))).statusCode).toBe(200);
      expect(await madeUpLookups(t, faulty)).toBe(1);

      const regenerated = await adminInject(t.app, 'POST', `/sources/${old.source_id}/regenerate`);
      expect(regenerated.statusCode).toBe(200);
      const { token } = regenerated.json<{ token: string }>();
      expect(carriesCheck(token, await tokenKey(t.db))).toBe(true);
      expect((await deliver(t.app, old.token, lead('Revoked'))).statusCode).toBe(401);

      // The process asks again a minute after it last asked: from then on, no lookup.
      vi.useFakeTimers({ toFake: ['Date'] });
      vi.setSystemTime(Date.now() + 61_000);
      let looked = 1;
      for (let i = 0; i < 40 && looked > 0; i++) {
        looked = await madeUpLookups(t, faulty);
        if (looked > 0) await new Promise((resolve) => setTimeout(resolve, 50));
      }
      expect(looked).toBe(0);
      expect((await deliver(t.app, token, lead('New Token Lead'))).statusCode).toBe(200);
    } finally {
      await close();
    }
  });

  it('When a disabled source still has a token issued before the checks, then enabling it again makes that token deliver', async () => {
    const { t, faulty, old, close } = await appWithOldSource(false);
    try {
      expect(await madeUpLookups(t, faulty)).toBe(1);
      expect(
        (await adminInject(t.app, 'PATCH', `/sources/${old.source_id}`, { active: true })).statusCode,
      ).toBe(200);
      expect((await deliver(t.app, old.token, lead('Enabled Again'))).statusCode).toBe(200);
    } finally {
      await close();
    }
  });

  it('When several processes make the key at once, then they all keep the one written first', async () => {
    const testDb = await createTestDb();
    try {
      const keys = await Promise.all(Array.from({ length: 6 }, () => tokenKey(testDb.db)));
      expect(new Set(keys.map((k) => k.toString('hex'))).size).toBe(1);
      expect(keys[0]).toHaveLength(32);
    } finally {
      await testDb.cleanup();
    }
  });
});
