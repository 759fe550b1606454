import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_KEY, createTestApp, seedSource, type TestApp } from './support/app.ts';

const AUTH = { authorization: `Bearer ${ADMIN_KEY}` };
const UNKNOWN = randomUUID();

let t: TestApp;
let seeded: { agent_id: string; source_id: string; token: string };
let leadId: string;

beforeAll(async () => {
  t = await createTestApp();
  seeded = await seedSource(t.db, 'Error Agent');
  leadId = randomUUID();
  await t.db.query(
    `INSERT INTO leads (agent_id, lead_id, source_id, status, name) VALUES ($1, $2, $3, 'New', 'X')`,
    [seeded.agent_id, leadId, seeded.source_id],
  );
});
afterAll(async () => {
  await t.close();
});

type Method = 'GET' | 'POST' | 'PUT' | 'PATCH';

async function call(
  method: Method,
  url: string,
  opts: { payload?: string; headers?: Record<string, string>; auth?: boolean } = {},
) {
  const res = await t.app.inject({
    method,
    url: `/v1/admin${url}`,
    headers: { ...(opts.auth === false ? {} : AUTH), ...opts.headers },
    ...(opts.payload !== undefined ? { payload: opts.payload } : {}),
  });
  return { status: res.statusCode, body: res.json<Record<string, unknown>>(), headers: res.headers };
}

const json = (value: unknown) => ({
  payload: JSON.stringify(value),
  headers: { 'content-type': 'application/json' },
});

/** Every admin endpoint, with ids that exist, so only authentication can fail. */
function endpoints(): [Method, string][] {
  return [
    ['POST', '/agents'],
    ['GET', `/agents/${seeded.agent_id}`],
    ['POST', `/agents/${seeded.agent_id}/sources`],
    ['GET', `/agents/${seeded.agent_id}/sources`],
    ['POST', `/sources/${seeded.source_id}/regenerate`],
    ['PATCH', `/sources/${seeded.source_id}`],
    ['GET', `/sources/${seeded.source_id}/samples`],
    ['POST', `/sources/${seeded.source_id}/samples/${UNKNOWN}/remap`],
    ['GET', `/sources/${seeded.source_id}/mapping`],
    ['PUT', `/sources/${seeded.source_id}/mapping`],
    ['GET', `/sources/${seeded.source_id}/events`],
    ['GET', `/agents/${seeded.agent_id}/leads`],
    ['GET', `/leads/${leadId}`],
    ['GET', `/agents/${seeded.agent_id}/agenda`],
    ['GET', '/no-such-endpoint'],
  ];
}

describe('authentication', () => {
  it.each([
    ['no Authorization header', undefined],
    ['a wrong key', `Bearer ${ADMIN_KEY}x`],
    ['a key prefix', `Bearer ${ADMIN_KEY.slice(0, 5)}`],
    ['another scheme', `Basic ${ADMIN_KEY}`],
    ['an empty bearer', 'Bearer '],
  ])('when a request carries %s, then every endpoint answers 401 UNAUTHORIZED', async (_label, header) => {
    for (const [method, url] of endpoints()) {
      const res = await call(method, url, {
        auth: false,
        ...json({ name: 'x', active: false }),
        headers: { 'content-type': 'application/json', ...(header ? { authorization: header } : {}) },
      });

      expect(res.status, `${method} ${url}`).toBe(401);
      expect(res.body).toMatchObject({ error_code: 'UNAUTHORIZED', error: 'Unauthorized' });
      expect(res.headers['www-authenticate']).toMatch(/^Bearer/);
    }
    const created = await t.db.query('SELECT 1 FROM agents WHERE name = $1', ['x']);
    expect(created.rowCount).toBe(0);
  });

  it('when the scheme is written in lower case, then the key is accepted', async () => {
    const res = await call('GET', `/agents/${seeded.agent_id}`, {
      auth: false,
      headers: { authorization: `bearer ${ADMIN_KEY}` },
    });

    expect(res.status).toBe(200);
  });
});

describe('agent identifiers', () => {
  const agentPaths: [Method, string][] = [
    ['GET', ''],
    ['GET', '/sources'],
    ['POST', '/sources'],
    ['GET', '/leads'],
    ['GET', '/agenda'],
  ];

  it.each(agentPaths)(
    'when %s /agents/<not a uuid>%s is called, then 400 INVALID_AGENT_IDENTIFIER',
    async (method, tail) => {
      const res = await call(method, `/agents/not-a-uuid${tail}`, json({ name: 'x' }));

      expect(res.status).toBe(400);
      expect(res.body.error_code).toBe('INVALID_AGENT_IDENTIFIER');
    },
  );

  it.each(agentPaths)(
    'when %s /agents/<unknown>%s is called, then 404 AGENT_NOT_FOUND',
    async (method, tail) => {
      const res = await call(method, `/agents/${UNKNOWN}${tail}`, json({ name: 'x' }));

      expect(res.status).toBe(404);
      expect(res.body).toEqual({ error: 'Agent not found', error_code: 'AGENT_NOT_FOUND' });
    },
  );

  it.each([
    ['GET', '/agents/'],
    ['GET', '/agents//sources'],
    ['POST', '/agents//sources'],
    ['GET', '/agents//leads'],
    ['GET', '/agents//agenda'],
  ] as [Method, string][])(
    'when %s %s has no agent id, then 400 MISSING_AGENT_IDENTIFIER',
    async (method, url) => {
      const res = await call(method, url, json({ name: 'x' }));

      expect(res.status).toBe(400);
      expect(res.body.error_code).toBe('MISSING_AGENT_IDENTIFIER');
    },
  );
});

describe('source identifiers', () => {
  const sourcePaths: [Method, string][] = [
    ['POST', '/regenerate'],
    ['PATCH', ''],
    ['GET', '/samples'],
    ['POST', `/samples/${UNKNOWN}/remap`],
    ['GET', '/mapping'],
    ['PUT', '/mapping'],
    ['GET', '/events'],
  ];

  it.each(sourcePaths)(
    'when %s /sources/<not a uuid>%s is called, then 404 SOURCE_NOT_FOUND',
    async (method, tail) => {
      const res = await call(method, `/sources/nope${tail}`, json({ active: false }));

      expect(res.status).toBe(404);
      expect(res.body.error_code).toBe('SOURCE_NOT_FOUND');
    },
  );

  it.each(sourcePaths)(
    'when %s /sources/<unknown>%s is called, then 404 SOURCE_NOT_FOUND',
    async (method, tail) => {
      const res = await call(method, `/sources/${UNKNOWN}${tail}`, json({ active: false }));

      expect(res.status).toBe(404);
      expect(res.body).toEqual({ error: 'Source not found', error_code: 'SOURCE_NOT_FOUND' });
    },
  );

  it.each([
    ['POST', '/sources//regenerate'],
    ['GET', '/sources//samples'],
    ['POST', `/sources//samples/${UNKNOWN}/remap`],
    ['GET', '/sources//mapping'],
    ['PUT', '/sources//mapping'],
    ['GET', '/sources//events'],
    ['PATCH', '/sources/'],
  ] as [Method, string][])('when %s %s has no source id, then 400 MISSING_SOURCE_ID', async (method, url) => {
    const res = await call(method, url, json({ active: false }));

    expect(res.status).toBe(400);
    expect(res.body.error_code).toBe('MISSING_SOURCE_ID');
  });
});

describe('lead identifiers', () => {
  it.each([
    ['not a UUID', 'lead-1'],
    ['unknown', UNKNOWN],
  ])('when the lead id is %s, then 404 LEAD_NOT_FOUND', async (_label, id) => {
    const res = await call('GET', `/leads/${id}`);

    expect(res.status).toBe(404);
    expect(res.body).toEqual({ error: 'Lead not found', error_code: 'LEAD_NOT_FOUND' });
  });
});

describe('bodies', () => {
  const garbage: [string, string][] = [
    ['an array', '[{"name":"x"}]'],
    ['a string', '"x"'],
    ['a number', '42'],
    ['null', 'null'],
    ['not JSON', '{"name": '],
    ['empty', ''],
    ['deeply nested', `${'['.repeat(5000)}${']'.repeat(5000)}`],
  ];

  it.each(garbage)(
    'when the body is %s, then every write answers 400 VALIDATION_ERROR',
    async (_label, payload) => {
      const writes: [Method, string][] = [
        ['POST', '/agents'],
        ['POST', `/agents/${seeded.agent_id}/sources`],
        ['PATCH', `/sources/${seeded.source_id}`],
        ['PUT', `/sources/${seeded.source_id}/mapping`],
      ];
      for (const [method, url] of writes) {
        for (const contentType of ['application/json', 'text/plain']) {
          const res = await call(method, url, { payload, headers: { 'content-type': contentType } });

          expect(res.status, `${method} ${url} ${contentType}`).toBe(400);
          expect(res.body.error_code).toBe('VALIDATION_ERROR');
        }
      }
    },
  );

  it.each([
    ['no name', {}],
    ['a blank name', { name: '   ' }],
    ['a name that is not a string', { name: 42 }],
    ['a name of 10,000 characters', { name: 'x'.repeat(10_000) }],
    ['a name with a NUL character', { name: 'a\u0000b' }],
    ['a name with an unpaired surrogate', { name: 'a\ud800b' }],
    ['an unknown time zone', { name: 'x', timezone: 'Mars/Olympus' }],
    ['a time zone offset instead of a zone', { name: 'x', timezone: '+05:00' }],
    ['a time zone that is not a string', { name: 'x', timezone: 5 }],
  ])('when an agent is created with %s, then 400 VALIDATION_ERROR', async (_label, body) => {
    const res = await call('POST', '/agents', json(body));

    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ error: 'Invalid request', error_code: 'VALIDATION_ERROR' });
    expect(typeof res.body.details).toBe('string');
  });

  it.each([
    ['no name', {}],
    ['a blank name', { name: '' }],
    ['a name that is an object', { name: { first: 'x' } }],
  ])('when a source is created with %s, then 400 VALIDATION_ERROR', async (_label, body) => {
    const res = await call('POST', `/agents/${seeded.agent_id}/sources`, json(body));

    expect(res.status).toBe(400);
    expect(res.body.error_code).toBe('VALIDATION_ERROR');
  });

  it.each([
    ['active as a string', { active: 'false' }],
    ['active as null', { active: null }],
    ['a blank name', { name: ' ' }],
    ['a null name', { name: null }],
    ['a signing key that is a number', { signing_key: 123 }],
    ['an empty signing key', { signing_key: '' }],
  ])(
    'when a source is patched with %s, then 400 VALIDATION_ERROR and nothing changes',
    async (_label, body) => {
      const row = async () =>
        (await t.db.query('SELECT * FROM sources WHERE source_id = $1', [seeded.source_id])).rows[0];
      const before = await row();
      expect(before).toMatchObject({ active: true });
      const res = await call('PATCH', `/sources/${seeded.source_id}`, json(body));

      expect(res.status).toBe(400);
      expect(res.body.error_code).toBe('VALIDATION_ERROR');
      expect(await row()).toEqual(before);
    },
  );
});

describe('query parameters', () => {
  it.each([
    ['a limit that is not a number', 'limit=ten'],
    ['a limit of 0', 'limit=0'],
    ['a negative limit', 'limit=-1'],
    ['a fractional limit', 'limit=1.5'],
    ['an unknown status', 'status=Closed'],
    ['a cursor that was never issued', 'cursor=garbage'],
    ['a cursor of valid base64 with the wrong content', `cursor=${Buffer.from('x|y').toString('base64url')}`],
    [
      'a cursor with an impossible date',
      `cursor=${Buffer.from(`2026-02-30T00:00:00.000000Z|${UNKNOWN}`).toString('base64url')}`,
    ],
    ['a repeated status', 'status=New&status=Canceled'],
    ['a q with a NUL character', 'q=a%00b'],
    ['a q of 1,000 characters', `q=${'x'.repeat(1000)}`],
    // A year PostgreSQL's timestamps do not have: the database refuses it (22008), a 500 before.
    [
      'a cursor of the year 0',
      `cursor=${Buffer.from(`0000-01-01T00:00:00.000000Z|${UNKNOWN}`).toString('base64url')}`,
    ],
  ])('when leads are listed with %s, then 400 VALIDATION_ERROR', async (_label, qs) => {
    const res = await call('GET', `/agents/${seeded.agent_id}/leads?${qs}`);

    expect(res.status).toBe(400);
    expect(res.body.error_code).toBe('VALIDATION_ERROR');
  });

  it('when the limit is above 200, then it is capped rather than refused', async () => {
    const res = await call('GET', `/agents/${seeded.agent_id}/leads?limit=5000`);

    expect(res.status).toBe(200);
  });

  it.each([
    ['a from that is not a date', 'from=yesterday'],
    ['a to that is not a date', 'to=2027-13-01T00:00:00Z'],
    ['to before from', 'from=2027-02-01T00:00:00Z&to=2027-01-01T00:00:00Z'],
    ['to equal to from', 'from=2027-02-01T00:00:00Z&to=2027-02-01T00:00:00Z'],
    ['a range over a year', 'from=2027-01-01T00:00:00Z&to=2029-01-01T00:00:00Z'],
    ['a repeated from', 'from=2027-01-01T00:00:00Z&from=2027-01-02T00:00:00Z'],
    // Its default end, a month on, is past the year 9999: the database refuses it (22009), a 500 before.
    ['a from on the last day of the year 9999', 'from=9999-12-31'],
  ])('when the agenda is asked for with %s, then 400 VALIDATION_ERROR', async (_label, qs) => {
    const res = await call('GET', `/agents/${seeded.agent_id}/agenda?${qs}`);

    expect(res.status).toBe(400);
    expect(res.body.error_code).toBe('VALIDATION_ERROR');
  });
});
