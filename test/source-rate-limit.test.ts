import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminInject, createTestApp, seedSource, type TestApp } from './support/app.ts';
import { deliver } from './support/deliver.ts';

/** A source's own rate limit (docs/admin-api.md, "A source's own rate limit"). */

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ rateLimit: { rps: 0.05, burst: 2 } }); // the server's default: tiny (a token every 20 s)
});
afterAll(async () => {
  await t.close();
});

const burst = async (token: string, n: number, tag: string) => {
  const statuses: number[] = [];
  for (let i = 0; i < n; i++) {
    statuses.push(
      (await deliver(t.app, token, { name: `${tag} ${i}`, phone: `512555${String(1000 + i)}` })).statusCode,
    );
  }
  return statuses;
};

describe('a source’s own rate limit', () => {
  it('When a source’s limit is raised, then the next requests pass at once; back to the default, the server’s limit holds again', async () => {
    const s = await seedSource(t.db, 'Importer');
    expect(await burst(s.token, 3, 'before')).toEqual([200, 200, 429]);

    const raised = await adminInject(t.app, 'PATCH', `/sources/${s.source_id}`, {
      rate_limit_rps: 500,
      rate_limit_burst: 50,
    });
    expect(raised.statusCode, raised.body).toBe(200);
    expect(raised.json()).toMatchObject({ rate_limit_rps: 500, rate_limit_burst: 50 });
    expect(await burst(s.token, 20, 'raised')).toEqual(Array(20).fill(200));

    await adminInject(t.app, 'PATCH', `/sources/${s.source_id}`, {
      rate_limit_rps: null,
      rate_limit_burst: null,
    });
    const back = await burst(s.token, 60, 'back');
    expect(back).toContain(429); // the server's 1/s, burst 2, once memory has the new revision
  });

  it('When another source is at its limit, then a raised source is unaffected and the other still refused', async () => {
    const slow = await seedSource(t.db, 'Slow');
    const fast = await seedSource(t.db, 'Fast');
    await adminInject(t.app, 'PATCH', `/sources/${fast.source_id}`, {
      rate_limit_rps: 1000,
      rate_limit_burst: 1000,
    });
    expect(await burst(slow.token, 3, 'slow')).toEqual([200, 200, 429]);
    expect(await burst(fast.token, 10, 'fast')).toEqual(Array(10).fill(200));
    const refused = await deliver(t.app, slow.token, { name: 'Slow again' });
    expect(refused.statusCode).toBe(429);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThanOrEqual(1);
  });

  it.each([
    [{ rate_limit_rps: 0 }],
    [{ rate_limit_rps: 1.5 }],
    [{ rate_limit_rps: '10' }],
    [{ rate_limit_rps: 10_001 }],
    [{ rate_limit_burst: 100_001 }],
  ])('When the limit is %j, then 400 and nothing changes', async (patch) => {
    const s = await seedSource(t.db, 'Bad limits');
    const res = await adminInject(t.app, 'PATCH', `/sources/${s.source_id}`, patch);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ error_code: 'VALIDATION_ERROR' });
    const listed = await adminInject(t.app, 'GET', `/agents/${s.agent_id}/sources`);
    expect(listed.json()).toMatchObject({ sources: [{ rate_limit_rps: null, rate_limit_burst: null }] });
  });
});
