import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signMetaPayload } from '../src/gateway/meta-envelope.ts';
import { createMetaFetcher } from '../src/meta-fetch/meta-leads.ts';
import { createMetrics } from '../src/metrics/metrics.ts';
import { adminInject, createTestApp, seedSource, TEST_SECRETS, type TestApp } from './support/app.ts';
import { testDispatcher } from './support/automations.ts';
import { countRows, GATEWAY } from './support/deliver.ts';
import { graphLead, leadgenEnvelope, startFakeGraph, TOKEN_EXPIRED } from './support/fake-graph.ts';

// Meta Lead Ads connected straight to a source (docs/decisions/0061): the handshake, the signed envelope, the
// fetch from a local fake Graph API and the lead it becomes, through the gateway's write path.

const PAGE_TOKEN = 'EAAGm0PX4ZCpsBA-page-token-never-shown';
const APP_SECRET = 'a1b2c3d4e5f60718293a4b5c6d7e8f90-app-secret';
const VERIFY_TOKEN = 'verify-me-please-0042';

let t: TestApp;
let graph: Awaited<ReturnType<typeof startFakeGraph>>;
const fetcherLog: string[] = [];
const log = {
  info: (o: object, m: string) => void fetcherLog.push(JSON.stringify({ ...o, m })),
  warn: (o: object, m: string) => void fetcherLog.push(JSON.stringify({ ...o, m })),
};
const metrics = createMetrics();
let fetcher: ReturnType<typeof createMetaFetcher>;

beforeAll(async () => {
  t = await createTestApp();
  graph = await startFakeGraph();
  fetcher = createMetaFetcher(t.db, {
    secrets: TEST_SECRETS,
    graphUrl: graph.url,
    retrySchedule: [0, 0, 0],
    log,
    metrics,
  });
});
afterAll(async () => {
  await t.close();
  await graph.close();
});

type Source = Awaited<ReturnType<typeof seedSource>>;

/** A source with the three Meta settings (and `extra`) set through the admin API. */
async function metaSource(name: string, extra: Record<string, unknown> = {}): Promise<Source> {
  const s = await seedSource(t.db, name);
  const res = await adminInject(t.app, 'PATCH', `/sources/${s.source_id}`, {
    meta: { page_access_token: PAGE_TOKEN, app_secret: APP_SECRET, verify_token: VERIFY_TOKEN, ...extra },
  });
  expect(res.statusCode, res.body).toBe(200);
  return s;
}

function postEnvelope(
  token: string,
  body: string,
  signature: string | null = signMetaPayload(body, APP_SECRET),
) {
  return t.app.inject({
    method: 'POST',
    url: `${GATEWAY}/v/${token}`,
    headers: {
      'content-type': 'application/json',
      ...(signature === null ? {} : { 'x-hub-signature-256': signature }),
    },
    payload: body,
  });
}

function handshake(token: string, query: string) {
  return t.app.inject({ method: 'GET', url: `${GATEWAY}/v/${token}?${query}` });
}

async function leadsOf(s: Source) {
  const { rows } = await t.db.query<{
    lead_id: string;
    name: string;
    phone: string;
    fields: Record<string, unknown>;
    custom_fields: Record<string, unknown>;
    body_format: string;
  }>(
    `SELECT lead_id, name, phone, fields, custom_fields, body_format FROM leads
      WHERE agent_id = $1 AND source_id = $2 ORDER BY name`,
    [s.agent_id, s.source_id],
  );
  return rows;
}

async function jobsOf(s: Source) {
  const { rows } = await t.db.query<{
    leadgen_id: string;
    status: string;
    attempts: number;
    last_error: string;
  }>(
    `SELECT leadgen_id, status, attempts, last_error FROM meta_leads
      WHERE agent_id = $1 AND source_id = $2 ORDER BY leadgen_id`,
    [s.agent_id, s.source_id],
  );
  return rows;
}

describe("Meta's subscription handshake", () => {
  it('When Meta verifies the URL with the source’s verify token, then the challenge comes back as plain text', async () => {
    const s = await metaSource('Handshake Right');
    const res = await handshake(
      s.token,
      `hub.mode=subscribe&hub.verify_token=${VERIFY_TOKEN}&hub.challenge=1158201444`,
    );
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/plain/);
    expect(res.body).toBe('1158201444');
  });

  it('When the verify token is wrong or missing, then 403 without the challenge; another GET stays 405', async () => {
    const s = await metaSource('Handshake Wrong');
    for (const query of [
      'hub.mode=subscribe&hub.verify_token=guess&hub.challenge=987654',
      'hub.mode=subscribe&hub.challenge=987654',
      `hub.mode=subscribe&hub.verify_token=${VERIFY_TOKEN}&hub.verify_token=x&hub.challenge=987654`,
    ]) {
      const res = await handshake(s.token, query);
      expect(res.statusCode, query).toBe(403);
      expect(res.json().error_code).toBe('INVALID_VERIFY_TOKEN');
      expect(res.body).not.toContain('987654');
    }
    const plain = await handshake(s.token, 'hub.challenge=987654');
    expect(plain.statusCode).toBe(405);
    expect(plain.headers.allow).toBe('POST');
    const noToken = await t.app.inject({ method: 'GET', url: `${GATEWAY}?hub.mode=subscribe` });
    expect(noToken.statusCode).toBe(405);
  });

  it('When the source has no verify token, or the token names no active source, then nothing is echoed', async () => {
    const bare = await seedSource(t.db, 'Handshake Bare');
    const res = await handshake(bare.token, 'hub.mode=subscribe&hub.verify_token=&hub.challenge=42');
    expect(res.statusCode).toBe(403);
    const s = await metaSource('Handshake Disabled');
    await adminInject(t.app, 'PATCH', `/sources/${s.source_id}`, { active: false });
    const disabled = await handshake(
      s.token,
      `hub.mode=subscribe&hub.verify_token=${VERIFY_TOKEN}&hub.challenge=42`,
    );
    expect(disabled.statusCode).toBe(401);
    expect(disabled.json().error_code).toBe('INVALID_SOURCE_TOKEN');
  });
});

describe('the signed envelope', () => {
  it('When the signature is missing, wrong, or the source has no app secret, then 401 INVALID_SIGNATURE and nothing is queued', async () => {
    const s = await metaSource('Signature');
    const body = leadgenEnvelope(['900000000001']);
    const cases = [
      { signature: null, source: s },
      { signature: signMetaPayload(body, 'another-secret'), source: s },
      { signature: `sha256=${'0'.repeat(64)}`, source: s },
      { signature: 'sha1=abc', source: s },
      { signature: signMetaPayload(body, APP_SECRET), source: await seedSource(t.db, 'No Secret') },
    ];
    for (const { signature, source } of cases) {
      const res = await postEnvelope(source.token, body, signature);
      expect(res.statusCode, String(signature)).toBe(401);
      expect(res.json().error_code).toBe('INVALID_SIGNATURE');
      expect(await jobsOf(source)).toEqual([]);
    }
  });

  it('When a signed envelope arrives, then 200 at once, one fetch with the page token, one lead with its ids and its follow-up', async () => {
    const s = await metaSource('Envelope');
    const res = await postEnvelope(s.token, leadgenEnvelope(['900000000101']));
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({
      success: true,
      message: 'Leads queued',
      listen: false,
      queued: ['900000000101'],
    });
    expect(await leadsOf(s)).toEqual([]); // not before the fetch

    const before = graph.requests.length;
    expect(await fetcher.runOnce()).toBe(1);
    const fetched = graph.requests.slice(before);
    expect(fetched).toEqual([
      {
        leadgenId: '900000000101',
        accessToken: PAGE_TOKEN,
        url: expect.stringMatching(/^\/v25\.0\/900000000101\?/),
      },
    ]);
    const [lead, ...others] = await leadsOf(s);
    expect(others).toEqual([]);
    expect(lead).toMatchObject({
      name: 'Meta Lead 900000000101',
      phone: '2145550101',
      body_format: 'meta_lead_ads',
      fields: expect.objectContaining({
        leadgen_id: '900000000101',
        ad_id: '23851234567890123',
        state: 'TX',
      }),
      custom_fields: expect.objectContaining({ form_id: '771234567890123', page_id: '1122334455' }),
    });
    expect(await jobsOf(s)).toEqual([
      { leadgen_id: '900000000101', status: 'done', attempts: 1, last_error: null },
    ]);
    // The follow-up fires as for any live lead: the dispatcher hands its message on, a call task.
    await testDispatcher(t.db).runOnce();
    expect(
      await countRows(t.db, 'dial_tasks', 'agent_id = $1 AND lead_id = $2', [s.agent_id, lead?.lead_id]),
    ).toBe(1);
  });

  it('When the same envelope comes twice, then one job, one fetch, one lead', async () => {
    const s = await metaSource('Twice');
    const body = leadgenEnvelope(['900000000201']);
    expect((await postEnvelope(s.token, body)).statusCode).toBe(200);
    await fetcher.runOnce();
    const again = await postEnvelope(s.token, body);
    expect(again.statusCode).toBe(200);
    expect(again.json().queued).toEqual(['900000000201']);
    expect(await fetcher.runOnce()).toBe(0);
    expect(graph.requests.filter((r) => r.leadgenId === '900000000201')).toHaveLength(1);
    expect(await leadsOf(s)).toHaveLength(1);
  });

  it('When one envelope announces several leads, then each is fetched and lands once', async () => {
    const s = await metaSource('Several');
    const ids = ['900000000301', '900000000302', '900000000303'];
    const body = JSON.parse(leadgenEnvelope(ids)) as { entry: Array<{ changes: unknown[] }> };
    // Meta may batch entries too, and repeat a change; a change of another field announces nothing.
    body.entry.push({
      ...body.entry[0],
      changes: [{ field: 'feed', value: { item: 'post' } }, ...(body.entry[0]?.changes ?? []).slice(0, 1)],
    });
    const res = await postEnvelope(s.token, JSON.stringify(body));
    expect(res.json().queued).toEqual(ids);
    await fetcher.runOnce();
    expect((await leadsOf(s)).map((l) => l.fields.leadgen_id)).toEqual(ids);
    expect((await jobsOf(s)).map((j) => j.status)).toEqual(['done', 'done', 'done']);
  });
});

describe('when the Graph API fails', () => {
  it('When it answers 500 and then the lead, then the job is tried again on the schedule and one lead lands', async () => {
    const s = await metaSource('Five Hundred');
    let tries = 0;
    const unknownError = { status: 500, body: { error: { code: 1, message: 'An unknown error occurred' } } };
    graph.setAnswer((r) => (r.leadgenId === '900000000401' && tries++ === 0 ? unknownError : graphLead(r)));
    await postEnvelope(s.token, leadgenEnvelope(['900000000401']));
    await fetcher.runOnce();
    expect(await jobsOf(s)).toEqual([
      {
        leadgen_id: '900000000401',
        status: 'pending',
        attempts: 1,
        last_error: 'the Graph API answered 500 (error 1)',
      },
    ]);
    expect(await leadsOf(s)).toEqual([]);
    await fetcher.runOnce();
    expect(await leadsOf(s)).toHaveLength(1);
    expect((await jobsOf(s))[0]).toMatchObject({ status: 'done', attempts: 2 });
    graph.setAnswer(graphLead);
  });

  it('When the schedule is spent, then the job is dead and no lead is made', async () => {
    const s = await metaSource('Always Down');
    graph.setAnswer((r) => (r.leadgenId === '900000000451' ? { status: 503, body: {} } : graphLead(r)));
    await postEnvelope(s.token, leadgenEnvelope(['900000000451']));
    for (let i = 0; i < 4; i++) await fetcher.runOnce();
    expect(await jobsOf(s)).toEqual([
      { leadgen_id: '900000000451', status: 'dead', attempts: 3, last_error: 'the Graph API answered 503' },
    ]);
    graph.setAnswer(graphLead);
  });

  it('When the token expired (error 190), then the job stops, the source and /metrics say reconnect, and a new token fetches it', async () => {
    const s = await metaSource('Expired');
    graph.setAnswer((r) =>
      r.accessToken === PAGE_TOKEN && r.leadgenId === '900000000501' ? TOKEN_EXPIRED : graphLead(r),
    );
    await postEnvelope(s.token, leadgenEnvelope(['900000000501']));
    await fetcher.runOnce();
    await fetcher.runOnce(); // a stopped job is not tried again
    expect(graph.requests.filter((r) => r.leadgenId === '900000000501')).toHaveLength(1);
    expect(await jobsOf(s)).toEqual([
      {
        leadgen_id: '900000000501',
        status: 'stopped',
        attempts: 1,
        last_error: 'the Graph API answered 400 (error 190)',
      },
    ]);
    const shown = (await adminInject(t.app, 'GET', `/agents/${s.agent_id}/sources`)).json().sources[0];
    expect(shown.meta.reconnect_needed_since).toEqual(expect.any(String));
    const scrape = (await t.app.inject({ method: 'GET', url: '/metrics' })).body;
    expect(Number(/^leadgate_meta_reconnect_needed (\d+)$/m.exec(scrape)?.[1])).toBeGreaterThanOrEqual(1);
    const fetches = await metrics.registry.getSingleMetricAsString('leadgate_meta_fetches_total');
    expect(fetches).toMatch(/^leadgate_meta_fetches_total\{outcome="stopped"\} [1-9]/m);

    const fresh = await adminInject(t.app, 'PATCH', `/sources/${s.source_id}`, {
      meta: { page_access_token: 'EAAG-a-new-page-token' },
    });
    expect(fresh.json().meta.reconnect_needed_since).toBeNull();
    await fetcher.runOnce();
    expect(graph.requests.filter((r) => r.leadgenId === '900000000501').at(-1)?.accessToken).toBe(
      'EAAG-a-new-page-token',
    );
    expect(await leadsOf(s)).toHaveLength(1);
    graph.setAnswer(graphLead);
  });
});

describe('a Listen source', () => {
  it('When a Listen source’s lead is fetched, then it is a Listen sample and no lead', async () => {
    const s = await metaSource('Listen Meta', { listen: true });
    await postEnvelope(s.token, leadgenEnvelope(['900000000601']));
    await fetcher.runOnce();
    expect(await leadsOf(s)).toEqual([]);
    expect(await jobsOf(s)).toMatchObject([{ status: 'sampled' }]);
    const samples = (await adminInject(t.app, 'GET', `/sources/${s.source_id}/samples`)).json().samples;
    expect(samples).toHaveLength(1);
    expect(samples[0]).toMatchObject({
      listen: true,
      body_format: 'meta_lead_ads',
      mapped: expect.objectContaining({ name: 'Meta Lead 900000000601', leadgen_id: '900000000601' }),
    });
  });
});

describe('the secrets', () => {
  it('When the settings are set, read, used and logged, then no answer, log, sample, event or job holds them', async () => {
    const s = await metaSource('Secrets', { listen: true });
    const patched = await adminInject(t.app, 'PATCH', `/sources/${s.source_id}`, {
      google_key: 'google-key-never-shown',
    });
    expect(patched.json()).toMatchObject({
      meta: {
        page_access_token_set: true,
        app_secret_set: true,
        verify_token_set: true,
        listen: true,
        reconnect_needed_since: null,
      },
      has_google_key: true,
    });
    await postEnvelope(s.token, leadgenEnvelope(['900000000701']));
    await handshake(s.token, `hub.mode=subscribe&hub.verify_token=${VERIFY_TOKEN}&hub.challenge=1`);
    await fetcher.runOnce();
    const listed = await adminInject(t.app, 'GET', `/agents/${s.agent_id}/sources`);
    const samples = await adminInject(t.app, 'GET', `/sources/${s.source_id}/samples`);
    const { rows } = await t.db.query<{ dump: string }>(
      `SELECT concat_ws(' ', (SELECT string_agg(to_jsonb(x)::text, ' ') FROM sources x WHERE source_id = $1),
                             (SELECT string_agg(to_jsonb(m)::text, ' ') FROM meta_leads m WHERE source_id = $1),
                             (SELECT string_agg(to_jsonb(l)::text, ' ') FROM listen_samples l WHERE source_id = $1),
                             (SELECT string_agg(payload::text, ' ') FROM outbox WHERE agent_id = $2)) AS dump`,
      [s.source_id, s.agent_id],
    );
    const everywhere = [
      patched.body,
      listed.body,
      samples.body,
      ...t.logs,
      ...fetcherLog,
      rows[0]?.dump ?? '',
    ].join('\n');
    expect(everywhere).toContain('900000000701');
    for (const secret of [PAGE_TOKEN, APP_SECRET, VERIFY_TOKEN, 'google-key-never-shown'])
      expect(everywhere, secret).not.toContain(secret);
  });

  it('When a sealed secret is opened with another installation’s key, then it does not open', async () => {
    const s = await metaSource('Sealed');
    const { rows } = await t.db.query<{ meta_page_access_token: string }>(
      'SELECT meta_page_access_token FROM sources WHERE source_id = $1',
      [s.source_id],
    );
    const sealed = rows[0]?.meta_page_access_token ?? '';
    expect(TEST_SECRETS.open(sealed, { source_id: s.source_id, purpose: 'meta_page_access_token' })).toBe(
      PAGE_TOKEN,
    );
    expect(TEST_SECRETS.open(sealed, { source_id: s.source_id, purpose: 'meta_app_secret' })).toBeNull();
  });
});

describe('Google Ads lead forms', () => {
  const form = (key?: string) =>
    JSON.stringify({
      lead_id: 'TeSter-123-lead',
      user_column_data: [
        { column_id: 'FULL_NAME', string_value: 'Gia Google' },
        { column_id: 'PHONE_NUMBER', string_value: '+16155550199' },
      ],
      ...(key === undefined ? {} : { google_key: key }),
      form_id: 40000000000,
    });
  const post = (token: string, body: string) =>
    t.app.inject({
      method: 'POST',
      url: GATEWAY,
      headers: { 'content-type': 'application/json', 'x-source-token': token },
      payload: body,
    });

  it('When the source has a google_key, then a form with the same key lands, without the key, and another or none is refused 401', async () => {
    const s = await seedSource(t.db, 'Google Key');
    await adminInject(t.app, 'PATCH', `/sources/${s.source_id}`, { google_key: 'the-right-google-key' });
    for (const key of ['a-wrong-key', undefined]) {
      const res = await post(s.token, form(key));
      expect(res.statusCode, String(key)).toBe(401);
      expect(res.json().error_code).toBe('INVALID_SIGNATURE');
    }
    const ok = await post(s.token, form('the-right-google-key'));
    expect(ok.statusCode, ok.body).toBe(200);
    const [lead] = await leadsOf(s);
    expect(lead?.custom_fields).toEqual({ form_id: 40000000000 });
    expect(JSON.stringify(lead)).not.toContain('the-right-google-key');
  });

  it('When the source has no google_key, then any form lands, and its key is still kept nowhere', async () => {
    const s = await seedSource(t.db, 'Google Open');
    expect((await post(s.token, form('whatever-key'))).statusCode).toBe(200);
    const [lead] = await leadsOf(s);
    expect(JSON.stringify(lead)).not.toContain('whatever-key');
  });
});
