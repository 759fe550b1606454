import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from './support/app.ts';
import { testDispatcher } from './support/automations.ts';
import { agentWithLogin, CONSOLE_PASSWORD, ConsoleClient } from './support/console-client.ts';
import { deliver } from './support/deliver.ts';

/** The console's side of conversations (docs/conversations.md): the thread, the answer, the Inbox, opt-outs shown. */

const SECRET = 'console-sms-secret';
let t: TestApp;
let agent: Awaited<ReturnType<typeof agentWithLogin>>;
let b: ConsoleClient;
beforeAll(async () => {
  t = await createTestApp({ sms: { provider: 'recorder', inboundSecret: SECRET } });
  agent = await agentWithLogin(t.app, 'Connie Console');
  b = new ConsoleClient(t.app);
  await b.login(agent.email, CONSOLE_PASSWORD);
});
afterAll(() => t.close());

const text = (from: string, body: string) =>
  t.app.inject({
    method: 'POST',
    url: '/v1/sms/inbound',
    headers: { 'content-type': 'application/json', 'x-sms-secret': SECRET },
    payload: JSON.stringify({ from, body }),
  });
const lead = async (name: string, phone: string | null) =>
  (
    await deliver(t.app, agent.token, {
      name,
      state: 'IL',
      ...(phone ? { phone } : { email: 'x@example.com' }),
    })
  ).json().lead_id as string;

describe('the lead page’s messages', () => {
  it('When the prospect texted, then the lead page shows the thread, polled, and opening it marks the reply read', async () => {
    const id = await lead('Thread Theo', '3125550801');
    await text('3125550801', 'Is the quote still good?');
    const inboxBefore = (await b.get('/console/inbox')).body;
    expect(inboxBefore).toContain('Thread Theo');
    expect(inboxBefore).toMatch(/aria-label="1 unread"/);
    const page = (await b.get(`/console/leads/${id}`)).body;
    expect(page).toContain('Is the quote still good?');
    expect(page).toContain(`hx-get="/console/leads/${id}/thread"`);
    expect(page).toMatch(/<textarea\s+id="answer"\s+name="body"/);
    const inboxAfter = (await b.get('/console/inbox/rows')).body;
    expect(inboxAfter).toContain('Thread Theo');
    expect(inboxAfter).not.toMatch(/aria-label="1 unread"/);
  });

  it('When the agent answers from the lead page, then it goes out and the thread shows it; a blank one is refused with words', async () => {
    const id = await lead('Answer Ada', '3125550802');
    await text('3125550802', 'Can you call me?');
    const csrf = await b.csrf(`/console/leads/${id}`);
    const sent = await b.post(`/console/leads/${id}/messages`, {
      _csrf: csrf,
      body: 'Calling you in 5 minutes',
    });
    expect(sent.statusCode).toBe(303);
    expect(sent.headers.location).toBe(`/console/leads/${id}?done=texted#messages`);
    await testDispatcher(t.db, [0]).runOnce();
    const thread = (await b.get(`/console/leads/${id}/thread`)).body;
    expect(thread).toContain('Calling you in 5 minutes');
    expect(thread).toMatch(/You · [^<]* · sent/);
    // The provider's later word: on the thread and on the deliveries page.
    const { rows } = await t.db.query<{ agent_id: string; sms_id: string }>(
      `SELECT agent_id, sms_id FROM sms_messages WHERE lead_id = $1 AND kind = 'agent'`,
      [id],
    );
    const sms = rows[0];
    const status = await t.app.inject({
      method: 'POST',
      url: `/v1/sms/status?agent=${sms?.agent_id}&sms=${sms?.sms_id}`,
      headers: { 'content-type': 'application/json', 'x-sms-secret': SECRET },
      payload: JSON.stringify({ status: 'undelivered', error_code: '30007' }),
    });
    expect(status.json()).toEqual({ received: true, updated: true });
    expect((await b.get(`/console/leads/${id}/thread`)).body).toContain('undelivered: 30007');
    const deliveries = (await b.get('/console/deliveries')).body;
    expect(deliveries).toContain('sent, then undelivered');
    expect(deliveries).toContain('30007');
    const blank = await b.post(`/console/leads/${id}/messages`, {
      _csrf: await b.csrf(`/console/leads/${id}`),
      body: '  ',
    });
    expect(blank.headers.location).toBe(`/console/leads/${id}?done=text_refused#messages`);
    expect((await b.get(blank.headers.location as string)).body).toContain('a text is 1 to 1,600 characters');
    const forged = await b.post(`/console/leads/${id}/messages`, { _csrf: 'forged', body: 'hi' });
    expect(forged.statusCode).toBe(403);
  });

  it('When the number opted out, then the header, the consent field, the leads list and the answer box say so', async () => {
    const id = await lead('Revoked Rita', '3125550803');
    await text('3125550803', 'Please remove me from your list');
    const page = (await b.get(`/console/leads/${id}`)).body;
    expect(page).toMatch(/<span class="status">New<\/span>\s*<span class="status bad">Opted out<\/span>/);
    expect(page).toMatch(/revoked \([^)]*“Please remove me from your list”\)/);
    expect(page).toContain('no texts can go to it');
    expect(page).not.toMatch(/<textarea\s+id="answer"/);
    const list = (await b.get('/console/leads')).body;
    const row = list.slice(list.indexOf('Revoked Rita'), list.indexOf('</tr>', list.indexOf('Revoked Rita')));
    expect(row).toContain('Opted out');
    const refused = await b.post(`/console/leads/${id}/messages`, {
      _csrf: await b.csrf(`/console/leads/${id}`),
      body: 'one more',
    });
    expect(refused.headers.location).toBe(`/console/leads/${id}?done=CONTACT_OPTED_OUT#messages`);
  });

  it('When a lead has no phone, or is another agent’s, then there is no answer box, or nothing at all', async () => {
    const id = await lead('Phoneless Phil', null);
    expect((await b.get(`/console/leads/${id}`)).body).toContain('The lead has no phone number to text.');
    const other = await agentWithLogin(t.app, 'Oscar Other');
    const theirs = (await deliver(t.app, other.token, { name: 'Not Yours', phone: '3125550804' })).json()
      .lead_id as string;
    expect((await b.get(`/console/leads/${theirs}/thread`)).statusCode).toBe(404);
    const post = await b.post(`/console/leads/${theirs}/messages`, {
      _csrf: await b.csrf('/console/inbox'),
      body: 'intruding',
    });
    expect(post.statusCode).toBe(404);
  });
});
