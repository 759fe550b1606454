import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from './support/app.ts';
import { testDispatcher } from './support/automations.ts';
import { agentWithLogin, CONSOLE_PASSWORD, ConsoleClient } from './support/console-client.ts';
import { deliver } from './support/deliver.ts';

/**
 * The lead page's actions over HTTP (the browser suite clicks them): the same use case as the
 * admin API, CSRF checked, another agent's lead untouched, and a line saying what was saved.
 */
let t: TestApp;
let alice: Awaited<ReturnType<typeof agentWithLogin>>;
let bob: Awaited<ReturnType<typeof agentWithLogin>>;
let a: ConsoleClient;
let phone = 3125550700;

beforeAll(async () => {
  t = await createTestApp();
  alice = await agentWithLogin(t.app, 'Alicia');
  bob = await agentWithLogin(t.app, 'Bobby');
  a = new ConsoleClient(t.app);
  await a.login(alice.email, CONSOLE_PASSWORD);
});
afterAll(() => t.close());

async function lead(token: string, extra: Record<string, unknown> = {}) {
  const res = await deliver(t.app, token, { name: 'Console Lead', phone: String(phone++), ...extra });
  return res.json<{ lead_id: string }>().lead_id;
}

/** A lead of Alicia's in Illinois, with its call task made: the task's id. */
async function queuedLead(name: string) {
  const id = await lead(alice.token, { name, state: 'IL' });
  await testDispatcher(t.db).runOnce();
  const { rows } = await t.db.query<{ task_id: string }>(
    'SELECT task_id FROM dial_tasks WHERE lead_id = $1',
    [id],
  );
  return { id, task: rows[0]?.task_id ?? '' };
}

const status = async (leadId: string) =>
  (await t.db.query<{ status: string }>('SELECT status FROM leads WHERE lead_id = $1', [leadId])).rows[0]
    ?.status;

describe('acting on a lead from its page', () => {
  it('When the page opens, then it offers only the allowed statuses and no outcome chosen in advance', async () => {
    const id = await lead(alice.token, { appointment_date: '2027-03-15', appointment_time: '10:00 AM' });
    const page = (await a.get(`/console/leads/${id}`)).body;
    const statuses = [...page.matchAll(/name="status" required>([\s\S]*?)<\/select>/g)][0]?.[1] ?? '';
    expect([...statuses.matchAll(/<option value="([^"]*)"/g)].map((m) => m[1])).toEqual([
      '',
      'Not interested',
      'Bad number',
    ]);
    expect(page).not.toMatch(/<option[^>]* selected/);
    expect(page).toContain('data-confirm="No more texts or calls to this number');
  });

  it('When the status is changed, then the lead has it and the page says it was saved', async () => {
    const id = await lead(alice.token);
    const csrf = await a.csrf(`/console/leads/${id}`);
    const res = await a.post(`/console/leads/${id}/status`, { _csrf: csrf, status: 'Contacted' });
    expect(res.statusCode).toBe(303);
    expect(res.headers.location).toBe(`/console/leads/${id}?done=status`);
    expect(await status(id)).toBe('Contacted');
    expect((await a.get(res.headers.location as string)).body).toContain('Status saved.');
  });

  it('When a note, a call and do-not-contact are posted, then each is in the history, with its line', async () => {
    const id = await lead(alice.token);
    const post = async (path: string, form: Record<string, string>) =>
      a.post(`/console/leads/${id}/${path}`, { _csrf: await a.csrf(`/console/leads/${id}`), ...form });
    expect((await post('notes', { note: 'Call after 5' })).headers.location).toContain('done=note');
    expect((await post('call', { outcome: 'bad_number' })).headers.location).toContain('done=call');
    expect((await post('do-not-contact', {})).headers.location).toContain('done=dnc');
    const page = (await a.get(`/console/leads/${id}`)).body;
    expect(page).toContain('Call after 5');
    expect(page).toContain('<span class="status bad">Do not contact</span>');
    expect(page).not.toContain(`/console/leads/${id}/do-not-contact`);
    expect(await status(id)).toBe('Bad number');
    const { rows } = await t.db.query<{ event: string }>(
      'SELECT event FROM lead_history WHERE lead_id = $1 ORDER BY created_at, seq',
      [id],
    );
    expect(rows.map((r) => r.event)).toEqual(['created', 'note', 'call_outcome', 'do_not_contact']);
  });

  it('When a change the table does not allow, or a blank note, is posted, then nothing is saved and the page says so', async () => {
    const id = await lead(alice.token);
    const csrf = await a.csrf(`/console/leads/${id}`);
    const scheduled = await a.post(`/console/leads/${id}/status`, { _csrf: csrf, status: 'Scheduled' });
    expect(scheduled.headers.location).toContain('done=refused');
    const blank = await a.post(`/console/leads/${id}/notes`, { _csrf: csrf, note: '   ' });
    expect(blank.headers.location).toContain('done=refused');
    expect(await status(id)).toBe('New');
    expect((await a.get(`/console/leads/${id}?done=refused`)).body).toContain('That was not saved');
  });

  it('When another agent’s lead is posted to, or the form has no CSRF token, then nothing changes', async () => {
    const bobs = await lead(bob.token);
    const csrf = await a.csrf('/console/leads');
    const other = await a.post(`/console/leads/${bobs}/status`, { _csrf: csrf, status: 'Contacted' });
    expect(other.statusCode).toBe(404);
    const mine = await lead(alice.token);
    const forged = await a.post(`/console/leads/${mine}/status`, { status: 'Contacted' });
    expect(forged.statusCode).toBe(403);
    expect(await status(bobs)).toBe('New');
    expect(await status(mine)).toBe('New');
  });
});

describe('the dial queue', () => {
  it('When the queue opens, then no outcome is chosen in advance, a closed window says the state’s rule, and the phone is a tel: link', async () => {
    await lead(alice.token, { name: 'Florida Prospect', phone: '3055550188', state: 'FL' });
    await testDispatcher(t.db).runOnce();
    const page = (await a.get('/console/dial-queue')).body;
    const row = page.slice(page.indexOf('Florida Prospect'));
    expect(row).toContain('href="tel:+13055550188"');
    expect(row).toContain('(305) 555-0188');
    expect(row).toContain('Florida: calls 8 a.m.–8 p.m.');
    expect(row.slice(0, row.indexOf('</select>'))).toContain('<option value="">Choose…</option>');
    expect(page).not.toMatch(/<option[^>]* selected/);
  });

  it('When an outcome is saved, then the page confirms it with the lead’s name; without one, it says nothing was saved', async () => {
    const { id, task } = await queuedLead('Queued Prospect');
    const csrf = await a.csrf('/console/dial-queue');
    const none = await a.post(`/console/dial-queue/${task}/outcome`, { _csrf: csrf, outcome: '' });
    expect((await a.get(none.headers.location as string)).body).toContain(
      'Nothing saved: choose the call’s outcome',
    );
    expect(await status(id)).toBe('New');
    const saved = await a.post(`/console/dial-queue/${task}/outcome`, { _csrf: csrf, outcome: 'no_answer' });
    const page = (await a.get(saved.headers.location as string)).body;
    expect(page).toMatch(/Saved: No answer for Queued Prospect\.\s+The call comes back in an hour/);
  });

  it('When a call is saved as Sold, then it is saved as reached and the lead page asks for the premium; the sale makes it Sold', async () => {
    const { id, task } = await queuedLead('Buying Prospect');
    const csrf = await a.csrf('/console/dial-queue');
    expect((await a.get('/console/dial-queue')).body).toContain('<option value="sold">Sold…</option>');
    const saved = await a.post(`/console/dial-queue/${task}/outcome`, { _csrf: csrf, outcome: 'sold' });
    expect(saved.statusCode).toBe(303);
    expect(saved.headers.location).toBe(`/console/leads/${id}?done=sell#sale`);
    const page = (await a.get(`/console/leads/${id}?done=sell`)).body;
    expect(page).toContain('Enter the premium below to record the sale.');
    expect(await status(id)).toBe('Contacted');
    const { rows: done } = await t.db.query<{ status: string }>(
      'SELECT status FROM dial_tasks WHERE task_id = $1',
      [task],
    );
    expect(done[0]?.status).toBe('done');
    const sale = await a.post(`/console/leads/${id}/sale`, {
      _csrf: await a.csrf(`/console/leads/${id}`),
      premium: '1200.50',
    });
    expect(sale.headers.location).toBe(`/console/leads/${id}?done=sold`);
    expect(await status(id)).toBe('Sold');
  });

  it.each([
    ['21474836.48', 'sale_too_large', 'a premium is at most $21,474,836.47'],
    ['99999999.99', 'sale_too_large', 'a premium is at most $21,474,836.47'],
    ['12,00', 'sale_refused', 'the premium is dollars and cents'],
  ])(
    'When the sale form is sent with premium %s, then the lead page says why, no sale is written and nothing fails',
    async (premium, done, words) => {
      const { id } = await queuedLead(`Premium ${premium}`);
      const res = await a.post(`/console/leads/${id}/sale`, {
        _csrf: await a.csrf(`/console/leads/${id}`),
        premium,
      });
      expect(res.statusCode, res.body).toBe(303);
      expect(res.headers.location).toBe(`/console/leads/${id}?done=${done}`);
      expect((await a.get(res.headers.location as string)).body).toContain(words);
      const { rows } = await t.db.query('SELECT 1 FROM lead_sales WHERE lead_id = $1', [id]);
      expect(rows).toEqual([]);
      expect(await status(id)).not.toBe('Sold');
      expect(t.logs.join('')).not.toContain('out of range for type integer');
    },
  );
});
