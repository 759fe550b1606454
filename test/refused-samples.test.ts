import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { keptRawBody } from '../src/listen/raw-body.ts';
import { purgeExpiredSamples } from '../src/listen/listen-sample-repository.ts';
import { SAMPLE_LIMITS } from '../src/listen/sample-limits.ts';
import { adminInject, createTestApp, seedSource, type TestApp } from './support/app.ts';
import { countRows, deliver } from './support/deliver.ts';

type Json = Record<string, unknown>;

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});

const MISSING_NAME = {
  error: 'Missing required field: name is required',
  error_code: 'MISSING_NAME',
  details:
    'Send the contact’s name as name ("Jane Doe") or as first_name (with last_name when you have it); either will do',
};

async function samples(sourceId: string, query = ''): Promise<Json[]> {
  const res = await adminInject(t.app, 'GET', `/sources/${sourceId}/samples${query}`);
  expect(res.statusCode).toBe(200);
  return res.json<{ samples: Json[] }>().samples;
}

/** Refused samples put in place directly, `minutesAgo` apart, oldest first. */
async function insertRefused(s: { agent_id: string; source_id: string }, count: number): Promise<string[]> {
  const ids: string[] = [];
  for (let i = 0; i < count; i++) {
    const id = randomUUID();
    ids.push(id);
    await t.db.query(
      `INSERT INTO listen_samples (agent_id, sample_id, source_id, listen, received_at, body, raw_body, error_code)
       VALUES ($1, $2, $3, false, now() - make_interval(mins => $4), NULL, 'x', 'INVALID_JSON')`,
      [s.agent_id, id, s.source_id, count - i + 1],
    );
  }
  return ids;
}

describe('a refused live delivery is kept as a sample', () => {
  it('when a lead without a name is refused, then the answer is unchanged and the sample keeps the body, the raw text and the mapping', async () => {
    const s = await seedSource(t.db, 'Nameless Agent');
    const raw = '{"phone":"(214) 555-0100","Q Coverage":"25000", "email":"JO@EXAMPLE.COM"}';

    const res = await deliver(t.app, s.token, undefined, { raw });

    expect(res.statusCode).toBe(400);
    expect(res.body).toBe(JSON.stringify(MISSING_NAME));
    expect(await countRows(t.db, 'leads', 'source_id = $1', [s.source_id])).toBe(0);
    const [sample] = await samples(s.source_id);
    expect(sample).toMatchObject({
      listen: false,
      error_code: 'MISSING_NAME',
      raw_body: raw,
      body: { phone: '(214) 555-0100', 'Q Coverage': '25000', email: 'JO@EXAMPLE.COM' },
      body_format: 'flat',
      mapped: { phone: '2145550100', email: 'jo@example.com' },
      custom_fields: { 'Q Coverage': '25000' },
      would_fire: null,
    });
  });

  it('when a body is not JSON, then INVALID_JSON is answered as before and the exact text is kept with no body', async () => {
    const s = await seedSource(t.db, 'Garbled Agent');
    const raw = "name=Jane Doe&phone=2145550100\n\t{not json} ünïcödé 🙂 'quoted'";

    const res = await deliver(t.app, s.token, undefined, { raw });

    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ error: 'Invalid JSON body', error_code: 'INVALID_JSON' });
    const [sample] = await samples(s.source_id);
    expect(sample).toMatchObject({
      listen: false,
      error_code: 'INVALID_JSON',
      raw_body: raw,
      body: null,
      body_format: null,
      mapped: {},
      custom_fields: {},
      warnings: [],
    });
  });

  it('when a JSON array or an empty body is refused, then the text is kept and the body is null', async () => {
    const s = await seedSource(t.db, 'Array Agent');

    await deliver(t.app, s.token, [{ name: 'Jane Doe' }]);
    await deliver(t.app, s.token, undefined, { raw: '' });

    expect((await samples(s.source_id)).map((x) => [x.raw_body, x.body, x.error_code])).toEqual([
      ['', null, 'INVALID_JSON'],
      ['[{"name":"Jane Doe"}]', null, 'INVALID_JSON'],
    ]);
  });

  it('when the idempotency key is invalid, then INVALID_IDEMPOTENCY_KEY is kept with the mapped lead', async () => {
    const s = await seedSource(t.db, 'Keyed Agent');

    const res = await deliver(t.app, s.token, { name: 'Jane Doe' }, { headers: { 'idempotency-key': '' } });

    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ error_code: 'INVALID_IDEMPOTENCY_KEY' });
    expect((await samples(s.source_id))[0]).toMatchObject({
      listen: false,
      error_code: 'INVALID_IDEMPOTENCY_KEY',
      mapped: { name: 'Jane Doe' },
    });
  });

  it('when a form without a name is refused, then the sample keeps the form text and the form read as an object', async () => {
    const s = await seedSource(t.db, 'Form Agent');
    const raw = 'phone=2145550100&tags=a&tags=b';

    await deliver(t.app, s.token, undefined, {
      raw,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });

    expect((await samples(s.source_id))[0]).toMatchObject({
      raw_body: raw,
      body: { phone: '2145550100', tags: ['a', 'b'] },
      error_code: 'MISSING_NAME',
    });
  });

  it('when a delivery succeeds, is a Listen one, or is refused before its body is read, then no refused sample is kept', async () => {
    const s = await seedSource(t.db, 'Clean Agent');

    await deliver(t.app, s.token, { name: 'Jane Doe' });
    await deliver(t.app, s.token, { phone: '2145550100', listen: true });
    await deliver(t.app, 'not-a-token', { phone: '2145550100' });

    expect((await samples(s.source_id)).map((x) => [x.listen, x.error_code])).toEqual([
      [true, 'MISSING_NAME'],
    ]);
  });

  it('when the body is over 64 KiB, then the first 64 KiB are kept, cut on a character boundary, with a warning', async () => {
    const s = await seedSource(t.db, 'Large Agent');
    // 65,535 ASCII bytes, then a 3-byte euro sign across the cut.
    const raw = `${'x'.repeat(SAMPLE_LIMITS.rawBodyMaxBytes - 1)}€ and more`;

    const res = await deliver(t.app, s.token, undefined, { raw });

    expect(res.json()).toMatchObject({ error_code: 'INVALID_JSON' });
    const [sample] = await samples(s.source_id);
    expect(sample?.raw_body).toBe('x'.repeat(SAMPLE_LIMITS.rawBodyMaxBytes - 1));
    expect(sample?.warnings).toEqual([
      {
        field: 'raw_body',
        code: 'RAW_BODY_TRUNCATED',
        message: `The body was ${Buffer.byteLength(raw)} bytes; only the first 65535 are kept`,
      },
    ]);
  });

  it('when the body holds NUL characters, then they are removed from the kept text with a warning', () => {
    const kept = keptRawBody(Buffer.from('a\u0000b'));

    expect(kept.text).toBe('ab');
    expect(kept.warnings.map((w) => w.code)).toEqual(['UNSTORABLE_CHARACTERS_REMOVED']);
  });

  it('when the sample cannot be stored, then the answer is the same 400 and a warning is logged', async () => {
    const s = await seedSource(t.db, 'Broken Store Agent');
    await t.db.query('ALTER TABLE listen_samples ADD CONSTRAINT only_listen CHECK (listen) NOT VALID');
    try {
      const res = await deliver(t.app, s.token, { phone: '2145550100' });

      expect(res.statusCode).toBe(400);
      expect(res.body).toBe(JSON.stringify(MISSING_NAME));
    } finally {
      await t.db.query('ALTER TABLE listen_samples DROP CONSTRAINT only_listen');
    }
    const warning = t.logs
      .map((line) => JSON.parse(line) as Json)
      .find((l) => l.msg === 'refused delivery not kept as a sample');
    expect(warning).toMatchObject({ level: 40, error_code: 'MISSING_NAME' });
    expect(await samples(s.source_id)).toEqual([]);
  });
});

describe('the flood guard', () => {
  it('when a source already keeps the most refused samples, then a new one replaces the oldest', async () => {
    const s = await seedSource(t.db, 'Flood Agent');
    const ids = await insertRefused(s, SAMPLE_LIMITS.refusedPerSource);
    await deliver(t.app, s.token, { name: 'Listen Lee', listen: true });

    await deliver(t.app, s.token, undefined, { raw: 'newest' });

    const refused = await samples(s.source_id, '?listen=false');
    expect(refused).toHaveLength(SAMPLE_LIMITS.refusedPerSource);
    expect(refused[0]?.raw_body).toBe('newest');
    expect(refused.map((x) => x.sample_id)).not.toContain(ids[0]);
    expect(refused.map((x) => x.sample_id)).toContain(ids[1]);
    // Listen samples do not count against the cap.
    expect(await samples(s.source_id, '?listen=true')).toHaveLength(1);
  });
});

describe('GET /v1/admin/sources/:source_id/samples?listen=', () => {
  it('when listen is true or false, then only that kind is listed; anything else is 400', async () => {
    const s = await seedSource(t.db, 'Filter Agent');
    await deliver(t.app, s.token, { name: 'Listen Lee', listen: true });
    await deliver(t.app, s.token, { phone: '2145550100' });

    const all = await samples(s.source_id);
    const listen = await samples(s.source_id, '?listen=true');
    const refused = await samples(s.source_id, '?listen=false');
    const bad = await adminInject(t.app, 'GET', `/sources/${s.source_id}/samples?listen=yes`);

    expect(all.map((x) => x.listen)).toEqual([false, true]);
    expect(listen.map((x) => x.listen)).toEqual([true]);
    expect(refused.map((x) => x.listen)).toEqual([false]);
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toMatchObject({
      error_code: 'VALIDATION_ERROR',
      details: 'listen must be true or false',
    });
  });
});

describe('retention', () => {
  it('when samples are purged, then those older than 30 days are gone and younger ones stay', async () => {
    const s = await seedSource(t.db, 'Old Samples Agent');
    const insert = (daysAgo: number, listen: boolean) =>
      t.db.query(
        `INSERT INTO listen_samples (agent_id, sample_id, source_id, listen, received_at, body)
         VALUES ($1, $2, $3, $4, now() - make_interval(days => $5), '{}') RETURNING sample_id`,
        [s.agent_id, randomUUID(), s.source_id, listen, daysAgo],
      );
    await insert(SAMPLE_LIMITS.retentionDays + 1, true);
    await insert(SAMPLE_LIMITS.retentionDays + 5, false);
    await insert(SAMPLE_LIMITS.retentionDays - 1, true);

    const purged = await purgeExpiredSamples(t.db);

    expect(purged).toBe(2);
    expect(await countRows(t.db, 'listen_samples', 'source_id = $1', [s.source_id])).toBe(1);
    expect(await purgeExpiredSamples(t.db)).toBe(0);
  });
});
