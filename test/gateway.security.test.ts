import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../src/app.ts';
import { regenerateSourceToken, updateSource } from '../src/sources/source-repository.ts';
import { ADMIN_KEY, TEST_SECRETS, createTestApp, seedSource, type TestApp } from './support/app.ts';
import { countRows, deliver, GATEWAY } from './support/deliver.ts';
import { loadLead } from './support/lead-rows.ts';

let t: TestApp;
let src: { agent_id: string; source_id: string; token: string };

beforeAll(async () => {
  t = await createTestApp();
  src = await seedSource(t.db);
});
afterAll(() => t.close());

describe('token isolation', () => {
  it('when two agents each deliver with their own token, then each lead lands with its own agent only', async () => {
    const other = await seedSource(t.db, 'Agent Two');
    const a = (await deliver(t.app, src.token, { name: 'Ann One', phone: '2145550001' })).json();
    const b = (await deliver(t.app, other.token, { name: 'Ann One', phone: '2145550001' })).json();
    expect(a.agent_id).toBe(src.agent_id);
    expect(b.agent_id).toBe(other.agent_id);
    expect(a.lead_id).not.toBe(b.lead_id);
    expect(
      await countRows(t.db, 'leads', 'agent_id = $1 AND lead_id = $2', [other.agent_id, a.lead_id]),
    ).toBe(0);
  });

  it('when a token is regenerated, then the old one is refused on the very next request by every instance', async () => {
    const s = await seedSource(t.db, 'Regen Agent');
    const second = await buildApp({
      db: t.db,
      adminApiKey: ADMIN_KEY,
      secrets: TEST_SECRETS,
      publicBaseUrl: 'http://x/v1',
      rateLimit: { rps: 0, burst: 1 },
      logLevel: 'silent',
      maxEventLoopDelayMs: 0, // as the test app: a busy machine is not an overloaded server
    });
    try {
      expect((await deliver(second, s.token, { name: 'Before Regen' })).statusCode).toBe(200);
      const regenerated = await regenerateSourceToken(t.db, s.source_id);
      const fresh = regenerated?.token ?? '';
      for (const app of [t.app, second]) {
        expect((await deliver(app, s.token, { name: 'Old Token' })).json().error_code).toBe(
          'INVALID_SOURCE_TOKEN',
        );
        expect((await deliver(app, fresh, { name: 'New Token' })).statusCode).toBe(200);
      }
      await updateSource(t.db, s.source_id, { active: false });
      for (const app of [t.app, second]) {
        expect((await deliver(app, fresh, { name: 'Disabled' })).json().error_code).toBe(
          'INVALID_SOURCE_TOKEN',
        );
      }
    } finally {
      await second.close();
    }
  });

  it('when the token is sent in upper case, then it is the same token', async () => {
    expect((await deliver(t.app, src.token.toUpperCase(), { name: 'Upper Case' })).statusCode).toBe(200);
  });

  it('when sources are stored, then only a SHA-256 hash of the token is kept', async () => {
    const { rows } = await t.db.query<Record<string, unknown>>('SELECT * FROM sources WHERE source_id = $1', [
      src.source_id,
    ]);
    expect(JSON.stringify(rows)).not.toContain(src.token);
    expect(rows[0]?.token_hash).toMatch(/^[0-9a-f]{64}$/);
  });
});

describe('hostile bodies: never a 500, never a crash, never a lost field', () => {
  it('when keys are __proto__ and constructor, then they are kept as plain custom fields', async () => {
    const raw =
      '{"name":"Proto Pete","__proto__":{"polluted":true},"constructor":{"prototype":{"x":1}},"toString":"s"}';
    const res = await deliver(t.app, src.token, null, { raw });
    expect(res.statusCode).toBe(200);
    const stored = await loadLead(t.db, res.json().lead_id);
    expect(Object.hasOwn(stored?.custom_fields ?? {}, '__proto__')).toBe(true);
    expect(JSON.stringify(stored?.custom_fields)).toContain('"__proto__":{"polluted":true}');
    expect(stored?.custom_fields.constructor).toEqual({ prototype: { x: 1 } });
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('when a string holds a NUL character or a lone surrogate, then it is removed with a warning naming the field', async () => {
    const raw = '{"name":"Nul\\u0000 Ned","city":"Aus\\ud800tin","custom_fields":{"note":"a\\u0000b"}}';
    const res = await deliver(t.app, src.token, null, { raw });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    const fields = body.warnings.map((w: { field: string }) => w.field);
    expect(fields).toEqual(expect.arrayContaining(['name', 'city', 'custom_fields']));
    const stored = await loadLead(t.db, body.lead_id);
    expect(stored).toMatchObject({ name: 'Nul Ned', city: 'Austin' });
    expect(stored?.custom_fields).toEqual({ note: 'ab' });
  });

  it('when emoji and right-to-left text are sent, then they round-trip unchanged', async () => {
    const res = await deliver(t.app, src.token, { name: 'Zoë 😀 محمد', notes: 'שלום 👋🏽' });
    const stored = await loadLead(t.db, res.json().lead_id);
    expect(stored).toMatchObject({ name: 'Zoë 😀 محمد', notes: 'שלום 👋🏽' });
  });

  it('when JSON is nested 5,000 deep, then 400 INVALID_JSON and the server keeps serving', async () => {
    const raw = `{"name":"Deep","x":${'['.repeat(5000)}${']'.repeat(5000)}}`;
    const res = await deliver(t.app, src.token, null, { raw });
    expect(res.statusCode).toBe(400);
    expect(res.json().error_code).toBe('INVALID_JSON');
    const listen = `{"name":"Deep","listen":true,"x":${'{"a":'.repeat(5000)}1${'}'.repeat(5000)}}`;
    expect((await deliver(t.app, src.token, null, { raw: listen })).statusCode).toBe(400);
    expect((await deliver(t.app, src.token, { name: 'Still Up' })).statusCode).toBe(200);
  });

  it('when 1,000 unknown keys are sent, then every one is kept in custom_fields', async () => {
    const body: Record<string, string> = { name: 'Many Keys' };
    for (let i = 0; i < 1000; i++) body[`vendor_field_${i}`] = `value ${i}`;
    const res = await deliver(t.app, src.token, body);
    expect(res.statusCode).toBe(200);
    const stored = await loadLead(t.db, res.json().lead_id);
    expect(Object.keys(stored?.custom_fields ?? {})).toHaveLength(1000);
    expect(stored?.custom_fields.vendor_field_999).toBe('value 999');
  });

  it('when values have the wrong types, then the lead is still created and the raw values kept', async () => {
    const res = await deliver(t.app, src.token, {
      name: 'Type Mix',
      age: 'fifteen',
      smoker: 'maybe',
      tags: { a: 1 },
      custom_fields: 'not an object',
      city: ['a', 'b'],
    });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    const stored = await loadLead(t.db, body.lead_id);
    expect(stored?.custom_fields).toMatchObject({
      age: 'fifteen',
      smoker: 'maybe',
      tags: { a: 1 },
      city: ['a', 'b'],
      custom_fields: 'not an object',
    });
    expect(body.warnings.length).toBeGreaterThanOrEqual(5);
  });

  it('when the body is not valid UTF-8 or has a BOM, then no 500', async () => {
    const bad = Buffer.concat([Buffer.from('{"name":"Bad '), Buffer.from([0xff, 0xfe]), Buffer.from('"}')]);
    const res = await t.app.inject({
      method: 'POST',
      url: GATEWAY,
      headers: { 'x-source-token': src.token, 'content-type': 'application/json' },
      payload: bad,
    });
    expect(res.statusCode).toBe(200);
    const bom = await deliver(t.app, src.token, null, { raw: '\uFEFF{"name":"Bom Bob"}' });
    expect(bom.statusCode).toBe(200);
  });
});

describe('logs', () => {
  it('when tokens travel in headers, paths and errors, then no token ever appears in the log', async () => {
    const s = await seedSource(t.db, 'Logged Agent');
    await deliver(t.app, s.token, { name: 'Log Header' });
    await deliver(t.app, s.token, { name: 'Log Path' }, { via: 'path' });
    await deliver(t.app, s.token, null, { via: 'path', raw: '{bad' });
    await t.app.inject({ method: 'GET', url: `${GATEWAY}/v/${s.token}` });
    await t.app.inject({ method: 'POST', url: `${GATEWAY}/v/${s.token}/extra?token=${s.token}` });
    await deliver(t.app, `${s.token.slice(0, 30)}zzzzzz`, { name: 'Bad Token' }, { via: 'path' });
    // Paths a sender gets wrong still carry the token: without /v/, upper case, the slash encoded,
    // at the root, and one Fastify cannot decode (its own answer would quote the path).
    for (const url of [
      `${GATEWAY}/${s.token}`,
      `${GATEWAY}/V/${s.token}`,
      `${GATEWAY}/v%2F${s.token}`,
      `/${s.token}`,
      `/v1/${s.token.replace(/-/g, '')}/leads`,
      // Percent-encoded: the route decodes them, and so must the redaction.
      `/v1/inbound-lead-gatew%61y/v/${s.token.replace(/-/g, '%2D')}`,
      `/v1/inbound-lead-gateway/v/${[...s.token].map((c) => `%${c.charCodeAt(0).toString(16)}`).join('')}`,
      `/v1/admin%2F..%2F${s.token.replace(/-/g, '%2d')}`,
      `/elsewhere/${s.token.replace(/-/g, '%2D')}`,
    ]) {
      const res = await t.app.inject({ method: 'POST', url, payload: { name: 'Wrong Path' } });
      expect(res.body).not.toContain(s.token.slice(0, 8));
    }
    const bad = await t.app.inject({ method: 'POST', url: `${GATEWAY}/v/${s.token}%zz` });
    expect(bad.statusCode).toBe(404);
    expect(bad.json()).toMatchObject({ error_code: 'NOT_FOUND' });
    expect(bad.body).not.toContain(s.token.slice(0, 8));
    const log = t.logs.join('');
    expect(log).toContain('[REDACTED]');
    expect(log).not.toContain(s.token);
    expect(log).not.toContain(s.token.slice(0, 30));
    // The token's first and last groups, whatever came between them in the path (a 4-digit group
    // would be found by chance in the log's other ids).
    const groups = s.token.split('-');
    for (const part of [groups[0], groups[4]]) expect(log).not.toContain(part);
    expect(log).not.toContain(s.token.replace(/-/g, '').slice(0, 20));
    expect(log).toMatch(/"reqId":"[0-9a-f-]{36}"/);
  });

  it('when a delivery is answered, then its request is one log line, with the outcome, lead, status and time taken', async () => {
    const s = await seedSource(t.db, 'One Line Agent');
    const linesOf = (res: { headers: Record<string, unknown> }) =>
      t.logs
        .join('')
        .split('\n')
        .filter((line) => line.includes(`"reqId":"${String(res.headers['x-request-id'])}"`))
        .map((line) => JSON.parse(line) as Record<string, unknown>);
    const created = await deliver(t.app, s.token, { name: 'One Line', phone: '2145550870' });
    const refused = await deliver(t.app, s.token, { phone: '2145550871' });
    const [line, ...more] = linesOf(created);
    expect(more).toEqual([]);
    expect(line).toMatchObject({
      msg: 'request completed',
      req: { method: 'POST', url: GATEWAY },
      res: { statusCode: 200 },
      outcome: 'created',
      lead_id: created.json().lead_id,
      status: 'New',
    });
    expect(typeof line?.responseTime).toBe('number');
    expect(linesOf(refused)).toEqual([
      expect.objectContaining({
        msg: 'request completed',
        res: { statusCode: 400 },
        error_code: 'MISSING_NAME',
      }),
    ]);
  });

  it('when the level is warn, then an answered delivery writes no line', async () => {
    const quiet = await createTestApp({ testDb: t.testDb, logLevel: 'warn' });
    try {
      const s = await seedSource(t.db, 'Quiet Agent');
      expect((await deliver(quiet.app, s.token, { name: 'Quiet Quinn' })).statusCode).toBe(200);
      expect(quiet.logs).toEqual([]);
    } finally {
      await quiet.close();
    }
  });
});
