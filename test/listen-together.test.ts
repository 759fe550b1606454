import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, seedSource, type TestApp } from './support/app.ts';
import { createTestDb, type TestDb } from './support/db.ts';
import { deliver, deliverInParallel } from './support/deliver.ts';
import { faultyDb } from './support/faulty-db.ts';

// Listen samples that arrive at the same moment are stored by one statement (db/together.ts, from
// src/listen/listen-sample-repository.ts): over real HTTP, each must be stored as it would be alone,
// and a shared statement that fails must leave each sample to be stored by itself.

let testDb: TestDb;
let faulty: ReturnType<typeof faultyDb>;
let t: TestApp;
let url: string;

beforeAll(async () => {
  testDb = await createTestDb();
  faulty = faultyDb(testDb.db);
  t = await createTestApp({ db: faulty.db, testDb });
  url = await t.app.listen({ port: 0, host: '127.0.0.1' });
});
afterAll(async () => {
  await t.close();
  await testDb.cleanup();
});

const inserts = () => faulty.state.seen.filter((sql) => sql.startsWith('INSERT INTO listen_samples'));
const shared = (sql: string) => sql.includes('json_to_recordset');
const body = (i: number) => ({
  listen: true,
  name: `Lena Listen ${i}`,
  phone: `(214) 555-${String(1000 + i)}`,
  email: `lena${i}@example.com`,
  zip: '75201',
  favorite_color: i % 2 === 0 ? 'teal' : null,
});

/** What a stored sample says about its body, ids and time aside. */
async function samplesOf(sourceId: string): Promise<Map<string, unknown>> {
  const { rows } = await t.db.query<Record<string, unknown> & { body: { name: string } }>(
    `SELECT listen, body, raw_body, body_format, mapped, custom_fields, warnings, error_code,
            would_fire->'outcome' AS outcome, would_fire->'events' AS events
       FROM listen_samples WHERE source_id = $1`,
    [sourceId],
  );
  return new Map(rows.map((r) => [r.body.name, r]));
}

describe('Listen samples stored together', () => {
  it('When Listen samples arrive at once, then they share statements, and each is stored as it would be alone', async () => {
    const alone = await seedSource(t.db, 'Listen Alone Agent');
    const together = await seedSource(t.db, 'Listen Together Agent');
    const n = 24;
    for (let i = 0; i < n; i++) expect((await deliver(t.app, alone.token, body(i))).statusCode).toBe(200);

    faulty.state.seen.length = 0;
    const answers = await deliverInParallel([url], together.token, n, body);
    expect(answers.map((a) => a.status)).toEqual(Array<number>(n).fill(200));
    expect(inserts().length).toBeLessThan(n);
    expect(inserts().some(shared)).toBe(true);

    const [one, many] = [await samplesOf(alone.source_id), await samplesOf(together.source_id)];
    expect(many.size).toBe(n);
    expect(many.get('Lena Listen 7')).toMatchObject({
      mapped: { name: 'Lena Listen 7', phone: '2145551007', email: 'lena7@example.com' },
      outcome: 'create',
      error_code: null,
    });
    expect(many).toEqual(one);
  });

  it('When the shared statement fails, then each of its samples is stored by itself', async () => {
    const s = await seedSource(t.db, 'Listen Fallback Agent');
    const n = 12;
    faulty.state.seen.length = 0;
    faulty.state.failWhen = (sql) => sql.startsWith('INSERT INTO listen_samples') && shared(sql);
    try {
      const answers = await deliverInParallel([url], s.token, n, body);
      expect(answers.map((a) => a.status)).toEqual(Array<number>(n).fill(200));
    } finally {
      faulty.state.failWhen = undefined;
    }
    expect(inserts().some(shared)).toBe(true);
    expect(inserts().filter((sql) => !shared(sql))).toHaveLength(n);
    expect((await samplesOf(s.source_id)).size).toBe(n);
  });
});
