import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { updateSource } from '../src/sources/source-repository.ts';
import { createTestApp, seedSource, type TestApp } from './support/app.ts';
import { deliver, GATEWAY } from './support/deliver.ts';

let t: TestApp;
let src: { agent_id: string; source_id: string; token: string };
const lead = { name: 'Jane Doe', phone: '5551234567' };

beforeAll(async () => {
  t = await createTestApp();
  src = await seedSource(t.db);
});
afterAll(() => t.close());

function expectError(
  res: { statusCode: number; json(): unknown },
  status: number,
  code: string,
  error: string,
) {
  expect(res.statusCode).toBe(status);
  const body = res.json() as Record<string, unknown>;
  expect(body.error_code).toBe(code);
  expect(body.error).toBe(error);
  expect(Object.keys(body).every((k) => ['error', 'error_code', 'details'].includes(k))).toBe(true);
}

describe('the contract’s error table', () => {
  for (const via of ['header', 'path'] as const) {
    describe(`with the token in the ${via}`, () => {
      it('when no token is sent, then 401 MISSING_SOURCE_TOKEN', async () => {
        const res =
          via === 'header'
            ? await deliver(t.app, undefined, lead)
            : await deliver(t.app, '', lead, { via: 'path' });
        expectError(res, 401, 'MISSING_SOURCE_TOKEN', 'Missing x-source-token');
      });

      it('when the token is unknown, then 401 INVALID_SOURCE_TOKEN', async () => {
        const res = await deliver(t.app, '00000000-0000-4000-8000-000000000000', lead, { via });
        expectError(res, 401, 'INVALID_SOURCE_TOKEN', 'Invalid or inactive token');
      });

      it('when the token is not a 36-character UUID, then 401 INVALID_SOURCE_TOKEN', async () => {
        for (const bad of ['abc', `${src.token}x`, src.token.slice(0, 35), "' OR 1=1 --"]) {
          const res = await deliver(t.app, bad, lead, { via });
          expectError(res, 401, 'INVALID_SOURCE_TOKEN', 'Invalid or inactive token');
        }
      });

      it('when neither name nor first_name is given, then 400 MISSING_NAME', async () => {
        for (const body of [{ phone: '5551234567' }, { name: '   ' }, { last_name: 'Doe' }, { name: '' }]) {
          const res = await deliver(t.app, src.token, body, { via });
          expectError(res, 400, 'MISSING_NAME', 'Missing required field: name is required');
        }
      });

      it('when the body is not JSON, then 400 INVALID_JSON', async () => {
        const res = await deliver(t.app, src.token, null, { via, raw: '{"name": "Jane",' });
        expectError(res, 400, 'INVALID_JSON', 'Invalid JSON body');
      });

      it('when the body is JSON but not an object, then 400 INVALID_JSON saying so', async () => {
        for (const raw of ['[]', '"Jane"', '42', 'null', 'true', '', '   ']) {
          const res = await deliver(t.app, src.token, null, { via, raw });
          expectError(res, 400, 'INVALID_JSON', 'Invalid JSON body');
          expect((res.json() as { details: string }).details).toMatch(/JSON object/);
        }
      });
    });
  }

  it('when a method other than POST is used, then 405 with Allow: POST on both paths', async () => {
    for (const url of [GATEWAY, `${GATEWAY}/v/${src.token}`, `${GATEWAY}/v/`]) {
      for (const method of ['GET', 'PUT', 'PATCH', 'DELETE', 'OPTIONS', 'HEAD'] as const) {
        const res = await t.app.inject({ method, url });
        expect(res.statusCode, `${method} ${url}`).toBe(405);
        expect(res.headers.allow).toBe('POST');
        if (method !== 'HEAD') expectError(res, 405, 'METHOD_NOT_ALLOWED', 'Method not allowed');
      }
    }
  });

  it('when the source is disabled, then 401 INVALID_SOURCE_TOKEN', async () => {
    const other = await seedSource(t.db, 'Disabled Agent');
    await updateSource(t.db, other.source_id, { active: false });
    expectError(
      await deliver(t.app, other.token, lead),
      401,
      'INVALID_SOURCE_TOKEN',
      'Invalid or inactive token',
    );
  });
});

describe('decisions (docs/decisions/0002–0008)', () => {
  it('when header and path tokens differ, then 401 INVALID_SOURCE_TOKEN saying they differ', async () => {
    const other = await seedSource(t.db, 'Other Agent');
    const res = await deliver(t.app, src.token, lead, {
      via: 'path',
      headers: { 'x-source-token': other.token },
    });
    expectError(res, 401, 'INVALID_SOURCE_TOKEN', 'Invalid or inactive token');
    expect((res.json() as { details: string }).details).toMatch(/differ/);
  });

  it('when the body cannot be read (its Content-Length lies), then 400 INVALID_JSON, not a 500', async () => {
    const res = await deliver(t.app, src.token, lead, { headers: { 'content-length': '100' } });
    expectError(res, 400, 'INVALID_JSON', 'Invalid JSON body');
    expect((res.json() as { details: string }).details).toBe('The body could not be read');
  });

  it('when header and path tokens are equal, then the delivery goes through', async () => {
    const res = await deliver(t.app, src.token, lead, {
      via: 'path',
      headers: { 'x-source-token': src.token },
    });
    expect(res.statusCode).toBe(200);
  });

  it('when checks fail together, then they are reported in order: token, size, JSON, name', async () => {
    const huge = 'x'.repeat(262_145);
    expect((await deliver(t.app, undefined, null, { raw: huge })).json()).toMatchObject({
      error_code: 'MISSING_SOURCE_TOKEN',
    });
    expect((await deliver(t.app, 'nope', null, { raw: huge })).json()).toMatchObject({
      error_code: 'INVALID_SOURCE_TOKEN',
    });
    expect((await deliver(t.app, src.token, null, { raw: huge })).statusCode).toBe(413);
    expect((await deliver(t.app, src.token, null, { raw: '{bad' })).json()).toMatchObject({
      error_code: 'INVALID_JSON',
    });
    const res = await deliver(t.app, src.token, { phone: '1' }, { headers: { 'idempotency-key': '' } });
    expect(res.json()).toMatchObject({ error_code: 'MISSING_NAME' });
  });

  it('when the body is 262,144 bytes, then it is accepted; one byte more, then 413 PAYLOAD_TOO_LARGE', async () => {
    const base = JSON.stringify({ name: 'Big Body', notes: '' });
    const fill = (n: number) => JSON.stringify({ name: 'Big Body', notes: 'n'.repeat(n - base.length) });
    const exact = fill(262_144);
    expect(Buffer.byteLength(exact)).toBe(262_144);
    expect((await deliver(t.app, src.token, null, { raw: exact })).statusCode).toBe(200);
    const over = fill(262_145);
    const res = await deliver(t.app, src.token, null, { raw: over });
    expectError(res, 413, 'PAYLOAD_TOO_LARGE', 'Payload too large');
  });

  it('when JSON is nested deeper than 32 levels, then 400 INVALID_JSON; 32 levels are fine', async () => {
    const nest = (depth: number) => `{"name":"Deep","x":${'['.repeat(depth - 1)}${']'.repeat(depth - 1)}}`;
    expect((await deliver(t.app, src.token, null, { raw: nest(32) })).statusCode).toBe(200);
    const res = await deliver(t.app, src.token, null, { raw: nest(33) });
    expectError(res, 400, 'INVALID_JSON', 'Invalid JSON body');
    expect((res.json() as { details: string }).details).toMatch(/32/);
  });

  it('when the idempotency key is malformed, then 400 INVALID_IDEMPOTENCY_KEY', async () => {
    for (const [headers, body] of [
      [{ 'idempotency-key': '' }, lead],
      [{ 'idempotency-key': 'k'.repeat(256) }, lead],
      [{}, { ...lead, idempotency_key: { nested: true } }],
      [{}, { ...lead, idempotency_key: 'tab\there' }],
      [{}, { ...lead, idempotency_key: '""' }],
    ] as const) {
      const res = await deliver(t.app, src.token, body, { headers });
      expectError(res, 400, 'INVALID_IDEMPOTENCY_KEY', 'Invalid idempotency key');
    }
  });

  it('when the agent-side admin key is wrong, then the gateway token still does not open the admin API', async () => {
    const res = await t.app.inject({
      method: 'GET',
      url: `/v1/admin/agents/${src.agent_id}`,
      headers: { authorization: `Bearer ${src.token}` },
    });
    expect(res.statusCode).toBe(401);
  });
});

describe('rate limit', () => {
  it('when a token goes over its burst, then 429 RATE_LIMITED with Retry-After, and other tokens are unaffected', async () => {
    const limited = await createTestApp({ rateLimit: { rps: 1, burst: 3 }, testDb: t.testDb });
    try {
      const a = await seedSource(t.db, 'Busy Vendor');
      const b = await seedSource(t.db, 'Quiet Vendor');
      const codes = [];
      for (let i = 0; i < 4; i++) codes.push((await deliver(limited.app, a.token, lead)).statusCode);
      expect(codes).toEqual([200, 200, 200, 429]);
      const res = await deliver(limited.app, a.token, lead);
      expectError(res, 429, 'RATE_LIMITED', 'Too many requests');
      expect(Number(res.headers['retry-after'])).toBeGreaterThanOrEqual(1);
      expect((await deliver(limited.app, b.token, lead)).statusCode).toBe(200);
    } finally {
      await limited.app.close();
    }
  });
});
