import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminInject, createTestApp, type TestApp } from './support/app.ts';
import { agentWithLogin, CONSOLE_PASSWORD, ConsoleClient } from './support/console-client.ts';
import { deliver } from './support/deliver.ts';

/**
 * The agency page: producers' shares and states, the fallback queue and its reassign buttons, and
 * the same 404 for any other agent.
 */

type Agent = Awaited<ReturnType<typeof agentWithLogin>>;

describe('the agency page', () => {
  let t: TestApp;
  let alice: Agent;
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
    t = await createTestApp();
    alice = await agentWithLogin(t.app, 'Alice');
    // Dana manages Lone Star: Ann (TX, OK; weight 2), Ben (TX; at most one a day), Cy (OK; paused).
    dana = await agentWithLogin(t.app, 'Dana');
    const agency = await adminInject(t.app, 'POST', '/agencies', {
      name: 'Lone Star Agency',
      fallback_agent_id: dana.agent_id,
      timezone: 'America/Chicago',
    });
    agencyId = agency.json<{ agency_id: string }>().agency_id;
    const member = async (name: string, body: object) => {
      const { agent_id } = await agentWithLogin(t.app, name);
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
  afterAll(() => t.close());

  it('When the fallback producer opens it, then each producer shows its leads and share today, licensed states, weight, cap and who is paused', async () => {
    const b = new ConsoleClient(t.app);
    await b.login(dana.email, CONSOLE_PASSWORD);
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
    const b = new ConsoleClient(t.app);
    await b.login(dana.email, CONSOLE_PASSWORD);
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
    const b = new ConsoleClient(t.app);
    await b.login(dana.email, CONSOLE_PASSWORD);
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
    const b = new ConsoleClient(t.app);
    await b.login(alice.email, CONSOLE_PASSWORD);
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
