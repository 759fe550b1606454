import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addDestination, adminInject, createTestApp, type TestApp } from './support/app.ts';
import { testDispatcher } from './support/automations.ts';
import { agentWithLogin, CONSOLE_PASSWORD, ConsoleClient } from './support/console-client.ts';
import { deliver } from './support/deliver.ts';
import { startReceiver } from './support/receiver.ts';

/**
 * The deliveries page tells the truth: a text the default recorder kept says
 * nothing was sent, here and in the lead's history; each webhook row names its destination; and
 * "Retry now" is offered only where sending again can help.
 */
let t: TestApp;
let receiver: Awaited<ReturnType<typeof startReceiver>>;
let agent: Awaited<ReturnType<typeof agentWithLogin>>;
let b: ConsoleClient;
let leadId: string;
const RECORDED = 'recorded (SMS_PROVIDER=recorder: nothing sent)';

beforeAll(async () => {
  t = await createTestApp();
  receiver = await startReceiver();
  agent = await agentWithLogin(t.app, 'Dora');
  expect((await addDestination(t.app, agent.source_id, { url: `${receiver.url}/crm` })).statusCode).toBe(201);
  leadId = (
    await deliver(t.app, agent.token, {
      name: 'Text Me',
      phone: '3125550191',
      state: 'IL',
      sms_consent: true,
    })
  ).json<{ lead_id: string }>().lead_id;
  // Noon in Chicago: inside the calling hours, so the first text goes at once (to the recorder).
  const dispatcher = testDispatcher(t.db, undefined, { now: () => new Date('2027-01-15T18:00:00Z') });
  await dispatcher.runOnce();
  await dispatcher.runOnce();
  b = new ConsoleClient(t.app);
  await b.login(agent.email, CONSOLE_PASSWORD);
});
afterAll(async () => {
  await receiver.close();
  await t.close();
});

describe('the deliveries page', () => {
  it('When a text was kept by the recorder, then it reads as recorded, nothing sent, never "sent"', async () => {
    const { rows } = await t.db.query<{ status: string; provider: string }>(
      'SELECT status, provider FROM sms_messages WHERE agent_id = $1',
      [agent.agent_id],
    );
    expect(rows).toEqual([{ status: 'sent', provider: 'recorder' }]);
    const page = (await b.get('/console/deliveries')).body;
    const texts = page.slice(page.indexOf('<h2>Texts</h2>'));
    expect(texts).toContain(RECORDED);
    expect(texts).not.toMatch(/<td>sent<\/td>/);
  });

  it('When the lead is opened, then its history and automations say the text was recorded, not sent', async () => {
    const page = (await b.get(`/console/leads/${leadId}`)).body;
    expect(page).toContain(`Text ${RECORDED}`);
    expect(page).not.toContain('<strong>Sms sent</strong>');
  });

  it('When a webhook was delivered, then its row names the destination and offers no retry; a dead one offers it', async () => {
    const { rows } = await t.db.query<{ delivery_id: string; status: string }>(
      'SELECT delivery_id, status FROM webhook_deliveries WHERE agent_id = $1 ORDER BY created_at',
      [agent.agent_id],
    );
    expect(rows.length).toBeGreaterThan(0);
    expect(rows.every((r) => r.status === 'delivered')).toBe(true);
    const page = (await b.get('/console/deliveries')).body;
    expect(page).toContain(`${receiver.url}/crm`);
    expect(page).not.toContain('/retry');

    const dead = rows[0]?.delivery_id ?? '';
    await t.db.query(`UPDATE webhook_deliveries SET status = 'dead', attempts = 8 WHERE delivery_id = $1`, [
      dead,
    ]);
    const after = (await b.get('/console/deliveries')).body;
    expect(after).toContain(`/console/deliveries/${dead}/retry`);
    expect(after.match(/\/retry"/g)).toHaveLength(1);
  });

  it('When the admin API lists the deliveries, then each carries its destination’s URL', async () => {
    const res = await adminInject(t.app, 'GET', `/agents/${agent.agent_id}/deliveries`);
    expect(res.json<{ deliveries: Array<{ destination_url: string }> }>().deliveries[0]).toMatchObject({
      destination_url: `${receiver.url}/crm`,
    });
  });
});
