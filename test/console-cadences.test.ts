import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getCadence, listCadences } from '../src/automations/cadence-repository.ts';
import { readLeadCadence } from '../src/automations/cadence-view.ts';
import { when } from '../src/console/format.ts';
import { loadToday } from '../src/console/today.ts';
import { adminInject, createTestApp, type TestApp } from './support/app.ts';
import { testDispatcher } from './support/automations.ts';
import { agentWithLogin, CONSOLE_PASSWORD, ConsoleClient } from './support/console-client.ts';
import { deliver } from './support/deliver.ts';

/**
 * The console's cadences: the page that makes and edits them (steps as rows), the source's choice,
 * the lead's plan with each step's state and its Stop button, and Today's count of steps due.
 */

type Agent = Awaited<ReturnType<typeof agentWithLogin>>;
const ZONE = 'America/New_York';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

async function signedIn(agent: Agent) {
  const b = new ConsoleClient(t.app);
  await b.login(agent.email, CONSOLE_PASSWORD);
  return { b, csrf: await b.csrf('/console/cadences') };
}

/** A cadence made through the admin API, for the tests about what the pages do with one. */
async function apiCadence(agentId: string, name: string, steps: object[]) {
  const res = await adminInject(t.app, 'POST', `/agents/${agentId}/cadences`, { name, steps });
  expect(res.statusCode, res.body).toBe(201);
  return res.json<{ cadence_id: string }>().cadence_id;
}

let refusals = 0;
const cadenceOf = async (agentId: string) => (await listCadences(t.db, agentId)).map((c) => c.name);

describe('the Cadences page', () => {
  it('When the agent fills in rows, then the cadence is made with each delay in minutes, blank rows skipped, in the order of their delay', async () => {
    const a = await agentWithLogin(t.app, 'Cora Cadence', ZONE);
    const { b, csrf } = await signedIn(a);
    const page = await b.get('/console/cadences');
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('aria-current="page"');
    expect(page.body).toContain('No cadence yet');
    expect(page.body).toContain('name="after_8"');
    expect(page.body).not.toContain('name="after_9"');
    const made = await b.post('/console/cadences', {
      _csrf: csrf,
      name: '  Two weeks  ',
      rows: '8',
      after_1: '1',
      unit_1: 'days',
      action_1: 'call',
      after_2: '0',
      unit_2: 'minutes',
      action_2: 'call',
      after_4: '2',
      unit_4: 'hours',
      action_4: 'text',
      body_4: 'Hi {first_name}, this is {agent_name}.',
    });
    expect(made.statusCode, made.body).toBe(303);
    expect(made.headers.location).toBe('/console/cadences?done=created');
    const [cadence] = await listCadences(t.db, a.agent_id);
    expect(cadence).toMatchObject({
      name: 'Two weeks',
      steps: [
        { after_minutes: 0, action: 'call' },
        { after_minutes: 120, action: 'text', body: 'Hi {first_name}, this is {agent_name}.' },
        { after_minutes: 1440, action: 'call' },
      ],
    });
    const list = (await b.get('/console/cadences?done=created')).body;
    expect(list).toContain('Cadence saved.');
    expect(list).toContain(`href="/console/cadences/${cadence?.cadence_id}">Two weeks</a>`);
    expect(list).toContain('3 steps');
    expect(list).toContain('Call at once · Text after 2 hours · Call after 1 day');
  });

  it('When the agent edits a cadence, then its form is prefilled, More rows adds rows saving nothing, and Save replaces name and steps', async () => {
    const a = await agentWithLogin(t.app, 'Eddie Edit', ZONE);
    const id = await apiCadence(a.agent_id, 'First try', [
      { after_minutes: 0, action: 'call' },
      { after_minutes: 90, action: 'text', body: 'Hello {first_name}' },
      { after_minutes: 2880, action: 'call' },
    ]);
    const { b, csrf } = await signedIn(a);
    const form = (await b.get(`/console/cadences/${id}`)).body;
    expect(form).toContain('value="First try"');
    expect(form).toMatch(/name="after_2"[^>]*value="90"/);
    expect(form).toMatch(/name="after_3"[^>]*value="2"/);
    expect(form).toMatch(
      /name="unit_3">\s*<option value="minutes"\s*>minutes<\/option>\s*<option value="hours"\s*>hours<\/option>\s*<option value="days"\s+selected>/,
    );
    expect(form).toContain('>Hello {first_name}</textarea>');
    expect(form).toContain(`action="/console/cadences/${id}/delete"`);

    const more = await b.post(`/console/cadences/${id}`, {
      _csrf: csrf,
      name: 'Typed but not saved',
      rows: '8',
      after_1: '5',
      action_1: 'call',
      more: '1',
    });
    expect(more.statusCode).toBe(200);
    expect(more.body).toContain('name="after_12"');
    expect(more.body).toContain('value="Typed but not saved"');
    expect((await getCadence(t.db, a.agent_id, id))?.name).toBe('First try');

    const saved = await b.post(`/console/cadences/${id}`, {
      _csrf: csrf,
      name: 'Second try',
      rows: '12',
      after_1: '3',
      unit_1: 'days',
      action_1: 'text',
      body_1: 'Still there, {first_name}?',
      after_11: '30',
      unit_11: 'minutes',
      action_11: 'call',
    });
    expect(saved.statusCode, saved.body).toBe(303);
    expect(saved.headers.location).toBe('/console/cadences?done=saved');
    expect(await getCadence(t.db, a.agent_id, id)).toMatchObject({
      name: 'Second try',
      steps: [
        { after_minutes: 30, action: 'call' },
        { after_minutes: 4320, action: 'text', body: 'Still there, {first_name}?' },
      ],
    });
  });

  it.each([
    [{ action_2: 'text', after_2: '1' }, 'Step 2: a text needs its words.'],
    [{ after_1: 'soon' }, 'Step 1: the delay must be a whole number, at most 60 days (86,400 minutes).'],
    [{ after_1: '61', unit_1: 'days' }, 'Step 1: the delay must be a whole number, at most 60 days'],
    [{ after_1: '-5' }, 'Step 1: the delay must be a whole number'],
    [{ unit_1: 'weeks' }, 'Step 1: the delay is in minutes, hours or days.'],
    [{ action_1: '' }, 'Step 1: choose Call or Text.'],
    [{ action_1: 'email' }, 'Step 1: choose Call or Text.'],
    [{ body_1: 'Call me' }, 'Step 1: a call has no text: clear it, or choose Text.'],
    [
      { action_3: 'text', after_3: '0', body_3: 'Hi {last_name}' },
      'Step 3: the text has an unknown placeholder {last_name}; known: {first_name}, {agent_name}.',
    ],
    [
      { action_3: 'text', after_3: '0', body_3: 'x'.repeat(641) },
      'Step 3: the text is at most 640 characters',
    ],
    [
      { action_3: 'text', after_3: '0', body_3: 'nul\u0000here' },
      'Step 3: the text holds a character that cannot be stored.',
    ],
    [{ after_1: '', action_1: '' }, 'A cadence needs at least one step: fill in a row.'],
    [{ name: 'n'.repeat(201) }, 'name must be at most 200 characters'],
    [{ name: '   ' }, 'Nothing was saved: name'],
  ])(
    'When the form holds %j, then a 400 page says why, keeps what was typed, and makes nothing',
    async (fields, why) => {
      const a = await agentWithLogin(t.app, `Refused ${++refusals}`, ZONE);
      const { b, csrf } = await signedIn(a);
      const res = await b.post('/console/cadences', {
        _csrf: csrf,
        name: 'Refused',
        rows: '8',
        after_1: '0',
        unit_1: 'minutes',
        action_1: 'call',
        ...fields,
      });
      expect(res.statusCode).toBe(400);
      expect(res.body).toContain('role="alert"');
      expect(res.body.replace(/&#39;/g, "'")).toContain(why);
      expect(res.body).toContain('New cadence');
      expect(await cadenceOf(a.agent_id)).toEqual([]);
    },
  );

  it('When a field is posted twice, then the form says what is wrong rather than failing', async () => {
    const a = await agentWithLogin(t.app, 'Doubled Dora', ZONE);
    const { b, csrf } = await signedIn(a);
    const res = await t.app.inject({
      method: 'POST',
      url: '/console/cadences',
      headers: { cookie: b.header(), 'content-type': 'application/x-www-form-urlencoded' },
      payload: `_csrf=${encodeURIComponent(csrf)}&name=Twice&after_1=0&after_1=5&action_1=call`,
    });
    expect(res.statusCode).toBe(400);
    expect(res.body).toContain('Step 1: the delay must be a whole number');
  });

  it('When a cadence is made the default, then the list says so; No default clears it; Delete removes it', async () => {
    const a = await agentWithLogin(t.app, 'Dee Default', ZONE);
    const first = await apiCadence(a.agent_id, 'Gentle', [{ after_minutes: 0, action: 'call' }]);
    const second = await apiCadence(a.agent_id, 'Pushy', [{ after_minutes: 0, action: 'call' }]);
    const { b, csrf } = await signedIn(a);
    const defaultOf = async () =>
      (
        await t.db.query<{ default_cadence_id: string | null }>(
          'SELECT default_cadence_id FROM agents WHERE agent_id = $1',
          [a.agent_id],
        )
      ).rows[0]?.default_cadence_id;
    const made = await b.post('/console/cadences/default', { _csrf: csrf, cadence_id: second });
    expect(made.headers.location).toBe('/console/cadences?done=default');
    expect(await defaultOf()).toBe(second);
    const list = (await b.get('/console/cadences')).body;
    expect(list).toMatch(/Pushy<\/a>[\s\S]*?<span class="status ok">default<\/span>/);
    expect(list).toMatch(/Gentle<\/a>[\s\S]*?Make default/);
    expect((await b.get(`/console/cadences/${second}`)).body).toContain(
      '<span class="status ok">default</span>',
    );

    const sources = (await b.get('/console/sources')).body;
    expect(sources).toContain('Your default (Pushy)');

    await b.post('/console/cadences/default', { _csrf: csrf, cadence_id: '' });
    expect(await defaultOf()).toBeNull();

    await b.post('/console/cadences/default', { _csrf: csrf, cadence_id: first });
    const gone = await b.post(`/console/cadences/${first}/delete`, { _csrf: csrf });
    expect(gone.headers.location).toBe('/console/cadences?done=deleted');
    expect(await cadenceOf(a.agent_id)).toEqual(['Pushy']);
    expect(await defaultOf()).toBeNull();
    expect((await b.get(`/console/cadences/${first}`)).statusCode).toBe(404);
    expect((await b.get('/console/cadences?done=deleted')).body).toContain('Cadence deleted.');
  });
});

describe('a cadence at work: the source, the lead, Today', () => {
  let a: Agent;
  let cadenceId: string;
  let leadId: string;
  let b: ConsoleClient;
  let csrf: string;
  beforeAll(async () => {
    a = await agentWithLogin(t.app, 'Pat Planner', ZONE);
    cadenceId = await apiCadence(a.agent_id, 'New lead, three days', [
      { after_minutes: 0, action: 'call' },
      { after_minutes: 1440, action: 'text', body: 'Hi {first_name}, it is {agent_name} again.' },
      { after_minutes: 4320, action: 'call' },
    ]);
    ({ b, csrf } = await signedIn(a));
  });

  it('When the agent chooses a cadence on the source page, then the source names it and the page shows it chosen', async () => {
    const before = (await b.get('/console/sources')).body;
    expect(before).toContain('Your default (none set)');
    const res = await b.post(`/console/sources/${a.source_id}/cadence`, {
      _csrf: csrf,
      cadence_id: cadenceId,
    });
    expect(res.statusCode, res.body).toBe(303);
    const { rows } = await t.db.query<{ cadence_id: string | null }>(
      'SELECT cadence_id FROM sources WHERE source_id = $1',
      [a.source_id],
    );
    expect(rows[0]?.cadence_id).toBe(cadenceId);
    expect((await b.get('/console/sources')).body).toMatch(
      new RegExp(`<option value="${cadenceId}"\\s+selected>\\s*New lead, three days`),
    );
  });

  it('When a lead of that source is delivered, then its page shows the plan with each step’s due time in the agent’s zone and its state', async () => {
    const sent = await deliver(t.app, a.token, {
      name: 'Paula Plan',
      phone: '3055550177',
      state: 'FL',
      sms_consent: true,
    });
    expect(sent.statusCode, sent.body).toBe(200);
    leadId = sent.json<{ lead_id: string }>().lead_id;
    await testDispatcher(t.db).runOnce(); // the fan-out enrolls the new lead
    const plan = await readLeadCadence(t.db, a.agent_id, leadId);
    expect(plan?.steps).toHaveLength(3);
    const page = (await b.get(`/console/leads/${leadId}`)).body;
    const section = /<section aria-labelledby="cadence-h">[\s\S]*?<\/section>/.exec(page)?.[0] ?? '';
    expect(section).toContain('New lead, three days');
    expect(section).toContain('<span class="status ok">active</span>');
    for (const step of plan?.steps ?? []) expect(section).toContain(when(step.due_at, ZONE));
    expect(section.match(/<td>(Call|Text)<\/td>/g)).toEqual([
      '<td>Call</td>',
      '<td>Text</td>',
      '<td>Call</td>',
    ]);
    expect(section).toMatch(/>pending</);
    expect(section).toContain(`action="/console/leads/${leadId}/cadence/stop"`);
    expect(section).toContain('data-confirm="Stop New lead, three days for Paula Plan?');
  });

  it('When a plan’s next step falls due today or is overdue, then Today counts it, and not one due a later day', async () => {
    const NOW = new Date('2027-01-15T14:00:00Z'); // 9 a.m. in New York
    // The plan as enrolled, its first step still to do, falling due at `due`.
    const dueAt = (due: string) =>
      t.db.query(
        `UPDATE cadence_runs SET status = 'active', next_step = 0, steps = '[]', due_at = ${due}
          WHERE agent_id = $1 AND lead_id = $2`,
        [a.agent_id, leadId],
      );
    const counted = async () =>
      (await loadToday(t.db, { agent_id: a.agent_id, timezone: ZONE }, NOW)).cadenceSteps;
    await dueAt(`'2027-01-14T14:00:00Z'`);
    expect(await counted()).toBe(1);
    await dueAt(`'2027-01-16T04:59:00Z'`);
    expect(await counted()).toBe(1);
    await dueAt(`'2027-01-16T05:00:00Z'`);
    expect(await counted()).toBe(0);
    // The page reads at the real clock: the step overdue by a day.
    await dueAt(`now() - interval '1 day'`);
    const today = (await b.get('/console/today')).body;
    expect(today).toMatch(
      /<strong>1<\/strong>\s*<a href="\/console\/dial-queue">cadence step due today<\/a>/,
    );
  });

  it('When the agent stops the cadence, then the page says so, its steps still to do are canceled and no Stop button is left', async () => {
    const res = await b.post(`/console/leads/${leadId}/cadence/stop`, { _csrf: csrf });
    expect(res.statusCode).toBe(303);
    expect(res.headers.location).toBe(`/console/leads/${leadId}?done=cadence_stopped`);
    const page = (await b.get(res.headers.location ?? '')).body;
    expect(page).toContain('Cadence stopped: its steps still to do are canceled.');
    const section = /<section aria-labelledby="cadence-h">[\s\S]*?<\/section>/.exec(page)?.[0] ?? '';
    expect(section).toContain('<span class="status bad">stopped</span> (stopped by you)');
    expect(section).not.toContain('/cadence/stop');
    expect(section.match(/>canceled</g)).toHaveLength(3);
    expect((await readLeadCadence(t.db, a.agent_id, leadId))?.status).toBe('stopped');
    expect((await b.get('/console/today')).body).toMatch(
      /<strong>0<\/strong>\s*<a href="\/console\/dial-queue">cadence steps due today/,
    );
  });

  it('When a lead follows no cadence, then its page says so and Stop changes nothing', async () => {
    await b.post(`/console/sources/${a.source_id}/cadence`, { _csrf: csrf, cadence_id: '' });
    const sent = await deliver(t.app, a.token, { name: 'Nora None', phone: '3055550178', state: 'FL' });
    const id = sent.json<{ lead_id: string }>().lead_id;
    await testDispatcher(t.db).runOnce();
    const page = (await b.get(`/console/leads/${id}`)).body;
    expect(page).toContain('None: a new lead follows the cadence its source names');
    const res = await b.post(`/console/leads/${id}/cadence/stop`, { _csrf: csrf });
    expect(res.headers.location).toBe(`/console/leads/${id}?done=cadence_refused`);
    expect((await b.get(res.headers.location ?? '')).body).toContain(
      'Nothing to stop: this lead follows no cadence.',
    );
  });
});

describe('another agent’s cadences', () => {
  it('When Alice names Bob’s cadence or lead by URL or in a form, then it is the 404 page or a refusal, and nothing of Bob’s or hers changes', async () => {
    const alice = await agentWithLogin(t.app, 'Alice Own', ZONE);
    const bob = await agentWithLogin(t.app, 'Bob Other', ZONE);
    const bobs = await apiCadence(bob.agent_id, 'Bob secret plan', [{ after_minutes: 0, action: 'call' }]);
    const { b, csrf } = await signedIn(alice);
    expect((await b.get('/console/cadences')).body).not.toContain('Bob secret plan');
    for (const id of [bobs, 'not-a-uuid', '00000000-0000-4000-8000-000000000000']) {
      const page = await b.get(`/console/cadences/${id}`);
      expect(page.statusCode, id).toBe(404);
      expect(page.body).toContain('There is nothing here');
      const save = await b.post(`/console/cadences/${id}`, {
        _csrf: csrf,
        name: 'Taken over',
        after_1: '0',
        action_1: 'call',
      });
      expect(save.statusCode, id).toBe(404);
      expect((await b.post(`/console/cadences/${id}/delete`, { _csrf: csrf })).statusCode, id).toBe(404);
      expect(
        (await b.post('/console/cadences/default', { _csrf: csrf, cadence_id: id })).statusCode,
        id,
      ).toBe(404);
      const source = await b.post(`/console/sources/${alice.source_id}/cadence`, {
        _csrf: csrf,
        cadence_id: id,
      });
      expect(source.statusCode, id).toBe(404);
      expect(source.body).toContain('That cadence is not one of yours; nothing was changed.');
    }
    expect(await getCadence(t.db, bob.agent_id, bobs)).toMatchObject({ name: 'Bob secret plan' });
    const { rows } = await t.db.query<{ source: string | null; agent: string | null }>(
      `SELECT s.cadence_id AS source, a.default_cadence_id AS agent
         FROM sources s JOIN agents a ON a.agent_id = s.agent_id WHERE s.source_id = $1`,
      [alice.source_id],
    );
    expect(rows[0]).toEqual({ source: null, agent: null });

    const bobLead = (await deliver(t.app, bob.token, { name: 'Bob Lead', phone: '3055550179' })).json<{
      lead_id: string;
    }>().lead_id;
    expect((await b.post(`/console/leads/${bobLead}/cadence/stop`, { _csrf: csrf })).statusCode).toBe(404);
  });
});
