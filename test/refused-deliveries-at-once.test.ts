import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SAMPLE_LIMITS } from '../src/listen/sample-limits.ts';
import { seedSource, watchedTestApp, type TestApp } from './support/app.ts';
import { whileFailing, type FaultyDb } from './support/faulty-db.ts';
import { countRows, deliver, deliverInParallel } from './support/deliver.ts';

// A live delivery refused with 400 is kept as a sample for the agent (src/gateway/refused-sample.ts).
// Its insert checks the token itself, as a Listen sample's does, so a broken integration posting in a
// loop with a token the process remembers costs one statement a moment, not a lookup and two writes
// a request; the same statement keeps the source's newest refused samples and forgets the rest.

let t: TestApp;
let faulty: FaultyDb;
let url: string;
let close: () => Promise<void>;

beforeAll(async () => ({ t, faulty, url, close } = await watchedTestApp()));
afterAll(() => close());

const LIMIT = SAMPLE_LIMITS.refusedPerSource;
const nameless = (i: number) => ({ phone: `(214) 555-${String(2000 + i)}`, note: `broken ${i}` });
const refusedInserts = () =>
  faulty.state.seen.filter((sql) => sql.includes('INSERT INTO listen_samples') && sql.includes('trimmed'));
const shared = (sql: string) => sql.includes('json_to_recordset');

/** Refused samples put in place directly, a minute apart, oldest first; their ids in that order. */
async function olderRefused(s: { agent_id: string; source_id: string }, count: number): Promise<string[]> {
  const ids = Array.from({ length: count }, () => randomUUID());
  await t.db.query(
    `INSERT INTO listen_samples (agent_id, sample_id, source_id, listen, received_at, body, raw_body, error_code)
     SELECT $1, id, $2, false, now() - make_interval(mins => $4 - i::int), NULL, 'old', 'INVALID_JSON'
       FROM unnest($3::uuid[]) WITH ORDINALITY AS o (id, i)`,
    [s.agent_id, s.source_id, ids, count + 1],
  );
  return ids;
}

async function refusedOf(sourceId: string): Promise<Array<{ sample_id: string; raw_body: string }>> {
  const { rows } = await t.db.query<{ sample_id: string; raw_body: string }>(
    `SELECT sample_id, raw_body FROM listen_samples WHERE source_id = $1 AND NOT listen
      ORDER BY received_at DESC, sample_id DESC`,
    [sourceId],
  );
  return rows;
}

/**
 * After `n` refused deliveries at once: each kept, with the newest of the older ones, and at most `n`
 * more than the limit (statements running side by side on PostgreSQL each see only what the others
 * had committed when it began, so each trims to the limit less its own); the next refused delivery
 * trims back to exactly the limit, the newest first.
 */
async function keepsTheNewest(
  s: { source_id: string; token: string },
  n: number,
  older: string[],
): Promise<void> {
  const kept = await refusedOf(s.source_id);
  expect(kept.length).toBeGreaterThanOrEqual(LIMIT);
  expect(kept.length).toBeLessThanOrEqual(LIMIT + n);
  expect(kept.filter((r) => r.raw_body !== 'old')).toHaveLength(n);
  expect(kept.slice(n).map((r) => r.sample_id)).toEqual(older.slice(-(kept.length - n)).reverse());

  expect((await deliver(t.app, s.token, null, { raw: 'one more' })).statusCode).toBe(400);

  const after = await refusedOf(s.source_id);
  expect(after).toHaveLength(LIMIT);
  expect(after[0]?.raw_body).toBe('one more');
  expect(after.slice(1, n + 1).every((r) => r.raw_body !== 'old')).toBe(true);
  expect(after.slice(n + 1).map((r) => r.sample_id)).toEqual(older.slice(-(LIMIT - n - 1)).reverse());
}

describe('refused deliveries from a broken integration posting in a loop', () => {
  it('When refused deliveries come with a token the process remembers, then no lookup is made: the insert checks the token', async () => {
    const s = await seedSource(t.db, 'Refused Remembered Agent');
    expect((await deliver(t.app, s.token, { name: 'First Lead' })).statusCode).toBe(200);
    faulty.state.seen.length = 0;

    const answers = await deliverInParallel([url], s.token, 8, nameless);
    const notJson = await deliver(t.app, s.token, null, { raw: '{"name": "Cut Off", ' });

    expect(answers.map((a) => a.status)).toEqual(Array<number>(8).fill(400));
    expect(answers.map((a) => a.body.error_code)).toEqual(Array<string>(8).fill('MISSING_NAME'));
    expect(notJson.statusCode).toBe(400);
    expect(notJson.json()).toMatchObject({ error_code: 'INVALID_JSON' });
    expect(faulty.state.seen.filter((sql) => sql.includes('token_hash = ANY'))).toEqual([]);
    expect(refusedInserts().length).toBeGreaterThan(0);
    expect(faulty.state.seen.filter((sql) => sql.startsWith('DELETE'))).toEqual([]);
    expect((await refusedOf(s.source_id)).map((r) => r.raw_body)).toContain('{"name": "Cut Off", ');
    expect(await countRows(t.db, 'listen_samples', 'source_id = $1', [s.source_id])).toBe(9);
  });

  it('When refused deliveries arrive at once at a source that keeps the most, then it keeps exactly the newest', async () => {
    const s = await seedSource(t.db, 'Refused Flood Agent');
    const older = await olderRefused(s, LIMIT);
    const n = 30;
    faulty.state.seen.length = 0;

    const answers = await deliverInParallel([url], s.token, n, nameless);

    expect(answers.map((a) => a.status)).toEqual(Array<number>(n).fill(400));
    expect(refusedInserts().some(shared)).toBe(true);
    await keepsTheNewest(s, n, older);
  });

  it('When the shared statement fails, then each refused delivery is kept by itself, and the newest are kept', async () => {
    const s = await seedSource(t.db, 'Refused Fallback Agent');
    const older = await olderRefused(s, LIMIT);
    const n = 12;
    faulty.state.seen.length = 0;
    const answers = await whileFailing(
      faulty,
      (sql) => refusedInserts().includes(sql) && shared(sql),
      () => deliverInParallel([url], s.token, n, nameless),
    );
    expect(answers.map((a) => a.status)).toEqual(Array<number>(n).fill(400));
    expect(refusedInserts().some(shared)).toBe(true);
    expect(refusedInserts().filter((sql) => !shared(sql))).toHaveLength(n);
    await keepsTheNewest(s, n, older);
  });

  it('When a Listen sample comes among refused ones, then it is not counted against their limit', async () => {
    const s = await seedSource(t.db, 'Refused Beside Listen Agent');
    await olderRefused(s, LIMIT);
    expect((await deliver(t.app, s.token, { name: 'Listen Lee', listen: true })).statusCode).toBe(200);

    const answers = await deliverInParallel([url], s.token, 5, nameless);

    expect(answers.map((a) => a.status)).toEqual(Array<number>(5).fill(400));
    const kept = await refusedOf(s.source_id);
    expect(kept).toHaveLength(LIMIT);
    expect(kept.filter((r) => r.raw_body !== 'old')).toHaveLength(5);
    expect(await countRows(t.db, 'listen_samples', 'source_id = $1 AND listen', [s.source_id])).toBe(1);
  });
});
