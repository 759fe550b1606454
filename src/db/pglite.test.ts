import { describe, expect, it } from 'vitest';
import { LIMITS } from '../config.ts';
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
