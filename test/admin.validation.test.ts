import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminInject, createTestApp, seedSource, type TestApp } from './support/app.ts';

/**
 * What the route schemas refuse, and how: 400 VALIDATION_ERROR whose `details` names the field in
 * plain words, never Ajv's own message; a path id that fails its schema is the answer an unknown
 * one gets.
 */

let t: TestApp;
let seeded: { agent_id: string; source_id: string };

beforeAll(async () => {
  t = await createTestApp();
  seeded = await seedSource(t.db, 'Schema Agent');
});
afterAll(() => t.close());

type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

describe('route schemas', () => {
  it.each([
    ['POST', '/agents', { timezone: 'America/Chicago' }, 'name is required'],
    ['POST', '/agents', { name: 42 }, 'name must be a string'],
    ['POST', '/agents', { name: '  ' }, 'name must not be blank'],
    ['POST', '/agents', { name: 'x'.repeat(201) }, 'name must be at most 200 characters'],
    ['POST', '/agents', { name: 'a\u0000b' }, 'name contains NUL characters or unpaired surrogates'],
    ['POST', '/agents', { name: 'x', email: 'nope' }, 'email must be an address such as agent@example.com'],
    ['PATCH', '/sources/:source', { active: 'false' }, 'active must be true or false'],
    [
      'PATCH',
      '/sources/:source',
      { rate_limit_rps: 0 },
      'rate_limit_rps must be a whole number from 1 to 10000, or null',
    ],
    ['PATCH', '/sources/:source', { signing_key: 5 }, 'signing_key must be a string, or null'],
    [
      'POST',
      '/sources/:source/destinations',
      { kind: 'fax', url: 'https://example.com' },
      'kind must be one of partner_sync, analytics',
    ],
    [
      'POST',
      '/sources/:source/destinations',
      { kind: 'analytics', url: 'https://example.com', events: [] },
      'events must not be an empty list',
    ],
    [
      'POST',
      '/sources/:source/destinations',
      { kind: 'analytics', url: 'https://example.com', events: ['nope'] },
      'events[0] must be one of',
    ],
    ['PUT', '/agents/:agent/password', { password: 'short' }, 'password must be at least 12 characters'],
    [
      'POST',
      `/agents/:agent/dial-queue/${randomUUID()}/outcome`,
      { outcome: 'maybe' },
      'outcome must be one of reached',
    ],
  ] as [Method, string, object, string][])(
    'When %s %s gets %j, then 400 VALIDATION_ERROR says "%s"',
    async (method, path, body, details) => {
      const url = path.replace(':agent', seeded.agent_id).replace(':source', seeded.source_id);

      const res = await adminInject(t.app, method, url, body);

      expect(res.statusCode, res.body).toBe(400);
      expect(res.json()).toMatchObject({ error: 'Invalid request', error_code: 'VALIDATION_ERROR' });
      expect(res.json<{ details: string }>().details).toContain(details);
    },
  );

  it.each([
    ['GET', '/agents/:agent/leads?limit=ten', 'limit must be a whole number'],
    ['GET', '/agents/:agent/leads?status=New&status=Canceled', 'status must be given once'],
    ['GET', '/agents/:agent/deliveries?status=lost', 'status must be one of'],
    ['GET', '/sources/:source/samples?listen=maybe', 'listen must be true or false'],
  ] as [Method, string, string][])(
    'When %s %s is asked, then 400 VALIDATION_ERROR says "%s"',
    async (method, path, details) => {
      const url = path.replace(':agent', seeded.agent_id).replace(':source', seeded.source_id);

      const res = await adminInject(t.app, method, url);

      expect(res.statusCode, res.body).toBe(400);
      expect(res.json<{ details: string }>().details).toContain(details);
    },
  );

  it.each([
    ['GET', '/leads/urn:uuid:00000000-0000-0000-0000-000000000000', 404, 'LEAD_NOT_FOUND'],
    ['DELETE', '/destinations/not-a-uuid', 404, 'DESTINATION_NOT_FOUND'],
    ['POST', '/deliveries/nope/retry', 404, 'DELIVERY_NOT_FOUND'],
    ['DELETE', '/agents/:agent/keys/nope', 404, 'KEY_NOT_FOUND'],
    ['POST', '/agents/:agent/dial-queue/nope/outcome', 404, 'TASK_NOT_FOUND'],
    ['POST', '/sources/:source/samples/nope/remap', 404, 'NOT_FOUND'],
  ] as [Method, string, number, string][])(
    'When %s %s names no record, then %i %s, as an unknown id would',
    async (method, path, status, code) => {
      const url = path.replace(':agent', seeded.agent_id).replace(':source', seeded.source_id);

      const res = await adminInject(
        t.app,
        method,
        url,
        method === 'POST' ? { outcome: 'reached' } : undefined,
      );

      expect(res.statusCode, res.body).toBe(status);
      expect(res.json()).toMatchObject({ error_code: code });
    },
  );

  it('When an unknown source is sent a body its schema refuses, then the answer is still 404: the path is looked up first', async () => {
    const res = await adminInject(t.app, 'PUT', `/sources/${randomUUID()}/mapping`, { nothing: true });

    expect(res.statusCode).toBe(404);
    expect(res.json()).toMatchObject({ error_code: 'SOURCE_NOT_FOUND' });
  });
});
