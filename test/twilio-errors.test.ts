import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSmsProvider } from '../src/automations/sms-providers.ts';
import { TWILIO_FINAL_ERRORS } from '../src/automations/tables/twilio-errors.ts';
import { adminInject, createTestApp, seedSource, type TestApp } from './support/app.ts';
import { testDispatcher } from './support/automations.ts';
import { agentWithLogin, CONSOLE_PASSWORD, ConsoleClient } from './support/console-client.ts';
import { deliver } from './support/deliver.ts';

/**
 * Twilio's refusals (src/automations/tables/twilio-errors.ts): a code no retry changes fails the
 * text at once; 21610, a number that unsubscribed from the sender, opts the number out; anything
 * else is tried again.
 */

/** What the fake Twilio answers the next Messages request with, by the number texted. */
const answers = new Map<string, { status: number; body: unknown }>();
let server: Server;
let baseUrl: string;
let t: TestApp;
beforeAll(async () => {
  server = createServer((req, res) => {
    let body = '';
    req.on('data', (d: Buffer) => (body += d.toString()));
    req.on('end', () => {
      const to = new URLSearchParams(body).get('To') ?? '';
      const answer = answers.get(to) ?? { status: 201, body: { sid: `SM${to}` } };
      res.writeHead(answer.status, { 'content-type': 'application/json' }).end(JSON.stringify(answer.body));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

let n = 0;
/** A lead with text consent whose first text Twilio answers with `status` and `body`. */
async function textedLead(status: number, body: unknown, source?: { agent_id: string; token: string }) {
  const phone = `31255509${String(10 + ++n).padStart(2, '0')}`;
  answers.set(`+1${phone}`, { status, body });
  const src = source ?? (await seedSource(t.db, `Twilio Agent ${n}`, 'America/Chicago'));
  const lead = (
    await deliver(t.app, src.token, { name: 'Tess Twilio', phone, state: 'IL', sms_consent: true })
  ).json().lead_id as string;
  const twilio = createSmsProvider({
    provider: 'twilio',
    twilio: { accountSid: 'AC1', authToken: 'tok', from: '+15125550000', baseUrl },
    timeoutMs: 5_000,
  });
  await testDispatcher(t.db, [0], { now: () => new Date('2027-01-15T18:00:00Z'), sms: twilio }).runOnce();
  const { rows } = await t.db.query<{ status: string; error: string | null; attempts: number }>(
    `SELECT status, error, attempts FROM sms_messages WHERE lead_id = $1 AND kind = 'lead'`,
    [lead],
  );
  return { phone, lead, agent: src.agent_id, text: rows[0] };
}

describe('Twilio’s refusals', () => {
  it('When Twilio answers 21610 (the number unsubscribed), then the text is not retried and the number is opted out, without a confirmation', async () => {
    const { phone, agent, text } = await textedLead(400, {
      code: 21610,
      message: 'Attempt to send to unsubscribed recipient',
      status: 400,
    });
    expect(text).toEqual({
      status: 'suppressed',
      error: 'opted out (Twilio 21610: the number unsubscribed from this sender (STOP))',
      attempts: 1,
    });
    const { rows } = await t.db.query(`SELECT agent_id, keyword FROM sms_opt_outs WHERE phone = $1`, [phone]);
    expect(rows).toEqual([{ agent_id: agent, keyword: 'STOP' }]);
    const { rows: confirmations } = await t.db.query(
      `SELECT 1 FROM sms_messages WHERE to_phone = $1 AND kind = 'opt_out_confirmation'`,
      [phone],
    );
    expect(confirmations).toEqual([]);
  });

  it.each(Object.entries(TWILIO_FINAL_ERRORS).filter(([, e]) => !e.optedOut))(
    'When Twilio answers %s, then the text fails at once, saying why, and is not tried again',
    async (code, { words }) => {
      const { text } = await textedLead(400, { code: Number(code), message: 'refused', status: 400 });
      expect(text).toEqual({ status: 'failed', error: `Twilio ${code}: ${words}`, attempts: 1 });
    },
  );

  it('When Twilio refuses a text for good, then the lead’s thread and the console’s deliveries page say the code and what it means', async () => {
    const agent = await agentWithLogin(t.app, 'Thread Tina');
    const { lead } = await textedLead(400, { code: 21211, message: 'Invalid To', status: 400 }, agent);
    const said = 'Twilio 21211: not a valid phone number';
    const thread = (await adminInject(t.app, 'GET', `/leads/${lead}/messages`)).json().messages;
    expect(thread).toEqual([expect.objectContaining({ direction: 'outbound', error: said })]);
    const b = new ConsoleClient(t.app);
    await b.login(agent.email, CONSOLE_PASSWORD);
    expect((await b.get('/console/deliveries')).body).toContain(said);
  });

  it.each([
    [500, { message: 'Internal error' }],
    [429, { code: 20429, message: 'Too Many Requests' }],
    [400, { code: 21617, message: 'The concatenated message body exceeds the 1600 character limit' }],
  ])(
    'When Twilio answers %s with a code not listed, then the text is tried again a minute later',
    async (status, body) => {
      const { text } = await textedLead(status, body);
      expect(text).toMatchObject({ status: 'scheduled', attempts: 1 });
    },
  );
});
