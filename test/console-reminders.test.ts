import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { when } from '../src/console/format.ts';
import { adminInject, createTestApp, type TestApp } from './support/app.ts';
import { testDispatcher } from './support/automations.ts';
import { agentWithLogin, CONSOLE_PASSWORD, ConsoleClient } from './support/console-client.ts';
import { deliver } from './support/deliver.ts';

/** The console's appointment reminders: the switches and words on the Cadences page, and a lead's reminders. */

const ZONE = 'America/New_York';
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

async function signedIn(name: string) {
  const a = await agentWithLogin(t.app, name, ZONE);
  const b = new ConsoleClient(t.app);
  await b.login(a.email, CONSOLE_PASSWORD);
  return { a, b, csrf: await b.csrf('/console/cadences') };
}
const remindersOf = async (agentId: string) =>
  (await adminInject(t.app, 'GET', `/agents/${agentId}`)).json().reminders;

describe('appointment reminders in the console', () => {
  it('When the agent saves the reminders form, then the switches and words are the agent’s; unknown words save nothing', async () => {
    const { a, b, csrf } = await signedIn('Rita Reminder');
    const page = await b.get('/console/cadences');
    expect(page.body).toContain('Appointment reminders');
    expect(page.body).toMatch(/name="day_before" value="on"\s+checked/);
    const saved = await b.post('/console/cadences/reminders', {
      _csrf: csrf,
      hour_before: 'on',
      template: ' See you {appointment_time}, {first_name}. ',
    });
    expect(saved.statusCode).toBe(303);
    expect(saved.headers.location).toBe('/console/cadences?done=reminders');
    expect(await remindersOf(a.agent_id)).toEqual({
      day_before: false,
      hour_before: true,
      template: 'See you {appointment_time}, {first_name}.',
    });
    const refused = await b.post('/console/cadences/reminders', {
      _csrf: csrf,
      day_before: 'on',
      template: 'About {policy}',
    });
    expect(refused.headers.location).toBe('/console/cadences?done=reminders_refused');
    expect((await remindersOf(a.agent_id)).template).toBe('See you {appointment_time}, {first_name}.');
    const blank = await b.post('/console/cadences/reminders', {
      _csrf: csrf,
      day_before: 'on',
      hour_before: 'on',
      template: '  ',
    });
    expect(blank.headers.location).toBe('/console/cadences?done=reminders');
    expect(await remindersOf(a.agent_id)).toEqual({ day_before: true, hour_before: true, template: null });
  });

  it('When a lead has an appointment, then its page shows each reminder, when it goes in the agent’s zone, and its state', async () => {
    const { a, b } = await signedIn('Rory Reminder');
    const lead = (
      await deliver(t.app, a.token, {
        name: 'Pat Prospect',
        phone: '2125550177',
        state: 'NY',
        sms_opt_in: 'yes',
        scheduled_at: '2027-01-20T13:30:00Z',
      })
    ).json();
    await testDispatcher(t.db, [0], { now: () => new Date('2027-01-18T15:00:00Z') }).runOnce();
    const page = await b.get(`/console/leads/${lead.lead_id}`);
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('id="reminders-h"');
    expect(page.body).toContain('A day before');
    expect(page.body).toContain(when('2027-01-20T01:59:00.000Z', ZONE));
    expect(page.body).toContain('planned');
    const none = (await deliver(t.app, a.token, { name: 'No Date', phone: '2125550178' })).json();
    expect((await b.get(`/console/leads/${none.lead_id}`)).body).toContain(
      'None: an appointment booked for a prospect',
    );
  });
});
