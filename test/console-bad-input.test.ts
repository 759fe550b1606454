import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from './support/app.ts';
import { agentWithLogin, CONSOLE_PASSWORD, ConsoleClient } from './support/console-client.ts';
import { countRows } from './support/deliver.ts';

/**
 * What the console answers to values the database cannot hold, and to odd queries: a 400 page or
 * a note, never a 500, and nothing stored cut short.
 */

type Agent = Awaited<ReturnType<typeof agentWithLogin>>;

describe('values the database cannot hold', () => {
  let t: TestApp;
  let alice: Agent;
  beforeAll(async () => {
    t = await createTestApp();
    alice = await agentWithLogin(t.app, 'Alice');
  });
  afterAll(() => t.close());

  it('When the agenda is asked for a day outside the years PostgreSQL keeps, or a login names an email with a NUL, then a 400 page, not a 500', async () => {
    const b = new ConsoleClient(t.app);
    await b.login(alice.email, CONSOLE_PASSWORD);
    for (const date of ['0000-01-01', '9999-12-31']) {
      const res = await b.get(`/console/agenda?date=${date}`);
      expect(res.statusCode, date).toBe(400);
      expect(res.body).toContain('could not be understood');
    }
    const stranger = new ConsoleClient(t.app);
    const login = await stranger.post('/console/login', {
      _csrf: await stranger.csrf('/console/login'),
      email: 'a\u0000b@example.com',
      password: CONSOLE_PASSWORD,
    });
    expect(login.statusCode).toBe(401);
    // A post with no body, its CSRF token in a header, is a failed login too (it threw).
    const csrf = await stranger.csrf('/console/login');
    const bodiless = await t.app.inject({
      method: 'POST',
      url: '/console/login',
      headers: { cookie: stranger.header(), 'x-csrf-token': csrf },
    });
    expect(bodiless.statusCode).toBe(401);
  });

  it('When a source name, signing key or destination URL is too long or holds a NUL, then a 400 notice says so and nothing is cut short or stored', async () => {
    const fiona = await agentWithLogin(t.app, 'Fiona');
    const b = new ConsoleClient(t.app);
    await b.login(fiona.email, CONSOLE_PASSWORD);
    const sources = async () =>
      (
        await t.db.query<{ source_id: string; name: string; signing_key: string | null }>(
          'SELECT source_id, name, signing_key FROM sources WHERE agent_id = $1',
          [fiona.agent_id],
        )
      ).rows;
    const [only] = await sources();
    if (!only) throw new Error('no source');
    const csrf = await b.csrf('/console/sources');
    for (const name of ['n'.repeat(201), 'nul\u0000name']) {
      const res = await b.post('/console/sources', { _csrf: csrf, name });
      expect(res.statusCode).toBe(400);
      expect(res.body).toContain('The source was not created: name');
    }
    const key = await b.post(`/console/sources/${only.source_id}/signing-key`, {
      _csrf: csrf,
      signing_key: 'k'.repeat(1025),
    });
    expect(key.statusCode).toBe(400);
    expect(key.body).toContain('it was not changed');
    const url = await b.post(`/console/sources/${only.source_id}/destinations`, {
      _csrf: csrf,
      kind: 'partner_sync',
      url: 'https://example.com/a\u0000b',
    });
    expect(url.statusCode).toBe(400);
    expect(await sources()).toEqual([only]);
    expect(only.signing_key).toBeNull();
    expect(await countRows(t.db, 'sync_destinations', 'agent_id = $1', [fiona.agent_id])).toBe(0);
  });

  it('When the leads page is asked with a filter twice, then it shows the leads with a note, not an error page', async () => {
    const b = new ConsoleClient(t.app);
    await b.login(alice.email, CONSOLE_PASSWORD);
    const res = await b.get('/console/leads?q=a&q=b');
    expect(res.statusCode).toBe(200);
    expect(res.body).toContain('role="alert"');
  });

  it('When a post names a task, text or delivery by something UUID-shaped that is no UUID, then it is ignored like an unknown one', async () => {
    const b = new ConsoleClient(t.app);
    await b.login(alice.email, CONSOLE_PASSWORD);
    const csrf = await b.csrf('/console/dial-queue');
    for (const id of ['-'.repeat(36), 'a'.repeat(36)]) {
      const outcome = await b.post(`/console/dial-queue/${id}/outcome`, { _csrf: csrf, outcome: 'reached' });
      expect(outcome.statusCode, id).toBe(303);
      const text = await b.post(`/console/texts/${id}/retry`, { _csrf: csrf });
      expect(text.statusCode, id).toBe(303);
    }
  });
});
