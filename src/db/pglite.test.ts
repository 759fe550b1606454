import { readFileSync } from 'node:fs';
import { PGlite } from '@electric-sql/pglite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LIMITS } from '../limits.ts';
import type { Database } from './database.ts';
import { createDb } from './index.ts';
import { createPgliteDb } from './pglite.ts';
import { pgliteImage } from '../../test/support/db.ts';

async function sharedBuffers(db: Database): Promise<string | undefined> {
  try {
    const { rows } = await db.query<{ shared_buffers: string }>('SHOW shared_buffers');
    return rows[0]?.shared_buffers;
  } finally {
    await db.close();
  }
}

describe('the embedded database’s shared buffers', () => {
  it('When none are given, then it starts with the default', async () => {
    expect(await sharedBuffers(await createPgliteDb({ image: pgliteImage() }))).toBe(
      `${LIMITS.embeddedSharedBuffersMb}MB`,
    );
  });

  it('When the server is given 24 (EMBEDDED_SHARED_BUFFERS_MB), then its database’s thread starts PGlite with 24 MB', async () => {
    const db = await createDb({ pgliteImage: pgliteImage(), pgliteSharedBuffersMb: 24 });
    expect(await sharedBuffers(db)).toBe('24MB');
  });
});

describe('PGlite’s private API', () => {
  // pglite.ts runs its prepared statements under PGlite's own locks, which PGlite does not export
  // publicly; package.json pins PGlite's exact version, and an upgrade that drops them fails here.
  it('When PGlite is the version pinned, then the two locks pglite.ts calls are there', () => {
    const pinned = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as {
      dependencies: Record<string, string>;
    };
    expect(pinned.dependencies['@electric-sql/pglite']).toMatch(/^\d+\.\d+\.\d+$/);
    expect(typeof PGlite.prototype._runExclusiveQuery).toBe('function');
    expect(typeof PGlite.prototype._runExclusiveTransaction).toBe('function');
  });
});

describe('a prepared execution on the embedded database', () => {
  describe('when a statement runs with values null, empty, accented, emoji and long', () => {
    let db: Database;
    beforeAll(async () => {
      db = await createPgliteDb({ image: pgliteImage() });
    });
    afterAll(() => db.close());

    it('then the database receives each of them whole', async () => {
      const values = ['José Ñúñez', '', null, 'Zoë 👩🏽‍💼 née 李', 'x'.repeat(70_000), '{"a":"ü"}'];
      const { rows } = await db.query<Record<string, string | null>>(
        "SELECT $1::text AS a, $2::text AS b, $3::text AS c, $4::text AS d, length($5::text) AS e, $6::json->>'a' AS f",
        values,
      );
      expect(rows[0]).toEqual({ a: 'José Ñúñez', b: '', c: null, d: 'Zoë 👩🏽‍💼 née 李', e: 70_000, f: 'ü' });
    });
  });
});
