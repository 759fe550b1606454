import { createHash } from 'node:crypto';
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LIMITS } from '../src/limits.ts';
import { adminInject, createTestApp, seedSource, type TestApp } from './support/app.ts';
import { agentWithLogin, CONSOLE_PASSWORD, ConsoleClient } from './support/console-client.ts';
import { testDispatcher } from './support/automations.ts';
import { deliver } from './support/deliver.ts';

/** Consent evidence verified against a local fake TrustedForm and Jornaya, never the network. */

interface Asked {
  path: string;
  headers: IncomingMessage['headers'];
  body: string;
}

/** A fake provider on 127.0.0.1: records each request and answers as `answer` says, after `delayMs`. */
async function fakeProvider() {
  const asked: Asked[] = [];
  let answer: (r: Asked) => { status: number; body: unknown; delayMs?: number } = () => ({
    status: 200,
    body: {},
  });
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (d: Buffer) => (body += d.toString()));
    req.on('end', () => {
      const r = { path: req.url ?? '', headers: req.headers, body };
      asked.push(r);
      const a = answer(r);
      setTimeout(() => {
        res.statusCode = a.status;
        res.setHeader('content-type', 'application/json');
        res.end(JSON.stringify(a.body));
      }, a.delayMs ?? 0);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    asked,
    answer(next: typeof answer) {
      answer = next;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

const RETAINED = {
  outcome: 'success',
  match_lead: { result: { email_match: true, phone_match: true, success: true } },
  retain: { results: { expires_at: '2031-12-02T18:00:00Z' } },
};
const NOT_MATCHED = {
  outcome: 'success',
  match_lead: { result: { email_match: false, phone_match: false, success: false } },
  retain: { results: { expires_at: '2031-12-02T18:00:00Z' } },
};

let t: TestApp;
let tf: Awaited<ReturnType<typeof fakeProvider>>;
let elsewhere: Awaited<ReturnType<typeof fakeProvider>>;
beforeAll(async () => {
  [tf, elsewhere] = await Promise.all([fakeProvider(), fakeProvider()]);
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
  await Promise.all([tf.close(), elsewhere.close()]);
});

const NOON = new Date('2027-01-15T18:00:00Z'); // in Chicago: inside the calling hours
const CONSENT = {
  trustedform: { apiKey: 'tf-secret-key', baseUrl: '' },
  jornaya: { accountCode: 'LAC-1', auditKey: 'LAK-1', providerCode: 'LPC-1', baseUrl: '' },
};
const dispatcherAt = (at: Date) =>
  testDispatcher(
    t.db,
    [0],
    { now: () => at },
    {
      consent: {
        trustedform: { ...CONSENT.trustedform, baseUrl: tf.url },
        jornaya: { ...CONSENT.jornaya, baseUrl: tf.url },
      },
    },
  );

let n = 0;
async function verifiedSource(consent: 'verified' | 'present' = 'verified') {
  const src = await seedSource(t.db, `Consent Agent ${++n}`, 'America/Chicago');
  const res = await adminInject(t.app, 'PATCH', `/sources/${src.source_id}`, { consent });
  expect(res.statusCode, res.body).toBe(200);
  expect(res.json().consent).toBe(consent);
  return src;
}
const certId = () => createHash('sha1').update(`cert ${++n}`).digest('hex');
const phoneOf = () => `31255507${String(10 + (n % 90)).padStart(2, '0')}`;

async function newLead(src: { token: string }, extra: Record<string, unknown>) {
  const phone = phoneOf();
  const res = await deliver(t.app, src.token, {
    name: 'Proof Pat',
    phone,
    email: `pat${n}@example.com`,
    state: 'IL',
    sms_consent: true,
    ...extra,
  });
  expect(res.statusCode, res.body).toBe(200);
  return { lead_id: res.json().lead_id as string, phone, email: `pat${n}@example.com` };
}
const leadView = async (id: string) => (await adminInject(t.app, 'GET', `/leads/${id}`)).json();
const textsOf = async (id: string) =>
  (
    await t.db.query<{ status: string; error: string | null }>(
      `SELECT status, error FROM sms_messages WHERE lead_id = $1 AND kind = 'lead'`,
      [id],
    )
  ).rows;
const tasksOf = async (id: string) =>
  (await t.db.query('SELECT status, blocked_reason FROM dial_tasks WHERE lead_id = $1', [id])).rows;
const queued = async (agentId: string, leadId: string) =>
  (await adminInject(t.app, 'GET', `/agents/${agentId}/dial-queue`))
    .json()
    .tasks.some((task: { lead_id: string }) => task.lead_id === leadId);

describe('consent: the source setting', () => {
  it('When a source is given a consent level that is not none, present or verified, then 400 VALIDATION_ERROR names consent', async () => {
    const src = await seedSource(t.db, 'Consent Bad Input', 'America/Chicago');
    for (const consent of ['maybe', '', null, 1, ['verified']]) {
      const res = await adminInject(t.app, 'PATCH', `/sources/${src.source_id}`, { consent });
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({ error_code: 'VALIDATION_ERROR' });
      expect(res.body).toContain('consent');
    }
    const { rows } = await t.db.query('SELECT consent FROM sources WHERE source_id = $1', [src.source_id]);
    expect(rows).toEqual([{ consent: 'none' }]);
  });
});

describe('consent: TrustedForm', () => {
  it('When the certificate is retained and matches the lead, then the lead shows it verified and is texted and queued; the key and only hashes went to TrustedForm', async () => {
    const src = await verifiedSource();
    const id = certId();
    tf.answer((r) => (r.path === `/${id}` ? { status: 200, body: RETAINED } : { status: 404, body: {} }));
    const lead = await newLead(src, { consent_cert_url: `${tf.url}/${id}` });

    const round = await dispatcherAt(NOON).runOnce();
    expect(round.consent.verified).toBe(1);

    const asked = tf.asked.find((r) => r.path === `/${id}`);
    expect(asked?.headers.authorization).toBe(`Basic ${Buffer.from('API:tf-secret-key').toString('base64')}`);
    expect(asked?.headers['api-version']).toBe('4.0');
    const sha1 = (v: string) => createHash('sha1').update(v).digest('hex');
    expect(JSON.parse(asked?.body ?? '{}')).toEqual({
      retain: { reference: lead.lead_id },
      match_lead: { email: sha1(lead.email), phone: sha1(lead.phone) },
    });
    expect(asked?.body).not.toContain(lead.phone);
    expect((await leadView(lead.lead_id)).consent_check).toEqual({
      provider: 'trustedform',
      status: 'verified',
      reason: null,
      checked_at: NOON.toISOString(),
      expires_at: '2031-12-02T18:00:00.000Z',
    });
    expect(await textsOf(lead.lead_id)).toEqual([{ status: 'sent', error: null }]);
    expect(await queued(src.agent_id, lead.lead_id)).toBe(true);
  });

  it('When TrustedForm does not answer at first, then the text and the call wait, and go once it verifies', async () => {
    const src = await verifiedSource();
    const id = certId();
    tf.answer(() => ({ status: 503, body: {} }));
    const lead = await newLead(src, { consent_cert_url: `${tf.url}/${id}` });
    const first = await dispatcherAt(NOON).runOnce();
    expect(first.consent.retried).toBe(1);
    expect(await textsOf(lead.lead_id)).toEqual([{ status: 'scheduled', error: 'waiting for consent' }]);
    expect((await leadView(lead.lead_id)).consent_check.status).toBe('pending');
    expect(await queued(src.agent_id, lead.lead_id)).toBe(false);

    tf.answer(() => ({ status: 200, body: RETAINED }));
    const later = new Date(NOON.getTime() + 60_000);
    expect((await dispatcherAt(later).runOnce()).consent.verified).toBe(1);
    await dispatcherAt(later).runOnce();
    expect(await textsOf(lead.lead_id)).toEqual([{ status: 'sent', error: null }]);
    expect(await queued(src.agent_id, lead.lead_id)).toBe(true);
  });

  it.each([
    ['the lead does not match the certificate', { status: 200, body: NOT_MATCHED }, 'lead_not_matched'],
    ['the certificate is unknown or expired', { status: 404, body: { message: 'not found' } }, 'http_404'],
  ])(
    'When %s, then the check fails, the call task is blocked and no text goes',
    async (_, answer, reason) => {
      const src = await verifiedSource();
      tf.answer(() => answer);
      const lead = await newLead(src, { consent_cert_url: `${tf.url}/${certId()}` });
      expect((await dispatcherAt(NOON).runOnce()).consent.failed).toBe(1);
      expect((await leadView(lead.lead_id)).consent_check).toMatchObject({ status: 'failed', reason });
      expect(await tasksOf(lead.lead_id)).toEqual([
        { status: 'blocked', blocked_reason: `consent_${reason}` },
      ]);
      expect(await textsOf(lead.lead_id)).toEqual([{ status: 'suppressed', error: `consent ${reason}` }]);
      expect(await queued(src.agent_id, lead.lead_id)).toBe(false);
    },
  );

  it('When TrustedForm never answers in time, then contact waits no longer than the deadline, and the check fails as timeout', async () => {
    const src = await verifiedSource();
    tf.answer(() => ({ status: 503, body: {} }));
    const lead = await newLead(src, { consent_cert_url: `${tf.url}/${certId()}` });
    expect((await dispatcherAt(NOON).runOnce()).consent.retried).toBe(1);
    // 200 ms before the deadline, a try gets only the time left, and the provider takes 1.5 s.
    tf.answer(() => ({ status: 200, body: RETAINED, delayMs: 1_500 }));
    const deadline = NOON.getTime() + LIMITS.consentCheckDeadlineMs;
    expect((await dispatcherAt(new Date(deadline - 200)).runOnce()).consent.retried).toBe(1);
    expect(await textsOf(lead.lead_id)).toEqual([{ status: 'scheduled', error: 'waiting for consent' }]);
    expect((await dispatcherAt(new Date(deadline)).runOnce()).consent.failed).toBe(1);
    expect((await leadView(lead.lead_id)).consent_check).toMatchObject({
      status: 'failed',
      reason: 'timeout',
    });
    expect(await tasksOf(lead.lead_id)).toEqual([{ status: 'blocked', blocked_reason: 'consent_timeout' }]);
    expect(await textsOf(lead.lead_id)).toEqual([{ status: 'suppressed', error: 'consent timeout' }]);
  });

  it('When no TrustedForm key is configured, then the check fails at once rather than waiting', async () => {
    const src = await verifiedSource();
    const lead = await newLead(src, { consent_cert_url: `${tf.url}/${certId()}` });
    await testDispatcher(t.db, [0], { now: () => NOON }).runOnce();
    expect((await leadView(lead.lead_id)).consent_check).toMatchObject({
      status: 'failed',
      reason: 'trustedform_not_configured',
    });
  });

  it('When the certificate URL is on another host, then nothing is sent there nor to TrustedForm, the key goes nowhere, and the check fails', async () => {
    const src = await verifiedSource();
    const id = certId();
    const before = tf.asked.length;
    const lead = await newLead(src, { consent_cert_url: `${elsewhere.url}/${id}` });
    expect((await dispatcherAt(NOON).runOnce()).consent.failed).toBe(1);
    expect(elsewhere.asked).toEqual([]);
    expect(elsewhere.asked.some((r) => r.headers.authorization !== undefined)).toBe(false);
    expect(tf.asked.slice(before).filter((r) => r.path.includes(id))).toEqual([]);
    expect((await leadView(lead.lead_id)).consent_check).toMatchObject({
      status: 'failed',
      reason: 'certificate_not_on_trustedform',
    });
    expect(await textsOf(lead.lead_id)).toEqual([
      { status: 'suppressed', error: 'consent certificate_not_on_trustedform' },
    ]);
  });
});

describe('consent: Jornaya, and evidence merely present', () => {
  it('When a LeadiD token is authentic, then the lead is verified by Jornaya with our account codes and no key header', async () => {
    const src = await verifiedSource();
    const token = '0A1B2C3D-4E5F-6071-8293-A4B5C6D7E8F9';
    tf.answer((r) =>
      r.path.startsWith('/SingleQuery')
        ? { status: 200, body: { authenticate: { authentic: 1 } } }
        : { status: 404, body: {} },
    );
    const lead = await newLead(src, { leadid_token: token });
    expect((await dispatcherAt(NOON).runOnce()).consent.verified).toBe(1);
    const asked = tf.asked.find((r) => r.path === '/SingleQuery' && r.body.includes(token));
    const form = new URLSearchParams(asked?.body);
    expect({ lac: form.get('lac'), lak: form.get('lak'), lpc: form.get('lpc'), id: form.get('id') }).toEqual({
      lac: 'LAC-1',
      lak: 'LAK-1',
      lpc: 'LPC-1',
      id: token,
    });
    expect(asked?.headers.authorization).toBeUndefined();
    expect((await leadView(lead.lead_id)).consent_check).toMatchObject({
      provider: 'jornaya',
      status: 'verified',
    });
  });

  it('When the source asks evidence present, then a lead without it is blocked and one with it is texted without asking anyone', async () => {
    const src = await verifiedSource('present');
    const before = tf.asked.length;
    const bare = await newLead(src, {});
    const proven = await newLead(src, { consent_cert_url: `${tf.url}/${certId()}` });
    await dispatcherAt(NOON).runOnce();
    expect((await leadView(bare.lead_id)).consent_check).toMatchObject({
      status: 'failed',
      reason: 'no_consent_evidence',
    });
    expect(await tasksOf(bare.lead_id)).toEqual([
      { status: 'blocked', blocked_reason: 'consent_no_consent_evidence' },
    ]);
    expect((await leadView(proven.lead_id)).consent_check).toMatchObject({
      provider: 'trustedform',
      status: 'present',
    });
    expect(await textsOf(proven.lead_id)).toEqual([{ status: 'sent', error: null }]);
    expect(tf.asked.length).toBe(before);
  });

  it('When a source asks nothing, then its leads have no check and are contacted as before', async () => {
    const src = await seedSource(t.db, 'Consent None', 'America/Chicago');
    const lead = await newLead(src, {});
    await dispatcherAt(NOON).runOnce();
    expect((await leadView(lead.lead_id)).consent_check).toBeNull();
    expect(await textsOf(lead.lead_id)).toEqual([{ status: 'sent', error: null }]);
  });

  it('When the agent opens a lead in the console, then it says whether its consent was verified, or why not', async () => {
    const agent = await agentWithLogin(t.app, 'Console Consent', 'America/Chicago');
    await adminInject(t.app, 'PATCH', `/sources/${agent.source_id}`, { consent: 'verified' });
    const good = certId();
    tf.answer((r) =>
      r.path === `/${good}` ? { status: 200, body: RETAINED } : { status: 200, body: NOT_MATCHED },
    );
    const verified = await newLead(agent, { consent_cert_url: `${tf.url}/${good}` });
    const failed = await newLead(agent, { consent_cert_url: `${tf.url}/${certId()}` });
    const page = new ConsoleClient(t.app);
    await page.login(agent.email, CONSOLE_PASSWORD);
    const shown = async (leadId: string) =>
      (await page.get(`/console/leads/${leadId}`)).body.replace(/\s+/g, ' ');

    expect(await shown(verified.lead_id)).not.toContain('Checked</dt>');
    await dispatcherAt(NOON).runOnce();
    expect(await shown(verified.lead_id)).toContain(
      'Verified by TrustedForm</span> · Fri, Jan 15, 2027, 12:00 PM CST',
    );
    expect(await shown(failed.lead_id)).toContain(
      'Failed by TrustedForm: lead_not_matched</span> · no automatic texts or calls',
    );
  });
});
