import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSender } from '../packages/sender/src/index.ts';
import { renderSenderFields, SENDER_FIELDS_FILE } from '../scripts/sender-fields.ts';
import { createTestApp, seedSource, type TestApp } from './support/app.ts';

/** The sender client (packages/sender) against a real gateway on the suite's database. */

let t: TestApp;
let url: string;
let token: string;

beforeAll(async () => {
  t = await createTestApp();
  url = await t.app.listen({ port: 0, host: '127.0.0.1' });
  token = (await seedSource(t.db, 'Client Agent')).token;
});
afterAll(async () => {
  await t.close();
});

describe('the sender client against the gateway', () => {
  it('When a lead is sent, then sent again with the same key, then as a repeat contact, the outcomes are created, replayed, merged', async () => {
    const sender = createSender({ url, token });
    const lead = { name: 'Client Lead', phone: '(512) 555-0142', age: 61, tags: ['fb'] };
    const first = await sender.send(lead);
    expect(first).toMatchObject({ ok: true, outcome: 'created', attempts: 1 });
    if (!first.ok) return;
    const again = await sender.send(lead, { key: first.key });
    expect(again).toMatchObject({ ok: true, outcome: 'replayed', leadId: first.leadId });
    const repeat = await sender.send({ ...lead, email: 'client@example.com' });
    expect(repeat).toMatchObject({ ok: true, outcome: 'merged', leadId: first.leadId });
    expect(repeat.key).not.toBe(first.key);
  });

  it('When the lead has no name or the token is wrong, then the result is rejected with the gateway’s code, after one try', async () => {
    const noName = await createSender({ url, token }).send({ phone: '5125550100' });
    expect(noName).toMatchObject({
      ok: false,
      reason: 'rejected',
      status: 400,
      errorCode: 'MISSING_NAME',
      attempts: 1,
    });
    const badToken = await createSender({ url, token: 'not-a-token', tokenIn: 'path' }).send({ name: 'X' });
    expect(badToken).toMatchObject({
      ok: false,
      reason: 'rejected',
      status: 401,
      errorCode: 'INVALID_SOURCE_TOKEN',
    });
  });

  it('When Listen mode is asked, then the gateway stores a sample and the outcome says listened', async () => {
    const result = await createSender({ url, token }).send({ name: 'Listen Lead' }, { listen: true });
    expect(result).toMatchObject({ ok: true, outcome: 'listened', leadId: null });
  });

  it('When a browser asks before posting (a CORS preflight), then it is told what it may send; a bare OPTIONS is still 405', async () => {
    const preflight = await t.app.inject({
      method: 'OPTIONS',
      url: '/v1/inbound-lead-gateway',
      headers: { origin: 'https://forms.example.com', 'access-control-request-method': 'POST' },
    });
    expect(preflight.statusCode).toBe(204);
    expect(preflight.headers['access-control-allow-origin']).toBe('*');
    expect(preflight.headers['access-control-allow-headers']).toMatch(/X-Source-Token/i);
    const bare = await t.app.inject({ method: 'OPTIONS', url: '/v1/inbound-lead-gateway' });
    expect(bare.statusCode).toBe(405);
    expect(bare.json()).toMatchObject({ error_code: 'METHOD_NOT_ALLOWED' });
    const answer = await t.app.inject({
      method: 'POST',
      url: '/v1/inbound-lead-gateway',
      headers: {
        origin: 'https://forms.example.com',
        'x-source-token': token,
        'content-type': 'application/json',
      },
      payload: JSON.stringify({ phone: '5125550199' }),
    });
    expect(answer.statusCode).toBe(400);
    expect(answer.headers['access-control-allow-origin']).toBe('*');
    expect(answer.headers['access-control-expose-headers']).toMatch(/Retry-After/);
  });

  it('When the package is built, then it is importable by its name', async () => {
    const pkg = (await import('@leadgate/sender')) as { createSender?: unknown };
    expect(typeof pkg.createSender).toBe('function');
  });

  it('When the gateway’s field table is read, then the client’s generated lead type matches it (npx tsx scripts/sender-fields.ts)', () => {
    expect(readFileSync(SENDER_FIELDS_FILE, 'utf8')).toBe(renderSenderFields());
  });
});
