import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAPPING_RULE_LIMITS } from '../src/ingest/mapping-rules.ts';
import { ADMIN_KEY, adminInject, createTestApp, seedSource, type TestApp } from './support/app.ts';
import { countRows, deliver } from './support/deliver.ts';

type Json = Record<string, unknown>;

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});

/** A Gravity Forms entry: fields are numbered, `1.3` and `1.6` are the name's first and last parts. */
const GRAVITY_ENTRY = { '1.3': 'Jane', '1.6': 'Doe', '2': '(214) 555-0100', debug: 'form-7 v2' };
const GRAVITY_RULES = { '1.3': 'first_name', '1.6': 'last_name', '2': 'phone', debug: null };

function putRules(sourceId: string, body: unknown, payload = JSON.stringify(body)) {
  return t.app.inject({
    method: 'PUT',
    url: `/v1/admin/sources/${sourceId}/mapping`,
    headers: { authorization: `Bearer ${ADMIN_KEY}`, 'content-type': 'application/json' },
    payload,
  });
}

async function leadOf(leadId: unknown): Promise<Json> {
  const res = await adminInject(t.app, 'GET', `/leads/${String(leadId)}`);
  expect(res.statusCode).toBe(200);
  return res.json<Json>();
}

function remap(sourceId: string, sampleId: unknown) {
  return adminInject(t.app, 'POST', `/sources/${sourceId}/samples/${String(sampleId)}/remap`);
}

async function newestSample(sourceId: string): Promise<Json> {
  const res = await adminInject(t.app, 'GET', `/sources/${sourceId}/samples`);
  const [sample] = res.json<{ samples: Json[] }>().samples;
  if (!sample) throw new Error('no sample');
  return sample;
}

describe('PUT and GET /v1/admin/sources/:source_id/mapping', () => {
  it('when rules are put, then they are answered, read back, and replace the previous set', async () => {
    const s = await seedSource(t.db, 'Rules Agent');

    const empty = await adminInject(t.app, 'GET', `/sources/${s.source_id}/mapping`);
    const put = await putRules(s.source_id, { rules: GRAVITY_RULES });
    const read = await adminInject(t.app, 'GET', `/sources/${s.source_id}/mapping`);
    const replaced = await putRules(s.source_id, { rules: { q_coverage: 'coverage_amount' } });

    expect(empty.json()).toEqual({ source_id: s.source_id, rules: {} });
    expect(put.statusCode).toBe(200);
    expect(put.json()).toEqual({ source_id: s.source_id, rules: GRAVITY_RULES });
    expect(read.json()).toEqual({ source_id: s.source_id, rules: GRAVITY_RULES });
    expect(replaced.json()).toEqual({ source_id: s.source_id, rules: { q_coverage: 'coverage_amount' } });
  });

  it.each([
    [
      'an unknown target field',
      { rules: { '1.3': 'given_name_please' } },
      /Unknown field "given_name_please"/,
    ],
    ['a target that is not a string', { rules: { '1.3': 7 } }, /Unknown field 7/],
    ['rules that are a list', { rules: [['1.3', 'first_name']] }, /rules must be an object/],
    ['rules that are a string', { rules: '1.3=first_name' }, /rules must be an object/],
    ['rules that are null', { rules: null }, /rules must be an object/],
    ['no rules', { '1.3': 'first_name' }, /rules is required/],
    ['a blank key', { rules: { ' ': 'first_name' } }, /key must be 1–200 characters/],
    ['a NUL in a key', { rules: { 'a\u0000b': 'first_name' } }, /NUL characters/],
    [
      'too many rules',
      {
        rules: Object.fromEntries(
          Array.from({ length: MAPPING_RULE_LIMITS.maxRules + 1 }, (_, i) => [`k${i}`, null]),
        ),
      },
      /At most 500 rules/,
    ],
  ])('when the body has %s, then 400 VALIDATION_ERROR and the rules stay', async (_label, body, details) => {
    const s = await seedSource(t.db, 'Strict Agent');
    await putRules(s.source_id, { rules: { keep: 'notes' } });

    const res = await putRules(s.source_id, body);

    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ error: 'Invalid request', error_code: 'VALIDATION_ERROR' });
    expect(res.json<Json>().details).toMatch(details);
    expect((await adminInject(t.app, 'GET', `/sources/${s.source_id}/mapping`)).json()).toMatchObject({
      rules: { keep: 'notes' },
    });
  });

  it('when the body is not a JSON object, then 400 VALIDATION_ERROR', async () => {
    const s = await seedSource(t.db, 'Garbage Agent');

    const res = await putRules(s.source_id, undefined, '[1, 2]');

    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ error_code: 'VALIDATION_ERROR' });
  });

  it('when the source is unknown, then GET and PUT answer 404 SOURCE_NOT_FOUND', async () => {
    const get = await adminInject(t.app, 'GET', `/sources/${randomUUID()}/mapping`);
    const put = await putRules(randomUUID(), { rules: {} });

    for (const res of [get, put]) {
      expect(res.statusCode).toBe(404);
      expect(res.json()).toEqual({ error: 'Source not found', error_code: 'SOURCE_NOT_FOUND' });
    }
  });

  it('when the admin key is missing, then 401 and nothing changes', async () => {
    const s = await seedSource(t.db, 'Locked Agent');

    const res = await t.app.inject({
      method: 'PUT',
      url: `/v1/admin/sources/${s.source_id}/mapping`,
      payload: { rules: { x: 'notes' } },
    });

    expect(res.statusCode).toBe(401);
    expect((await adminInject(t.app, 'GET', `/sources/${s.source_id}/mapping`)).json()).toMatchObject({
      rules: {},
    });
  });
});

describe('the gateway applies the source’s rules', () => {
  it('when a Gravity Forms entry arrives at a source with rules, then the lead lands with its name and phone, and the ignored key is gone', async () => {
    const s = await seedSource(t.db, 'Gravity Agent');
    await putRules(s.source_id, { rules: GRAVITY_RULES });

    const res = await deliver(t.app, s.token, { ...GRAVITY_ENTRY, '5': 'Whole life' });

    expect(res.statusCode).toBe(200);
    const lead = await leadOf(res.json<Json>().lead_id);
    expect(lead).toMatchObject({
      name: 'Jane Doe',
      first_name: 'Jane',
      last_name: 'Doe',
      phone: '2145550100',
    });
    expect(lead.custom_fields).toEqual({ '5': 'Whole life' });
  });

  it('when the same entry arrives at another source of the same agent without rules, then that source is not affected', async () => {
    const ruled = await seedSource(t.db, 'Two Sources Agent');
    await putRules(ruled.source_id, { rules: GRAVITY_RULES });
    const plain = await adminInject(t.app, 'POST', `/agents/${ruled.agent_id}/sources`, {
      name: 'Plain form',
    });

    const res = await deliver(t.app, plain.json<{ token: string }>().token, GRAVITY_ENTRY);
    const stillRuled = await deliver(t.app, ruled.token, GRAVITY_ENTRY);

    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({
      error: 'Missing required field: name is required',
      error_code: 'MISSING_NAME',
      details: expect.stringContaining('first_name'),
    });
    expect(stillRuled.statusCode).toBe(200);
  });

  it('when a rule names a canonical key differently, then the rule wins over the alias table for that source only', async () => {
    const s = await seedSource(t.db, 'Override Agent');
    await putRules(s.source_id, { rules: { budget: 'coverage_amount' } });
    const other = await seedSource(t.db, 'Alias Agent');
    const body = { name: 'Ann Lee', budget: '25000' };

    const ruled = await leadOf((await deliver(t.app, s.token, body)).json<Json>().lead_id);
    const aliased = await leadOf((await deliver(t.app, other.token, body)).json<Json>().lead_id);

    expect(ruled).toMatchObject({ coverage_amount: '25000', monthly_budget: null });
    expect(aliased).toMatchObject({ monthly_budget: '25000', coverage_amount: null });
  });

  it('when a Listen delivery arrives, then its sample shows the rules’ effect and the body format', async () => {
    const s = await seedSource(t.db, 'Listen Rules Agent');
    await putRules(s.source_id, { rules: GRAVITY_RULES });

    const res = await deliver(t.app, s.token, { ...GRAVITY_ENTRY, listen: true });

    expect(res.statusCode).toBe(200);
    const sample = await newestSample(s.source_id);
    expect(sample).toMatchObject({
      listen: true,
      body_format: 'flat',
      raw_body: null,
      error_code: null,
      mapped: { name: 'Jane Doe', first_name: 'Jane', last_name: 'Doe', phone: '2145550100' },
      custom_fields: {},
      body: { ...GRAVITY_ENTRY, listen: true },
    });
    expect(sample.would_fire).toMatchObject({ outcome: 'create' });
  });
});

describe('POST /v1/admin/sources/:source_id/samples/:sample_id/remap', () => {
  it('when a refused sample is re-mapped after rules are set, then the answer shows the new mapping and nothing is written', async () => {
    const s = await seedSource(t.db, 'Remap Agent');
    await deliver(t.app, s.token, GRAVITY_ENTRY);
    const refused = await newestSample(s.source_id);
    expect(refused).toMatchObject({ listen: false, error_code: 'MISSING_NAME' });
    await putRules(s.source_id, { rules: GRAVITY_RULES });
    const before = await Promise.all(['leads', 'listen_samples', 'outbox'].map((x) => countRows(t.db, x)));

    const res = await remap(s.source_id, refused.sample_id);

    expect(res.statusCode).toBe(200);
    const remapped = res.json<Json>();
    expect(remapped).toMatchObject({
      sample_id: refused.sample_id,
      source_id: s.source_id,
      body_format: 'flat',
      error_code: null,
      mapped: { name: 'Jane Doe', first_name: 'Jane', last_name: 'Doe', phone: '2145550100' },
      custom_fields: {},
      warnings: [],
    });
    expect(remapped.would_fire).toMatchObject({ outcome: 'create' });
    const after = await Promise.all(['leads', 'listen_samples', 'outbox'].map((x) => countRows(t.db, x)));
    expect(after).toEqual(before);
    // The stored sample keeps what it was when it arrived.
    expect(await newestSample(s.source_id)).toEqual(refused);
  });

  it('when the rules are removed again, then the re-map shows the name missing', async () => {
    const s = await seedSource(t.db, 'Unmap Agent');
    await putRules(s.source_id, { rules: GRAVITY_RULES });
    await deliver(t.app, s.token, { ...GRAVITY_ENTRY, listen: true });
    const sample = await newestSample(s.source_id);
    await putRules(s.source_id, { rules: {} });

    const res = await remap(s.source_id, sample.sample_id);

    expect(res.json()).toMatchObject({
      error_code: 'MISSING_NAME',
      would_fire: null,
      custom_fields: { '1.3': 'Jane', '1.6': 'Doe', debug: 'form-7 v2' },
    });
  });

  it('when the sample has no JSON body (refused INVALID_JSON), then 400 VALIDATION_ERROR says so', async () => {
    const s = await seedSource(t.db, 'Raw Remap Agent');
    await deliver(t.app, s.token, undefined, { raw: 'first=Jane&last=Doe' });
    const sample = await newestSample(s.source_id);

    const res = await remap(s.source_id, sample.sample_id);

    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ error_code: 'VALIDATION_ERROR' });
    expect(res.json<Json>().details).toMatch(/no JSON body/);
  });

  it('when the sample is a booking-scheduler event, then 400 VALIDATION_ERROR: rules do not apply', async () => {
    const s = await seedSource(t.db, 'Scheduler Remap Agent');
    await deliver(t.app, s.token, { event: 'routing_form_submission.created', payload: {}, listen: true });
    const sample = await newestSample(s.source_id);

    const res = await remap(s.source_id, sample.sample_id);

    expect(res.statusCode).toBe(400);
    expect(res.json<Json>().details).toMatch(/booking-scheduler event/);
  });

  it('when the sample is unknown, not a UUID, or another source’s, then 404 NOT_FOUND', async () => {
    const s = await seedSource(t.db, 'Missing Sample Agent');
    const other = await seedSource(t.db, 'Other Sample Agent');
    await deliver(t.app, other.token, { name: 'Not Yours', listen: true });
    const theirs = await newestSample(other.source_id);

    for (const id of [randomUUID(), 'sample-1', String(theirs.sample_id)]) {
      const res = await remap(s.source_id, id);
      expect(res.statusCode, id).toBe(404);
      expect(res.json()).toMatchObject({ error_code: 'NOT_FOUND' });
    }
  });
});
