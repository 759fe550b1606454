import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { purgeEndedSessions } from '../src/console/session.ts';
import { adminInject, createTestApp, type TestApp } from './support/app.ts';
import { testDispatcher } from './support/automations.ts';
import { ConsoleClient } from './support/console-client.ts';
import { countRows, deliver } from './support/deliver.ts';

/**
 * The console's access rules over plain HTTP (the browser suite, test/console.browser.test.ts,
 * walks the pages): sessions, CSRF, login throttling, logout, and one agent never seeing another's.
 */

let t: TestApp;
const PASSWORD = 'a long console passphrase';

interface Agent {
  agent_id: string;
  email: string;
  token: string;
}

async function agentWithLogin(name: string): Promise<Agent> {
  const email = `${name.toLowerCase()}@example.com`;
  const agent = (
    await adminInject(t.app, 'POST', '/agents', { name, email, timezone: 'America/Chicago' })
  ).json<{
    agent_id: string;
  }>();
  expect(
    (await adminInject(t.app, 'PUT', `/agents/${agent.agent_id}/password`, { password: PASSWORD }))
      .statusCode,
  ).toBe(204);
  const source = (
    await adminInject(t.app, 'POST', `/agents/${agent.agent_id}/sources`, { name: `${name} vendor` })
  ).json<{
    token: string;
  }>();
  return { agent_id: agent.agent_id, email, token: source.token };
}

/** A cookie jar on this file's app. */
class Browser extends ConsoleClient {
  constructor(ip?: string) {
    super(t.app, ip);
  }
}

/** Every page of the console's nav. */
const PAGES = [
  '/console/today',
  '/console/leads',
  '/console/agenda',
  '/console/dial-queue',
  '/console/sources',
  '/console/listen',
  '/console/deliveries',
  '/console/agencies',
];

let alice: Agent;
let bob: Agent;
beforeAll(async () => {
  t = await createTestApp();
  alice = await agentWithLogin('Alice');
  bob = await agentWithLogin('Bob');
});
afterAll(async () => {
  await t.close();
});

describe('console sessions', () => {
  it('When an agent logs in, then the session cookie is signed, HTTP-only, SameSite=Lax and scoped to /console, and the leads page is theirs', async () => {
    const b = new Browser();
    const login = await b.login('ALICE@example.com', PASSWORD);
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
    const b = new Browser();
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
    const b = new Browser();
    await b.login(alice.email, PASSWORD);
    const res = await b.post('/console/sources', { name: 'Forged source' });
    expect(res.statusCode).toBe(403);
    expect(res.body).toContain('This form had expired');
    const forged = await b.post('/console/login', { email: alice.email, password: PASSWORD });
    expect(forged.statusCode).toBe(403);
    const sources = await adminInject(t.app, 'GET', `/agents/${alice.agent_id}/sources`);
    expect(sources.body).not.toContain('Forged source');
  });

  it('When a CSRF token and cookie from an anonymous login page, or from another session, are sent with an agent’s session, then the post is refused 403', async () => {
    const victim = new Browser();
    await victim.login(alice.email, PASSWORD);
    const session = victim.cookies.get('leadgate_session') ?? '';
    const forge = async (from: Browser, page: string) => {
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
    expect((await forge(new Browser(), '/console/login')).statusCode).toBe(403);
    const otherSession = new Browser();
    await otherSession.login(alice.email, PASSWORD); // the same agent, another session
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
        payload: new URLSearchParams({ _csrf: token, email: alice.email, password: PASSWORD }).toString(),
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
    const b = new Browser();
    await b.login(alice.email, PASSWORD);
    const stolen = b.header();
    const out = await b.post('/console/logout', { _csrf: await b.csrf('/console/leads') });
    expect(out.statusCode).toBe(303);
    const replay = await t.app.inject({ method: 'GET', url: '/console/leads', headers: { cookie: stolen } });
    expect(replay.statusCode).toBe(303);
    expect(replay.headers.location).toMatch(/^\/console\/login/);
  });

  it('When 10 logins fail for one email, then the 11th is refused 429 even with the right password; another address is still counted per email', async () => {
    const target = await agentWithLogin('Carol');
    const b = new Browser('10.0.0.1');
    for (let i = 0; i < 10; i++)
      expect((await b.login(target.email, 'wrong password!!')).statusCode).toBe(401);
    const blocked = await b.login(target.email, PASSWORD);
    expect(blocked.statusCode).toBe(429);
    expect(blocked.headers['retry-after']).toBe('900');
    expect(blocked.body).toContain('Too many failed logins');
    expect((await new Browser('10.0.0.2').login(target.email, PASSWORD)).statusCode).toBe(429);
    // The other agents are not locked out by Carol's attacker.
    expect((await new Browser('10.0.0.3').login(alice.email, PASSWORD)).statusCode).toBe(303);
  });

  it('When 10 logins fail from one address across many emails, then that address is refused 429', async () => {
    const b = new Browser('10.0.0.9');
    for (let i = 0; i < 10; i++)
      expect((await b.login(`nobody${i}@example.com`, 'wrong password!!')).statusCode).toBe(401);
    expect((await b.login(alice.email, PASSWORD)).statusCode).toBe(429);
  });

  it('When agents have logged in and out, then no password, session id or CSRF token was written to the log', async () => {
    const b = new Browser('10.0.2.1');
    await b.login(alice.email, PASSWORD);
    const session = b.cookies.get('leadgate_session') ?? '';
    expect(session).not.toBe('');
    const log = t.logs.join('');
    expect(log).not.toContain(PASSWORD);
    expect(log).not.toContain(decodeURIComponent(session).split('.')[0]);
    expect(log).not.toContain('_csrf=');
  });

  it('When an agent is logged in, then the database keeps the SHA-256 of the session id, never the id (a backup opens no session)', async () => {
    const b = new Browser('10.0.2.2');
    await b.login(alice.email, PASSWORD);
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
    const res = await new Browser().get('/console/nowhere');
    expect(res.statusCode).toBe(404);
    expect(res.headers['content-type']).toMatch(/text\/html/);
    expect(res.body).toContain('There is no such page in the console.');
  });

  it('When a guesser varies X-Forwarded-For, then the throttle still counts the connection’s address (no proxy is trusted by default)', async () => {
    const b = new Browser('10.0.3.1');
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
    expect((await b.login(alice.email, PASSWORD)).statusCode).toBe(429);
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
    const unknown = await new Browser('10.0.1.1').login('nobody@example.com', 'whatever it is');
    const wrong = await new Browser('10.0.1.2').login(alice.email, 'whatever it is');
    for (const res of [unknown, wrong]) {
      expect(res.statusCode).toBe(401);
      expect(res.body).toContain('That email and password do not match.');
    }
  });
});

describe('sender data on the pages', () => {
  it('When a sender puts markup or a javascript: link in a lead, then the pages show it as text and never as a link', async () => {
    await deliver(t.app, alice.token, {
      name: '<script>alert(1)</script> Mallory',
      phone: '3125550188',
      scheduled_at: '2027-02-03T16:00:00Z',
      custom_fields: { join_url: 'javascript:alert(1)', cancel_url: 'https://cal.example.com/cancel/1' },
    });
    const b = new Browser();
    await b.login(alice.email, PASSWORD);
    const leads = await b.get('/console/leads');
    expect(leads.body).not.toContain('<script>alert(1)</script>');
    expect(leads.body).toContain('&lt;script&gt;alert(1)&lt;/script&gt; Mallory');
    const agenda = await b.get('/console/agenda?view=week&date=2027-02-03');
    expect(agenda.body).toContain('&lt;script&gt;');
    expect(agenda.body).not.toMatch(/href="javascript:/i);
    expect(agenda.body).toContain('href="https://cal.example.com/cancel/1"');
  });
});

describe('upkeep', () => {
  it('When sessions have ended and failures are old, then the purge deletes them and keeps the rest', async () => {
    const b = new Browser('10.0.4.1');
    await b.login(alice.email, PASSWORD);
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

describe('one agent never sees another’s', () => {
  it('When Alice opens Bob’s lead by URL, then she gets the same 404 page as for a lead that never was', async () => {
    const lead = (await deliver(t.app, bob.token, { name: 'Bob Prospect', phone: '3125550142' })).json<{
      lead_id: string;
    }>();
    const b = new Browser();
    await b.login(alice.email, PASSWORD);
    const res = await b.get(`/console/leads/${lead.lead_id}`);
    expect(res.statusCode).toBe(404);
    expect(res.body).not.toContain('Bob Prospect');
    const missing = await b.get('/console/leads/00000000-0000-4000-8000-000000000000');
    expect(missing.statusCode).toBe(404);
    expect(missing.body).toBe(res.body.replace(/reference [^)]+/, 'reference'));
    const bobs = new Browser();
    await bobs.login(bob.email, PASSWORD);
    expect((await bobs.get(`/console/leads/${lead.lead_id}`)).body).toContain('Bob Prospect');
    const list = await b.get('/console/leads');
    expect(list.body).not.toContain('Bob Prospect');
  });

  it('When Alice posts to Bob’s source or delivery with her own valid session and token, then nothing of Bob’s changes', async () => {
    const sources = (await adminInject(t.app, 'GET', `/agents/${bob.agent_id}/sources`)).json<{
      sources: Array<{ source_id: string }>;
    }>();
    const bobSource = sources.sources[0]?.source_id ?? '';
    const b = new Browser();
    await b.login(alice.email, PASSWORD);
    const csrf = await b.csrf('/console/sources');
    const res = await b.post(`/console/sources/${bobSource}/regenerate`, { _csrf: csrf });
    expect(res.statusCode).toBe(404);
    const disable = await b.post(`/console/sources/${bobSource}/active`, { _csrf: csrf, active: 'false' });
    expect(disable.statusCode).toBe(404);
    expect((await deliver(t.app, bob.token, { name: 'Still Bob’s', phone: '3125550143' })).statusCode).toBe(
      200,
    );
    await testDispatcher(t.db).runOnce();
    const queue = async () =>
      (await adminInject(t.app, 'GET', `/agents/${bob.agent_id}/dial-queue`))
        .json<{ tasks: Array<{ task_id: string }> }>()
        .tasks.map((x) => x.task_id);
    const task = (await queue())[0] ?? '';
    expect(task).not.toBe('');
    const alices = await b.post(`/console/dial-queue/${task}/outcome`, {
      _csrf: csrf,
      outcome: 'not_interested',
    });
    expect(alices.statusCode).toBe(303); // her token was good: only the task's owner made it nothing
    expect(await queue()).toContain(task);
    // The same post by Bob takes the task out of his queue: Alice's was refused, not broken.
    const bobs = new Browser();
    await bobs.login(bob.email, PASSWORD);
    const mine = await bobs.post(`/console/dial-queue/${task}/outcome`, {
      _csrf: await bobs.csrf('/console/dial-queue'),
      outcome: 'not_interested',
    });
    expect(mine.statusCode).toBe(303);
    expect(await queue()).not.toContain(task);
  });
});

describe('deliveries page', () => {
  it('When a text failed for good, then the agent can send it again from the console; another agent cannot', async () => {
    const lead = (
      await deliver(t.app, alice.token, { name: 'Text Me', phone: '3125550177', sms_consent: true })
    ).json<{ lead_id: string }>();
    await testDispatcher(t.db, undefined, { now: () => new Date('2027-01-15T18:00:00Z') }).runOnce();
    const { rows } = await t.db.query<{ sms_id: string }>(
      `UPDATE sms_messages SET status = 'failed', attempts = 3, error = 'provider down'
        WHERE agent_id = $1 AND lead_id = $2 RETURNING sms_id`,
      [alice.agent_id, lead.lead_id],
    );
    const smsId = rows[0]?.sms_id ?? '';
    expect(smsId).not.toBe('');
    const row = async () =>
      (
        await t.db.query<{ status: string; attempts: number }>(
          'SELECT status, attempts FROM sms_messages WHERE sms_id = $1',
          [smsId],
        )
      ).rows[0];

    const bobs = new Browser();
    await bobs.login(bob.email, PASSWORD);
    await bobs.post(`/console/texts/${smsId}/retry`, { _csrf: await bobs.csrf('/console/deliveries') });
    expect(await row()).toMatchObject({ status: 'failed' });

    const b = new Browser();
    await b.login(alice.email, PASSWORD);
    const page = await b.get('/console/deliveries');
    expect(page.body).toContain(`/console/texts/${smsId}/retry`);
    expect(page.body).toContain('provider down');
    const res = await b.post(`/console/texts/${smsId}/retry`, { _csrf: await b.csrf('/console/deliveries') });
    expect(res.statusCode).toBe(303);
    expect(await row()).toMatchObject({ status: 'scheduled', attempts: 0 });
  });
});

describe('pages', () => {
  it('When the leads list is filtered by status, source and category, or searched by name, phone or email, then only the matching leads show', async () => {
    const agent = await agentWithLogin('Frank');
    const second = (
      await adminInject(t.app, 'POST', `/agents/${agent.agent_id}/sources`, { name: 'Radio' })
    ).json<{
      source_id: string;
      token: string;
    }>();
    await deliver(t.app, agent.token, {
      name: 'Ann Final',
      phone: '3125550001',
      email: 'ann@example.com',
      lead_category: 'final expense',
    });
    await deliver(t.app, agent.token, {
      name: 'Ben Medicare',
      phone: '3125550002',
      lead_category: 'medicare',
    });
    await deliver(t.app, second.token, {
      name: 'Cal Booked',
      phone: '3125550003',
      appointment_date: '2027-03-15',
      appointment_time: '10:00 AM',
    });
    const b = new Browser();
    await b.login(agent.email, PASSWORD);
    const names = async (query: string) => {
      const body = (await b.get(`/console/leads?${query}`)).body;
      return [...body.matchAll(/<a href="\/console\/leads\/[0-9a-f-]+">([^<]+)<\/a>/g)]
        .map((m) => m[1])
        .sort();
    };
    expect(await names('')).toEqual(['Ann Final', 'Ben Medicare', 'Cal Booked']);
    expect(await names('category=final-expense')).toEqual(['Ann Final']);
    expect(await names(`source=${second.source_id}`)).toEqual(['Cal Booked']);
    expect(await names('status=Scheduled')).toEqual(['Cal Booked']);
    expect(await names('q=ann%40example')).toEqual(['Ann Final']);
    expect(await names('q=(312)%20555-0002')).toEqual(['Ben Medicare']);
    expect(await names('q=medic')).toEqual(['Ben Medicare']);
    const first = await b.get('/console/leads?limit=2');
    const older = /href="(\/console\/leads\?[^"]*cursor=[^"]+)">Older leads/
      .exec(first.body)?.[1]
      ?.replace(/&amp;/g, '&');
    expect(older).toBeDefined();
    expect(first.body).toContain('hx-trigger="every 2s"'); // the first page follows new leads
    const second2 = await b.get(older ?? '');
    expect(second2.body).toContain('Ann Final');
    expect(second2.body).not.toContain('Cal Booked');
    expect(second2.body).not.toContain('hx-trigger'); // an older page stays still
    const bad = await b.get('/console/leads?status=Bogus');
    expect(bad.statusCode).toBe(200);
    expect(bad.body).toContain('status must be one of');
  });

  it('When the agent opens every page, then each answers 200 with its times in the agent’s zone and labelled inputs', async () => {
    await deliver(t.app, alice.token, {
      name: 'Page Tour',
      phone: '(312) 555-0199',
      state: 'IL',
      appointment_date: '2027-03-15',
      appointment_time: '10:00 AM',
    });
    const b = new Browser();
    await b.login(alice.email, PASSWORD);
    for (const path of PAGES) {
      const res = await b.get(path);
      expect(res.statusCode, path).toBe(200);
      expect(res.body).toContain('times in America/Chicago');
      // Every visible input is labelled: wrapped in a <label>, or named by a label's for=.
      const ids = new Set([...res.body.matchAll(/<label\b[^>]*\bfor="([^"]+)"/g)].map((m) => m[1]));
      const html = res.body.replace(/<label[^>]*>[\s\S]*?<\/label\s*>/g, '');
      for (const input of html.matchAll(/<(input|select)\b[^>]*>/g)) {
        const tag = input[0];
        if (/type="hidden"/.test(tag) || /readonly/.test(tag)) continue;
        const id = /id="([^"]+)"/.exec(tag)?.[1];
        expect(id && ids.has(id), `${path}: ${tag}`).toBe(true);
      }
    }
  });
});

describe('values the database cannot hold', () => {
  it('When the agenda is asked for a day outside the years PostgreSQL keeps, or a login names an email with a NUL, then a 400 page, not a 500', async () => {
    const b = new Browser();
    await b.login(alice.email, PASSWORD);
    for (const date of ['0000-01-01', '9999-12-31']) {
      const res = await b.get(`/console/agenda?date=${date}`);
      expect(res.statusCode, date).toBe(400);
      expect(res.body).toContain('could not be understood');
    }
    const stranger = new Browser();
    const login = await stranger.post('/console/login', {
      _csrf: await stranger.csrf('/console/login'),
      email: 'a\u0000b@example.com',
      password: PASSWORD,
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
    const fiona = await agentWithLogin('Fiona');
    const b = new Browser();
    await b.login(fiona.email, PASSWORD);
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
    const b = new Browser();
    await b.login(alice.email, PASSWORD);
    const res = await b.get('/console/leads?q=a&q=b');
    expect(res.statusCode).toBe(200);
    expect(res.body).toContain('role="alert"');
  });

  it('When a post names a task, text or delivery by something UUID-shaped that is no UUID, then it is ignored like an unknown one', async () => {
    const b = new Browser();
    await b.login(alice.email, PASSWORD);
    const csrf = await b.csrf('/console/dial-queue');
    for (const id of ['-'.repeat(36), 'a'.repeat(36)]) {
      const outcome = await b.post(`/console/dial-queue/${id}/outcome`, { _csrf: csrf, outcome: 'reached' });
      expect(outcome.statusCode, id).toBe(303);
      const text = await b.post(`/console/texts/${id}/retry`, { _csrf: csrf });
      expect(text.statusCode, id).toBe(303);
    }
  });
});

describe('content security policy', () => {
  it('When any console page is served, logged in or not, then it forbids inline script and style and other origins, and has none of its own', async () => {
    const b = new Browser();
    const pages = [await b.get('/console/login'), await b.get('/console/nowhere')];
    await b.login(alice.email, PASSWORD);
    for (const path of PAGES) pages.push(await b.get(path));
    for (const res of pages) {
      const policy = String(res.headers['content-security-policy']);
      expect(policy).toContain("default-src 'none'");
      expect(policy).toContain("script-src 'self'");
      expect(policy).toContain("style-src 'self'");
      expect(policy).toContain("frame-ancestors 'none'");
      expect(policy).not.toContain('unsafe');
      expect(res.body).not.toMatch(/<script(?![^>]*\ssrc=)[^>]*>/i);
      expect(res.body).not.toMatch(/<style|\sstyle=|\son[a-z]+=/i);
    }
  });
});

describe('the dial queue, oldest first', () => {
  it('When leads delivered moments apart get their call tasks in one dispatcher round, then the API and the console list them in the order they were delivered', async () => {
    const quinn = await agentWithLogin('Quinn');
    const names = Array.from({ length: 8 }, (_, i) => `Queued Prospect ${i + 1}`);
    for (const [i, name] of names.entries()) {
      expect((await deliver(t.app, quinn.token, { name, phone: `31255501${10 + i}` })).statusCode).toBe(200);
      await new Promise((resolve) => setTimeout(resolve, 15));
    }
    await testDispatcher(t.db).runOnce(); // one round: every task made at the same moment
    const api = (await adminInject(t.app, 'GET', `/agents/${quinn.agent_id}/dial-queue`)).json<{
      tasks: Array<{ name: string }>;
    }>();
    expect(api.tasks.map((task) => task.name)).toEqual(names);
    const b = new Browser();
    await b.login(quinn.email, PASSWORD);
    const page = (await b.get('/console/dial-queue')).body;
    const shown = names.map((name) => page.indexOf(name));
    expect(shown.every((at) => at >= 0)).toBe(true);
    expect(shown).toEqual([...shown].sort((x, y) => x - y));
  });
});

describe('Meta Lead Ads on the sources page', () => {
  it('When the agent sets the Meta settings, then the card says connected, the page never shows them, and blank fields change nothing', async () => {
    const gina = await agentWithLogin('Gina');
    const b = new Browser();
    await b.login(gina.email, PASSWORD);
    const [source] = (
      await t.db.query<{ source_id: string }>('SELECT source_id FROM sources WHERE agent_id = $1', [
        gina.agent_id,
      ])
    ).rows;
    const url = `/console/sources/${source?.source_id}/meta`;
    expect((await b.get('/console/sources')).body).toContain('Meta Lead Ads: not connected');
    const saved = await b.post(url, {
      _csrf: await b.csrf('/console/sources'),
      page_access_token: 'EAAG-console-page-token',
      app_secret: 'console-app-secret',
      verify_token: 'console-verify',
      google_key: '',
      mode: 'live',
    });
    expect(saved.statusCode).toBe(303);
    let page = (await b.get('/console/sources')).body;
    expect(page).toContain('Meta Lead Ads: connected');
    expect(page).toContain('no Google lead form key');
    for (const secret of ['EAAG-console-page-token', 'console-app-secret', 'console-verify'])
      expect(page).not.toContain(secret);

    // Blank password fields leave the settings as they are; the mode still changes.
    await b.post(url, { _csrf: await b.csrf('/console/sources'), page_access_token: '', mode: 'listen' });
    page = (await b.get('/console/sources')).body;
    expect(page).toContain('Meta Lead Ads: connected, Listen');

    // The Graph API refused the token: the card says to reconnect.
    await t.db.query('UPDATE sources SET meta_reconnect_since = now() WHERE source_id = $1', [
      source?.source_id,
    ]);
    expect((await b.get('/console/sources')).body).toContain('Meta: reconnect Meta');

    const tooLong = await b.post(url, {
      _csrf: await b.csrf('/console/sources'),
      app_secret: 's'.repeat(2049),
    });
    expect(tooLong.statusCode).toBe(400);
    expect(tooLong.body).toContain('nothing was changed');

    await b.post(url, { _csrf: await b.csrf('/console/sources'), remove: '1' });
    expect((await b.get('/console/sources')).body).toContain('Meta Lead Ads: not connected');
  });
});

describe('the agency page', () => {
  /** A page's text without its markup, spaces collapsed: what a reader sees. */
  const words = (markup: string) =>
    markup
      .replace(/<[^>]+>/g, ' ')
      .replace(/&#39;|’/g, "'")
      .replace(/\s+/g, ' ');
  /** The text of the table row that holds `name`. */
  const row = (body: string, name: string) =>
    words([...body.matchAll(/<tr>[\s\S]*?<\/tr>/g)].map((m) => m[0]).find((tr) => tr.includes(name)) ?? '');
  const agentOfLead = async (leadId: string) =>
    (await adminInject(t.app, 'GET', `/leads/${leadId}`)).json<{ agent_id: string }>().agent_id;

  let dana: Agent;
  let agencyId: string;
  let producers: Record<'ann' | 'ben' | 'cy', string>;
  let okie: string;
  let west: string;

  beforeAll(async () => {
    // Dana manages Lone Star: Ann (TX, OK; weight 2), Ben (TX; at most one a day), Cy (OK; paused).
    dana = await agentWithLogin('Dana');
    const agency = await adminInject(t.app, 'POST', '/agencies', {
      name: 'Lone Star Agency',
      fallback_agent_id: dana.agent_id,
      timezone: 'America/Chicago',
    });
    agencyId = agency.json<{ agency_id: string }>().agency_id;
    const member = async (name: string, body: object) => {
      const { agent_id } = await agentWithLogin(name);
      const put = await adminInject(t.app, 'PUT', `/agencies/${agencyId}/members/${agent_id}`, body);
      expect(put.statusCode, put.body).toBeLessThan(300);
      return agent_id;
    };
    producers = {
      ann: await member('Ann', { licensed_states: ['TX', 'OK'], weight: 2 }),
      ben: await member('Ben', { licensed_states: ['TX'], daily_cap: 1 }),
      cy: await member('Cy', { licensed_states: ['OK'], active: false }),
    };
    const source = await adminInject(t.app, 'POST', `/agencies/${agencyId}/sources`, { name: 'Vendor A' });
    const token = source.json<{ token: string }>().token;
    const send = async (body: object) =>
      (await deliver(t.app, token, body)).json<{ lead_id: string }>().lead_id;
    for (const i of [1, 2, 3]) await send({ name: `Tex ${i}`, email: `tex${i}@example.com`, state: 'TX' });
    west = await send({ name: 'West Coast', email: 'west@example.com', state: 'CA' });
    // Ann paused for one lead: an Oklahoman nobody active may take, whom Ann and Cy are licensed for.
    const pause = { licensed_states: ['TX', 'OK'], weight: 2, active: false };
    await adminInject(t.app, 'PUT', `/agencies/${agencyId}/members/${producers.ann}`, pause);
    okie = await send({ name: 'Okie Prospect', email: 'okie@example.com', state: 'OK' });
    await adminInject(t.app, 'PUT', `/agencies/${agencyId}/members/${producers.ann}`, {
      ...pause,
      active: true,
    });
    expect([await agentOfLead(west), await agentOfLead(okie)]).toEqual([dana.agent_id, dana.agent_id]);
  });

  it('When the fallback producer opens it, then each producer shows its leads and share today, licensed states, weight, cap and who is paused', async () => {
    const b = new Browser();
    await b.login(dana.email, PASSWORD);
    const list = await b.get('/console/agencies');
    expect(list.statusCode).toBe(200);
    expect(list.body).toMatch(/href="\/console\/agencies"\s+aria-current="page"/); // in Dana's nav
    expect(words(list.body)).toContain('3 producers (1 paused) · 3 leads given today · 2 leads waiting');
    expect(list.body).toContain(`href="/console/agencies/${agencyId}"`);

    const page = await b.get(`/console/agencies/${agencyId}`);
    expect(page.statusCode).toBe(200);
    expect(row(page.body, 'Ann')).toBe(' Ann OK, TX 2 none 2 67% taking leads ');
    expect(row(page.body, 'Ben')).toBe(' Ben TX 1 1 1 33% at its cap ');
    expect(row(page.body, 'Cy')).toBe(' Cy OK 1 none 0 0% paused ');
    expect(page.body).not.toMatch(/<script(?![^>]*\ssrc=)[^>]*>|<style|\sstyle=|\son[a-z]+=/i);
  });

  it('When a lead waits in the fallback queue, then it shows why, and a reassign button only for each producer licensed in its state', async () => {
    const b = new Browser();
    await b.login(dana.email, PASSWORD);
    const page = (await b.get(`/console/agencies/${agencyId}`)).body;
    const action = (lead: string) => `action="/console/agencies/${agencyId}/fallback-queue/${lead}/assign"`;
    const okieRow = row(page, 'Okie Prospect');
    expect(okieRow).toContain('OK');
    expect(okieRow).toContain('Not licensed in OK: Ben. Paused: Ann, Cy.');
    expect(okieRow).toMatch(/Give Okie Prospect to Ann .*Give Okie Prospect to Cy \(paused\)/);
    const forms = [...page.matchAll(new RegExp(`${action(okie)}[\\s\\S]*?</form>`, 'g'))].map((m) => m[0]);
    const offered = forms.map((f) => /name="agent_id" value="([^"]+)"/.exec(f)?.[1]);
    expect(offered).toEqual([producers.ann, producers.cy]);
    const westRow = row(page, 'West Coast');
    expect(westRow).toContain('No producer is licensed in CA.');
    expect(westRow).toContain('Nobody licensed there: call it yourself');
    expect(page).not.toContain(action(west));
  });

  it('When a reassign button is posted, then it needs its CSRF token, only a licensed producer may take the lead, and the lead leaves the queue', async () => {
    const b = new Browser();
    await b.login(dana.email, PASSWORD);
    const url = `/console/agencies/${agencyId}/fallback-queue/${okie}/assign`;
    const forged = await b.post(url, { agent_id: producers.ann });
    expect(forged.statusCode).toBe(403);
    expect(await agentOfLead(okie)).toBe(dana.agent_id);

    const csrf = await b.csrf(`/console/agencies/${agencyId}`);
    const unlicensed = await b.post(url, { _csrf: csrf, agent_id: producers.ben });
    expect(unlicensed.statusCode).toBe(400);
    expect(words(unlicensed.body)).toContain(
      'That lead was not given: it may go only to a producer of the agency licensed in OK.',
    );
    expect(await agentOfLead(okie)).toBe(dana.agent_id);

    const given = await b.post(url, { _csrf: csrf, agent_id: producers.ann });
    expect(given.statusCode).toBe(303);
    expect(given.headers.location).toBe(`/console/agencies/${agencyId}?given=${producers.ann}`);
    expect(await agentOfLead(okie)).toBe(producers.ann);
    const after = await b.get(String(given.headers.location));
    expect(words(after.body)).toContain('Given to Ann: the lead is in their dial queue now.');
    expect(after.body).not.toContain('Okie Prospect');
    expect(row(after.body, 'Ann')).toContain(' 3 75% '); // her count today grew by the lead

    const again = await b.post(url, { _csrf: csrf, agent_id: producers.ann });
    expect(again.statusCode).toBe(404);
    expect(words(again.body)).toContain('That lead is no longer in the fallback queue');
  });

  it('When another agent opens or posts to the agency, then it is the same 404 as one that never was, not listed, and nothing moves', async () => {
    const b = new Browser();
    await b.login(alice.email, PASSWORD);
    const list = await b.get('/console/agencies');
    expect(list.body).not.toContain('Lone Star Agency');
    expect(words(list.body)).toContain('You manage no agency');
    expect(list.body).toContain(`--fallback ${alice.agent_id}`);
    const leads = await b.get('/console/leads');
    expect(leads.body).not.toContain('href="/console/agencies"'); // no Agency entry in her nav
    const page = await b.get(`/console/agencies/${agencyId}`);
    expect(page.statusCode).toBe(404);
    expect(page.body).not.toContain('Lone Star Agency');
    const never = await b.get('/console/agencies/00000000-0000-4000-8000-000000000000');
    expect(never.statusCode).toBe(404);
    expect(page.body).toBe(never.body);
    const csrf = await b.csrf('/console/agencies');
    const post = await b.post(`/console/agencies/${agencyId}/fallback-queue/${west}/assign`, {
      _csrf: csrf,
      agent_id: producers.ann,
    });
    expect(post.statusCode).toBe(404);
    expect(await agentOfLead(west)).toBe(dana.agent_id);
  });
});
