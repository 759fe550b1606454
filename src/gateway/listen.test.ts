import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDb, type TestDb } from '../../test/support/db.ts';
import { seedSource } from '../../test/support/app.ts';
import type { Database } from '../db/index.ts';
import { findActiveSourceByToken } from '../sources/source-repository.ts';
import { recordListenSample } from './listen.ts';
import { prepareSourceLead } from './source-rules.ts';

let t: TestDb;
beforeAll(async () => {
  t = await createTestDb();
});
afterAll(() => t.cleanup());

/** The test database, counting the statements in flight at once. */
function counted(db: Database) {
  const seen = { statements: 0, inFlight: 0, most: 0 };
  const wrapped: Database = {
    kind: db.kind,
    async query(sql, params) {
      seen.statements++;
      seen.most = Math.max(seen.most, ++seen.inFlight);
      try {
        return await db.query(sql, params);
      } finally {
        seen.inFlight--;
      }
    },
    withTransaction: (fn) => db.withTransaction(fn),
    close: () => db.close(),
  };
  return { db: wrapped, seen };
}

describe('a Listen delivery', () => {
  it('When it is previewed, then its reads (the contact by phone and email, the agent, the destinations, opt-outs and texts) go side by side before the sample is stored', async () => {
    const s = await seedSource(t.db, 'Listen Reads Agent');
    const source = await findActiveSourceByToken(t.db, s.token);
    if (!source) throw new Error('no source');
    const body = {
      name: 'Lena Listen',
      phone: '2145550330',
      email: 'lena@example.com',
      sms_consent: 'yes',
      listen: true,
    };
    const { db, seen } = counted(t.db);
    const result = await recordListenSample(db, source, body, prepareSourceLead(body, source));
    expect(result).toEqual({ kind: 'listened' });
    expect(seen.statements).toBeGreaterThanOrEqual(6);
    // One after another, at most one statement would be in flight.
    expect(seen.most).toBeGreaterThanOrEqual(4);
    const { rows } = await t.db.query<{ would_fire: { outcome: string } }>(
      'SELECT would_fire FROM listen_samples WHERE agent_id = $1',
      [s.agent_id],
    );
    expect(rows.map((r) => r.would_fire.outcome)).toEqual(['create']);
  });
});
