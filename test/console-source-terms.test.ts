import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminInject, createTestApp, type TestApp } from './support/app.ts';
import { agentWithLogin, CONSOLE_PASSWORD, ConsoleClient } from './support/console-client.ts';
import { deliver } from './support/deliver.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const sourceRow = async (sourceId: string) =>
  (
    await t.db.query<{ price_cents: number; accept: unknown; caps: unknown; duplicate_days: number }>(
      'SELECT price_cents, accept, caps, duplicate_days FROM sources WHERE source_id = $1',
      [sourceId],
    )
  ).rows[0];

describe('the console’s source page: price, acceptance rules and caps', () => {
  it('When the agent saves terms, then the source takes them and the page says them; a blank rule is none', async () => {
    const a = await agentWithLogin(t.app, 'Tess Terms');
    const b = new ConsoleClient(t.app);
    await b.login(a.email, CONSOLE_PASSWORD);
    const csrf = await b.csrf('/console/sources');
    const saved = await b.post(`/console/sources/${a.source_id}/terms`, {
      _csrf: csrf,
      price: '27.50',
      return_window_hours: '48',
      duplicate_days: '',
      states: 'tx, ok',
      min_age: '21',
      max_age: '',
      require_consent: 'on',
      daily: '25',
      monthly: '',
    });
    expect(saved.statusCode).toBe(303);
    expect(await sourceRow(a.source_id)).toEqual({
      price_cents: 2750,
      duplicate_days: 30,
      accept: { states: ['TX', 'OK'], min_age: 21, require_consent: true },
      caps: { daily: 25 },
    });
    const page = (await b.get('/console/sources')).body;
    expect(page).toContain('$27.50 a lead');
    expect(page).toContain('takes states TX, OK, age 21+, consent evidence required');
    expect(page).toContain('at most 25 a day');
  });

  it.each([
    [{ price: 'cheap' }, 'the price must be dollars such as 25 or 12.50'],
    [{ price: '1000000.01', duplicate_days: '30' }, 'the price is at most $1,000,000.00'],
    [{ states: 'TX, XX' }, 'not XX'],
    [{ daily: '0' }, 'the daily cap must be a whole number from 1 to 1000000'],
    [{ min_age: '70', max_age: '30' }, 'accept.min_age 70 is over accept.max_age 30'],
  ])('When the form holds %j, then a 400 notice says why and nothing changes', async (fields, why) => {
    const a = await agentWithLogin(t.app, `Bad ${Object.keys(fields).join('')}`);
    const b = new ConsoleClient(t.app);
    await b.login(a.email, CONSOLE_PASSWORD);
    const before = await sourceRow(a.source_id);
    const csrf = await b.csrf('/console/sources');
    const res = await b.post(`/console/sources/${a.source_id}/terms`, {
      _csrf: csrf,
      price: '10',
      ...fields,
    });
    expect(res.statusCode).toBe(400);
    expect(res.body).toContain('The terms were not saved');
    expect(res.body).toContain(why);
    expect(await sourceRow(a.source_id)).toEqual(before);
  });

  it('When a lead was bought twice, then its page lists both purchases, the repeat not billable', async () => {
    const a = await agentWithLogin(t.app, 'Paula Purchases');
    await adminInject(t.app, 'PATCH', `/sources/${a.source_id}`, { price_cents: 1200 });
    const body = { name: 'Bought Twice', phone: '3125559876' };
    const sent = (await deliver(t.app, a.token, body)).json<{ lead_id: string }>();
    await deliver(t.app, a.token, body);
    const b = new ConsoleClient(t.app);
    await b.login(a.email, CONSOLE_PASSWORD);
    const page = (await b.get(`/console/leads/${sent.lead_id}`)).body;
    expect(page).toContain('Purchases');
    expect(page.match(/\$12\.00/g)).toHaveLength(2);
    expect(page).toContain('not billable: duplicate');
  });
});
