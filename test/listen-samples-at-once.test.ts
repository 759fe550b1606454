import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addDestination, seedSource, watchedTestApp, type TestApp } from './support/app.ts';
import { whileFailing, type FaultyDb } from './support/faulty-db.ts';
import { deliver, deliverInParallel } from './support/deliver.ts';

// Listen samples that arrive at the same moment are stored by one statement, and their previews
// (what a live delivery would fire) read by one statement (db/together.ts, from
// src/listen/listen-sample-repository.ts and src/automations/preview.ts): over real HTTP, each must
// be stored and previewed as it would be alone, and a shared statement that fails must leave each
// sample to be stored, or previewed, by itself.

let t: TestApp;
let faulty: FaultyDb;
let url: string;
let close: () => Promise<void>;

beforeAll(async () => ({ t, faulty, url, close } = await watchedTestApp()));
afterAll(() => close());

const inserts = () => faulty.state.seen.filter((sql) => sql.includes('INSERT INTO listen_samples'));
const previewReads = () => faulty.state.seen.filter((sql) => sql.includes(' AS opted_out'));
const shared = (sql: string) => sql.includes('json_to_recordset');
const body = (i: number) => ({
  listen: true,
  name: `Lena Listen ${i}`,
  phone: `(214) 555-${String(1000 + i)}`,
  email: `lena${i}@example.com`,
  zip: '75201',
  favorite_color: i % 2 === 0 ? 'teal' : null,
});

/**
 * What a stored sample says about its body, ids and time aside: what it would fire without the
 * lead it would merge into (an id of its own agent's) and the text's time (the moment it came).
 */
async function samplesOf(sourceId: string): Promise<Map<string, unknown>> {
  const { rows } = await t.db.query<Record<string, unknown> & { body: { name: string } }>(
    `SELECT listen, body, raw_body, body_format, mapped, custom_fields, warnings, error_code,
            would_fire->'outcome' AS outcome, would_fire->'events' AS events,
            would_fire - 'lead_id' #- '{text,send_at}' AS would_fire
       FROM listen_samples WHERE source_id = $1`,
    [sourceId],
  );
  return new Map(rows.map((r) => [r.body.name, r]));
}

describe('Listen samples that arrive at the same moment', () => {
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
    const answers = await whileFailing(
      faulty,
      (sql) => sql.includes('INSERT INTO listen_samples') && shared(sql),
      () => deliverInParallel([url], s.token, n, body),
    );
    expect(answers.map((a) => a.status)).toEqual(Array<number>(n).fill(200));
    expect(inserts().some(shared)).toBe(true);
    expect(inserts().filter((sql) => !shared(sql))).toHaveLength(n);
    expect((await samplesOf(s.source_id)).size).toBe(n);
  });

  it('When Listen previews are read at once, then they share a read, and each says what it would fire: a merge into the lead its contact names, or a new lead, and the destinations', async () => {
    for (const sharedReadFails of [false, true]) {
      const s = await seedSource(t.db, `Listen Preview Agent ${String(sharedReadFails)}`);
      const added = await addDestination(t.app, s.source_id, { url: 'https://8.8.8.8/hook' });
      expect(added.statusCode).toBe(201);
      const { destination_id } = added.json() as { destination_id: string };
      const n = 24;
      const existing = new Map<number, string>();
      for (let i = 0; i < n; i += 3) {
        const live = await deliver(t.app, s.token, { ...body(i), listen: false });
        expect(live.statusCode).toBe(200);
        existing.set(i, (live.json() as { lead_id: string }).lead_id);
      }

      faulty.state.seen.length = 0;
      if (sharedReadFails) faulty.state.failWhen = (sql) => previewReads().includes(sql) && shared(sql);
      try {
        const answers = await deliverInParallel([url], s.token, n, body);
        expect(answers.map((a) => a.status)).toEqual(Array<number>(n).fill(200));
      } finally {
        faulty.state.failWhen = undefined;
      }
      expect(previewReads().length).toBeLessThan(sharedReadFails ? 2 * n : n);
      expect(previewReads().some(shared)).toBe(true);
      if (sharedReadFails) expect(previewReads().filter((sql) => !shared(sql))).toHaveLength(n);

      const { rows } = await t.db.query<{ name: string; would_fire: Record<string, unknown> }>(
        `SELECT body->>'name' AS name, would_fire FROM listen_samples WHERE source_id = $1`,
        [s.source_id],
      );
      expect(rows).toHaveLength(n);
      for (const r of rows) {
        const i = Number(r.name.replace('Lena Listen ', ''));
        const lead = existing.get(i);
        expect(r.would_fire).toMatchObject({
          outcome: lead ? 'merge' : 'create',
          lead_id: lead ?? null,
          events: [lead ? 'lead.updated' : 'lead.created'],
          destinations: [
            {
              destination_id,
              kind: 'partner_sync',
              url: 'https://8.8.8.8/hook',
              events: [lead ? 'lead.updated' : 'lead.created'],
            },
          ],
        });
      }
    }
  });

  it('When Listen samples come with a token the process remembers, then no lookup is made: the insert checks the token', async () => {
    const s = await seedSource(t.db, 'Listen Remembered Agent');
    expect((await deliver(t.app, s.token, body(0))).statusCode).toBe(200);
    faulty.state.seen.length = 0;
    const answers = await deliverInParallel([url], s.token, 8, (i) => body(i + 1));
    expect(answers.map((a) => a.status)).toEqual(Array<number>(8).fill(200));
    expect(faulty.state.seen.filter((sql) => sql.includes('token_hash = ANY'))).toEqual([]);
    expect(inserts().length).toBeGreaterThan(0);
    expect((await samplesOf(s.source_id)).size).toBe(9);
  });
});
