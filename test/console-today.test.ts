import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { actOnLead } from '../src/use-cases/lead-actions.ts';
import { loadToday } from '../src/console/today.ts';
import { createTestApp, type TestApp } from './support/app.ts';
import { testDispatcher } from './support/automations.ts';
import { agentWithLogin, CONSOLE_PASSWORD, ConsoleClient } from './support/console-client.ts';
import { deliver } from './support/deliver.ts';

/**
 * Today, the console's first screen (docs/decisions/0063): what it reads at a fixed instant (the
 * split of calls between now and later depends on the prospects' clocks), and the page itself.
 */
let t: TestApp;
let agent: Awaited<ReturnType<typeof agentWithLogin>>;
// 9 a.m. in New York (the agent's zone), 6 a.m. in Los Angeles: Florida may be called, California
// not before 8 a.m. there (16:00Z), later the same day.
const NOW = new Date('2027-01-15T14:00:00Z');
const ids: Record<string, string> = {};

async function send(name: string, body: Record<string, unknown>) {
  const res = await deliver(t.app, agent.token, { name, ...body });
  expect(res.statusCode, res.body).toBe(200);
  ids[name] = res.json<{ lead_id: string }>().lead_id;
}

const SMS_SECRET = 'today-sms-secret';
beforeAll(async () => {
  t = await createTestApp({ sms: { provider: 'recorder', inboundSecret: SMS_SECRET } });
  agent = await agentWithLogin(t.app, 'Tina Today', 'America/New_York');
  await send('Florida Fay', { phone: '3055550111', state: 'FL' });
  await send('California Cal', { phone: '4155550112', state: 'CA' });
  await send('Booked Bea', {
    phone: '4155550113',
    state: 'CA',
    scheduled_at: '2027-01-15T20:00:00Z', // 3 p.m. New York, noon in California
  });
  await send('Texted Tom', { phone: '3055550114', state: 'FL', sms_consent: true });
  await deliver(t.app, agent.token, { listen: true, name: 'Sampled Sam' });
  await testDispatcher(t.db, undefined, { now: () => NOW }).runOnce();
  await t.db.query(`UPDATE sms_messages SET status = 'failed' WHERE agent_id = $1`, [agent.agent_id]);
  await t.db.query(`UPDATE listen_samples SET received_at = $2 WHERE agent_id = $1`, [
    agent.agent_id,
    '2027-01-14T12:00:00Z',
  ]);
});
afterAll(() => t.close());

const me = () => ({ agent_id: agent.agent_id, timezone: 'America/New_York' });
const names = (rows: Array<{ name: string }>) => rows.map((r) => r.name).sort();

describe('what Today reads', () => {
  it('When the prospects’ clocks differ, then Florida is due now and California later today, from 8 a.m. there', async () => {
    const today = await loadToday(t.db, me(), NOW);
    expect(names(today.callsNow)).toEqual(['Florida Fay', 'Texted Tom']);
    expect(names(today.callsLater)).toEqual(['Booked Bea', 'California Cal']);
    expect(today.callsLater.map((c) => c.due_at)).toEqual([
      '2027-01-15T16:00:00.000Z',
      '2027-01-15T16:00:00.000Z',
    ]);
  });

  it('When the day is read at 10 p.m. in New York, then California (7 p.m. there) is due now and Florida waits for tomorrow, not today', async () => {
    const late = await loadToday(t.db, me(), new Date('2027-01-16T03:00:00Z'));
    expect(names(late.callsNow)).toEqual(['Booked Bea', 'California Cal']);
    expect(late.callsLater).toEqual([]);
  });

  it('When a lead is delivered and not called, then it waits, the longest first; a call takes it off', async () => {
    const before = await loadToday(t.db, me(), NOW);
    expect(before.fresh.map((l) => l.name)).toEqual(['Florida Fay', 'California Cal', 'Texted Tom']);
    const done = await actOnLead(
      t.db,
      { lead_id: ids['Florida Fay'] ?? '', owner: agent.agent_id },
      { kind: 'call_outcome', outcome: 'no_answer' },
      NOW,
    );
    expect(done.ok).toBe(true);
    const after = await loadToday(t.db, me(), NOW);
    expect(after.fresh.map((l) => l.name)).toEqual(['California Cal', 'Texted Tom']);
  });

  it('When the day has an appointment, and things wait elsewhere, then Today has them', async () => {
    const today = await loadToday(t.db, me(), NOW);
    expect(today.appointments).toEqual([
      expect.objectContaining({ name: 'Booked Bea', scheduled_at: '2027-01-15T20:00:00.000Z' }),
    ]);
    expect(today).toMatchObject({ samples: 1, failedDeliveries: 1 });
    const tomorrow = await loadToday(t.db, me(), new Date('2027-01-16T14:00:00Z'));
    expect(tomorrow.appointments).toEqual([]);
  });
});

describe('the Today page', () => {
  it('When the agent logs in, then Today is the first screen, first in the nav, with the waiting leads ticking and polled', async () => {
    // The page reads at the real clock, not at NOW: the sample came in just now.
    await t.db.query(`UPDATE listen_samples SET received_at = now() WHERE agent_id = $1`, [agent.agent_id]);
    const b = new ConsoleClient(t.app);
    const login = await b.login(agent.email, CONSOLE_PASSWORD);
    expect(login.headers.location).toBe('/console/today');
    const page = (await b.get('/console/today')).body;
    expect(page.indexOf('>Today</a')).toBeLessThan(page.indexOf('>Leads</a'));
    expect(page).toContain('<h1>Today</h1>');
    expect(page).toMatch(/data-since="[^"]+"/);
    expect(page).toContain('hx-get="/console/today/live"');
    expect(page).toContain('California Cal');
    expect(page).toContain('1 sample in Listen review');
    expect(page).toContain('1 failed delivery');
    const fragment = (await b.get('/console/today/live')).body;
    expect(fragment).toContain('California Cal');
    expect(fragment).toContain('1 failed delivery');
    expect(fragment).not.toContain('<html');
    expect((await b.get('/console')).headers.location).toBe('/console/today');
  });
});

describe('Today, live', () => {
  /** The number a tile shows, by the words after it. */
  const tile = (page: string, words: string) =>
    Number(new RegExp(`<strong>(\\d+)</strong>\\s*${words}`).exec(page)?.[1] ?? NaN);
  /** The rows of a table, by the id of its body. */
  const rowsOf = (page: string, heading: string) => {
    const section = page.slice(page.indexOf(heading));
    const table = section.slice(0, section.indexOf('</table>'));
    return (table.match(/<tr(?: class="[^"]*")?>\s*<td>\s*<a href="\/console\/leads\//g) ?? []).length;
  };

  it('When leads arrive and a prospect writes while Today is open, then one read of the live part has counts that equal its lists, replies first', async () => {
    const b = new ConsoleClient(t.app);
    await b.login(agent.email, CONSOLE_PASSWORD);
    await send('Late Larry', { phone: '3055550120', state: 'FL' });
    await t.app.inject({
      method: 'POST',
      url: '/v1/sms/inbound',
      headers: { 'content-type': 'application/json', 'x-sms-secret': SMS_SECRET },
      payload: JSON.stringify({ from: '3055550120', body: 'Call me after 6 please' }),
    });
    const live = (await b.get('/console/today/live')).body;
    expect(tile(live, 'new leads? waiting')).toBe(rowsOf(live, 'New leads, not called yet'));
    expect(tile(live, 'calls? due now')).toBe(rowsOf(live, '<th scope="col">Due now</th>'));
    expect(tile(live, '<a href="\\/console\\/inbox">repl(?:y|ies) unread')).toBe(1);
    expect(live.indexOf('Replies waiting')).toBeLessThan(live.indexOf('New leads, not called yet'));
    expect(live).toContain('Call me after 6 please');
    expect(live).toContain('Late Larry');
    const page = (await b.get('/console/today')).body;
    expect(page).toMatch(/>Inbox <span class="badge" id="nav-unread"\s*><span class="sr-only">, <\/span>1</);
  });

  it('When a brand-new agent opens Today, then it says how to send the first lead, with the curl line and Sources', async () => {
    const fresh = await agentWithLogin(t.app, 'Nina New', 'America/Chicago');
    const b = new ConsoleClient(t.app);
    await b.login(fresh.email, CONSOLE_PASSWORD);
    const page = (await b.get('/console/today')).body;
    expect(page).toContain('Send your first lead');
    expect(page).toContain('curl -X POST http://127.0.0.1:3000/v1/inbound-lead-gateway');
    expect(page).toContain('href="/console/sources"');
    await deliver(t.app, fresh.token, { name: 'First Fiona' });
    expect((await b.get('/console/today/live')).body).not.toContain('Send your first lead');
  });
});
