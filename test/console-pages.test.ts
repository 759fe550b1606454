import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminInject, createTestApp, type TestApp } from './support/app.ts';
import { agentWithLogin, CONSOLE_PASSWORD, ConsoleClient } from './support/console-client.ts';
import { deliver } from './support/deliver.ts';

/**
 * The console's pages over plain HTTP: the leads list's filters, every page in the agent's zone with
 * labelled inputs, sender data shown as text, and the content security policy.
 */

type Agent = Awaited<ReturnType<typeof agentWithLogin>>;

/** Every page of the console's nav. */
const PAGES = [
  '/console/today',
  '/console/leads',
  '/console/agenda',
  '/console/dial-queue',
  '/console/sources',
  '/console/cadences',
  '/console/listen',
  '/console/deliveries',
  '/console/agencies',
];

describe('pages', () => {
  let t: TestApp;
  let alice: Agent;
  beforeAll(async () => {
    t = await createTestApp();
    alice = await agentWithLogin(t.app, 'Alice');
  });
  afterAll(() => t.close());

  it('When the leads list is filtered by status, source and category, or searched by name, phone or email, then only the matching leads show', async () => {
    const agent = await agentWithLogin(t.app, 'Frank');
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
    const b = new ConsoleClient(t.app);
    await b.login(agent.email, CONSOLE_PASSWORD);
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
    const b = new ConsoleClient(t.app);
    await b.login(alice.email, CONSOLE_PASSWORD);
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

describe('sender data on the pages', () => {
  let t: TestApp;
  let alice: Agent;
  beforeAll(async () => {
    t = await createTestApp();
    alice = await agentWithLogin(t.app, 'Alice');
  });
  afterAll(() => t.close());

  it('When a sender puts markup or a javascript: link in a lead, then the pages show it as text and never as a link', async () => {
    await deliver(t.app, alice.token, {
      name: '<script>alert(1)</script> Mallory',
      phone: '3125550188',
      scheduled_at: '2027-02-03T16:00:00Z',
      custom_fields: { join_url: 'javascript:alert(1)', cancel_url: 'https://cal.example.com/cancel/1' },
    });
    const b = new ConsoleClient(t.app);
    await b.login(alice.email, CONSOLE_PASSWORD);
    const leads = await b.get('/console/leads');
    expect(leads.body).not.toContain('<script>alert(1)</script>');
    expect(leads.body).toContain('&lt;script&gt;alert(1)&lt;/script&gt; Mallory');
    const agenda = await b.get('/console/agenda?view=week&date=2027-02-03');
    expect(agenda.body).toContain('&lt;script&gt;');
    expect(agenda.body).not.toMatch(/href="javascript:/i);
    expect(agenda.body).toContain('href="https://cal.example.com/cancel/1"');
  });
});

describe('content security policy', () => {
  let t: TestApp;
  let alice: Agent;
  beforeAll(async () => {
    t = await createTestApp();
    alice = await agentWithLogin(t.app, 'Alice');
  });
  afterAll(() => t.close());

  it('When any console page is served, logged in or not, then it forbids inline script and style and other origins, and has none of its own', async () => {
    const b = new ConsoleClient(t.app);
    const pages = [await b.get('/console/login'), await b.get('/console/nowhere')];
    await b.login(alice.email, CONSOLE_PASSWORD);
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
