import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { purgeEndedSessions } from '../src/console/session.ts';
import { adminInject, createTestApp, type TestApp } from './support/app.ts';
import { agentWithLogin, CONSOLE_PASSWORD, ConsoleClient } from './support/console-client.ts';

/**
 * The console's sessions over plain HTTP (the browser suite, test/console.browser.test.ts, walks
 * the pages): cookies, CSRF, login throttling, logout, what is kept of a session, and its purge.
 */

type Agent = Awaited<ReturnType<typeof agentWithLogin>>;

describe('console sessions', () => {
  let t: TestApp;
  let alice: Agent;
  beforeAll(async () => {
    t = await createTestApp();
    alice = await agentWithLogin(t.app, 'Alice');
  });
  afterAll(() => t.close());

  it('When an agent logs in, then the session cookie is signed, HTTP-only, SameSite=Lax and scoped to /console, and the leads page is theirs', async () => {
    const b = new ConsoleClient(t.app);
    const login = await b.login('ALICE@example.com', CONSOLE_PASSWORD);
    expect(login.statusCode).toBe(303);
    expect(login.headers.location).toBe('/console/today');
    const cookie = [login.headers['set-cookie']].flat().find((c) => c?.startsWith('leadgate_session='));
    expect(cookie).toMatch(/HttpOnly/i);
    expect(cookie).toMatch(/SameSite=Lax/i);
    expect(cookie).toMatch(/Path=\/console/i);
    expect(cookie).toMatch(/leadgate_session=[^.;]+\.[^;]+/); // id.signature
    const page = await b.get('/console/leads');
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('Alice');
    expect(page.body).toContain('No leads yet');
  });

  it('When no one is logged in, then every page redirects to the login and an htmx poll is told to go there', async () => {
    const b = new ConsoleClient(t.app);
    for (const path of ['/console/leads', '/console/agenda', '/console/sources', '/console/deliveries']) {
      const res = await b.get(path);
      expect(res.statusCode, path).toBe(303);
      expect(res.headers.location).toBe(`/console/login?next=${encodeURIComponent(path)}`);
    }
    const poll = await t.app.inject({
      method: 'GET',
      url: '/console/leads/rows',
      headers: { 'hx-request': 'true' },
    });
    expect(poll.statusCode).toBe(401);
    expect(poll.headers['hx-redirect']).toBe('/console/login');
  });

  it('When a form is posted without its CSRF token, then it is refused 403 and nothing changes', async () => {
    const b = new ConsoleClient(t.app);
    await b.login(alice.email, CONSOLE_PASSWORD);
    const res = await b.post('/console/sources', { name: 'Forged source' });
    expect(res.statusCode).toBe(403);
    expect(res.body).toContain('This form had expired');
    const forged = await b.post('/console/login', { email: alice.email, password: CONSOLE_PASSWORD });
    expect(forged.statusCode).toBe(403);
    const sources = await adminInject(t.app, 'GET', `/agents/${alice.agent_id}/sources`);
    expect(sources.body).not.toContain('Forged source');
  });

  it('When a CSRF token and cookie from an anonymous login page, or from another session, are sent with an agent’s session, then the post is refused 403', async () => {
    const victim = new ConsoleClient(t.app);
    await victim.login(alice.email, CONSOLE_PASSWORD);
    const session = victim.cookies.get('leadgate_session') ?? '';
    const forge = async (from: ConsoleClient, page: string) => {
      const token = await from.csrf(page);
      return t.app.inject({
        method: 'POST',
        url: '/console/sources',
        headers: {
          cookie: `leadgate_session=${session}; leadgate_csrf=${from.cookies.get('leadgate_csrf') ?? ''}`,
          'content-type': 'application/x-www-form-urlencoded',
        },
        payload: new URLSearchParams({ _csrf: token, name: 'Forged by a stranger' }).toString(),
      });
    };
    expect((await forge(new ConsoleClient(t.app), '/console/login')).statusCode).toBe(403);
    const otherSession = new ConsoleClient(t.app);
    await otherSession.login(alice.email, CONSOLE_PASSWORD); // the same agent, another session
    expect((await forge(otherSession, '/console/sources')).statusCode).toBe(403);
    const own = await victim.post('/console/sources', {
      _csrf: await victim.csrf('/console/sources'),
      name: 'Made by the agent',
    });
    expect(own.statusCode).toBe(200); // the new source's page, its token shown once
    const names = (await adminInject(t.app, 'GET', `/agents/${alice.agent_id}/sources`)).body;
    expect(names).not.toContain('Forged by a stranger');
    expect(names).toContain('Made by the agent');
  });

  it('When the server is served over HTTPS, then both cookies are __Host- cookies: Secure, for the whole host', async () => {
    // Behind the TLS-terminating proxy the operator trusts, as such a server runs.
    const secure = await createTestApp({
      testDb: t.testDb,
      publicBaseUrl: 'https://leads.example.com/v1',
      trustProxy: true,
    });
    const tls = { 'x-forwarded-proto': 'https' };
    try {
      const form = await secure.app.inject({ method: 'GET', url: '/console/login', headers: tls });
      const csrfCookie = [form.headers['set-cookie']]
        .flat()
        .find((c) => c?.startsWith('__Host-leadgate_csrf='));
      expect(csrfCookie).toMatch(/; Path=\/(;|$)/);
      expect(csrfCookie).toMatch(/; Secure/i);
      const token = /name="_csrf" value="([^"]+)"/.exec(form.body)?.[1] ?? '';
      const login = await secure.app.inject({
        method: 'POST',
        url: '/console/login',
        headers: {
          ...tls,
          cookie: (csrfCookie ?? '').split(';')[0] ?? '',
          'content-type': 'application/x-www-form-urlencoded',
        },
        payload: new URLSearchParams({
          _csrf: token,
          email: alice.email,
          password: CONSOLE_PASSWORD,
        }).toString(),
      });
      expect(login.statusCode).toBe(303);
      const session = [login.headers['set-cookie']]
        .flat()
        .find((c) => c?.startsWith('__Host-leadgate_session='));
      expect(session).toMatch(/; Path=\/(;|$)/);
      expect(session).toMatch(/; Secure/i);
      expect(session).toMatch(/HttpOnly/i);
      const leads = await secure.app.inject({
        method: 'GET',
        url: '/console/leads',
        headers: { ...tls, cookie: (session ?? '').split(';')[0] ?? '' },
      });
      expect(leads.statusCode).toBe(200);
    } finally {
      await secure.close();
    }
  });

  it('When the agent logs out, then the same cookie no longer opens anything', async () => {
    const b = new ConsoleClient(t.app);
    await b.login(alice.email, CONSOLE_PASSWORD);
    const stolen = b.header();
    const out = await b.post('/console/logout', { _csrf: await b.csrf('/console/leads') });
    expect(out.statusCode).toBe(303);
    const replay = await t.app.inject({ method: 'GET', url: '/console/leads', headers: { cookie: stolen } });
    expect(replay.statusCode).toBe(303);
    expect(replay.headers.location).toMatch(/^\/console\/login/);
  });

  it('When 10 logins fail for one email, then the 11th is refused 429 even with the right password; another address is still counted per email', async () => {
    const target = await agentWithLogin(t.app, 'Carol');
    const b = new ConsoleClient(t.app, '10.0.0.1');
    for (let i = 0; i < 10; i++)
      expect((await b.login(target.email, 'wrong password!!')).statusCode).toBe(401);
    const blocked = await b.login(target.email, CONSOLE_PASSWORD);
    expect(blocked.statusCode).toBe(429);
    expect(blocked.headers['retry-after']).toBe('900');
    expect(blocked.body).toContain('Too many failed logins');
    expect(
      (await new ConsoleClient(t.app, '10.0.0.2').login(target.email, CONSOLE_PASSWORD)).statusCode,
    ).toBe(429);
    // The other agents are not locked out by Carol's attacker.
    expect((await new ConsoleClient(t.app, '10.0.0.3').login(alice.email, CONSOLE_PASSWORD)).statusCode).toBe(
      303,
    );
  });

  it('When 10 logins fail from one address across many emails, then that address is refused 429', async () => {
    const b = new ConsoleClient(t.app, '10.0.0.9');
    for (let i = 0; i < 10; i++)
      expect((await b.login(`nobody${i}@example.com`, 'wrong password!!')).statusCode).toBe(401);
    expect((await b.login(alice.email, CONSOLE_PASSWORD)).statusCode).toBe(429);
  });

  it('When agents have logged in and out, then no password, session id or CSRF token was written to the log', async () => {
    const b = new ConsoleClient(t.app, '10.0.2.1');
    await b.login(alice.email, CONSOLE_PASSWORD);
    const session = b.cookies.get('leadgate_session') ?? '';
    expect(session).not.toBe('');
    const log = t.logs.join('');
    expect(log).not.toContain(CONSOLE_PASSWORD);
    expect(log).not.toContain(decodeURIComponent(session).split('.')[0]);
    expect(log).not.toContain('_csrf=');
  });

  it('When an agent is logged in, then the database keeps the SHA-256 of the session id, never the id (a backup opens no session)', async () => {
    const b = new ConsoleClient(t.app, '10.0.2.2');
    await b.login(alice.email, CONSOLE_PASSWORD);
    const id = decodeURIComponent(b.cookies.get('leadgate_session') ?? '')
      .replace(/^s:/, '')
      .split('.')[0];
    expect(id).toMatch(/^[\w-]{20,}$/);
    const { rows } = await t.db.query<{ session_id: string }>(
      'SELECT session_id FROM console_sessions WHERE agent_id = $1',
      [alice.agent_id],
    );
    const stored = rows.map((r) => r.session_id);
    expect(stored).toContain(
      createHash('sha256')
        .update(id ?? '')
        .digest('hex'),
    );
    expect(stored).not.toContain(id);
    expect((await b.get('/console/leads')).statusCode).toBe(200);
  });

  it('When a console path does not exist, then a page says so in words', async () => {
    const res = await new ConsoleClient(t.app).get('/console/nowhere');
    expect(res.statusCode).toBe(404);
    expect(res.headers['content-type']).toMatch(/text\/html/);
    expect(res.body).toContain('There is no such page in the console.');
  });

  it('When a guesser varies X-Forwarded-For, then the throttle still counts the connection’s address (no proxy is trusted by default)', async () => {
    const b = new ConsoleClient(t.app, '10.0.3.1');
    for (let i = 0; i < 10; i++) {
      const csrf = await b.csrf('/console/login');
      const res = await t.app.inject({
        method: 'POST',
        url: '/console/login',
        headers: {
          cookie: b.header(),
          'content-type': 'application/x-www-form-urlencoded',
          'x-forwarded-for': `198.51.100.${i}`,
        },
        payload: new URLSearchParams({
          _csrf: csrf,
          email: `guess${i}@example.com`,
          password: 'wrong password!!',
        }).toString(),
        remoteAddress: '10.0.3.1',
      });
      b.keep(res.headers['set-cookie']);
      expect(res.statusCode).toBe(401);
    }
    expect((await b.login(alice.email, CONSOLE_PASSWORD)).statusCode).toBe(429);
  });

  it('When the operator trusts its proxy, then the address it forwards is the one counted', async () => {
    const behind = await createTestApp({ testDb: t.testDb, trustProxy: '127.0.0.1' });
    try {
      const page = await behind.app.inject({ method: 'GET', url: '/console/login' });
      const cookie = [page.headers['set-cookie']]
        .flat()
        .map((c) => (c ?? '').split(';')[0])
        .join('; ');
      const csrf = /name="_csrf" value="([^"]+)"/.exec(page.body)?.[1] ?? '';
      await behind.app.inject({
        method: 'POST',
        url: '/console/login',
        headers: {
          cookie,
          'content-type': 'application/x-www-form-urlencoded',
          'x-forwarded-for': '203.0.113.7',
        },
        payload: new URLSearchParams({
          _csrf: csrf,
          email: 'nobody@example.com',
          password: 'wrong password!!',
        }).toString(),
      });
      const { rows } = await t.db.query<{ ip: string }>(
        `SELECT ip FROM login_failures WHERE email = 'nobody@example.com' ORDER BY failed_at DESC LIMIT 1`,
      );
      expect(rows[0]?.ip).toBe('203.0.113.7');
    } finally {
      await behind.app.close();
    }
  });

  it('When a login fails, then the page says so in words and reveals nothing about the email', async () => {
    const unknown = await new ConsoleClient(t.app, '10.0.1.1').login('nobody@example.com', 'whatever it is');
    const wrong = await new ConsoleClient(t.app, '10.0.1.2').login(alice.email, 'whatever it is');
    for (const res of [unknown, wrong]) {
      expect(res.statusCode).toBe(401);
      expect(res.body).toContain('That email and password do not match.');
    }
  });
});

describe('upkeep', () => {
  let t: TestApp;
  let alice: Agent;
  beforeAll(async () => {
    t = await createTestApp();
    alice = await agentWithLogin(t.app, 'Alice');
  });
  afterAll(() => t.close());

  it('When sessions have ended and failures are old, then the purge deletes them and keeps the rest', async () => {
    const b = new ConsoleClient(t.app, '10.0.4.1');
    await b.login(alice.email, CONSOLE_PASSWORD);
    await t.db.query(
      `INSERT INTO console_sessions (agent_id, session_id, expires_at) VALUES ($1, 'ended-session', now() - interval '1 minute')`,
      [alice.agent_id],
    );
    await t.db.query(
      `INSERT INTO login_failures (email, ip, failed_at) VALUES ('old@example.com', '10.0.4.2', now() - interval '1 hour')`,
    );
    await purgeEndedSessions(t.db);
    const sessions = await t.db.query(`SELECT 1 FROM console_sessions WHERE session_id = 'ended-session'`);
    const failures = await t.db.query(`SELECT 1 FROM login_failures WHERE email = 'old@example.com'`);
    expect([sessions.rowCount, failures.rowCount]).toEqual([0, 0]);
    expect((await b.get('/console/leads')).statusCode).toBe(200); // a live session stays
  });
});
