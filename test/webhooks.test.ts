import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sha256 } from '../src/automations/payloads.ts';
import { addDestination, adminInject, createTestApp, seedSource, type TestApp } from './support/app.ts';
import { testDispatcher } from './support/automations.ts';
import { countRows, deliver } from './support/deliver.ts';
import { faultyDb } from './support/faulty-db.ts';
import { startReceiver } from './support/receiver.ts';
import { until } from './support/until.ts';
import { webhookJobs, markDelivered, markFailed } from '../src/automations/delivery-repository.ts';

let t: TestApp;
let receiver: Awaited<ReturnType<typeof startReceiver>>;
beforeAll(async () => {
  t = await createTestApp();
  receiver = await startReceiver();
});
afterAll(async () => {
  await t.close();
  await receiver.close();
});

const dispatcher = (schedule: number[] = [0, 30, 30]) => testDispatcher(t.db, schedule);

const admin = (method: 'GET' | 'POST' | 'DELETE', url: string, body?: unknown) =>
  adminInject(t.app, method, url, body);

let n = 0;
async function sourceWith(kind: 'partner_sync' | 'analytics', path: string, events?: string[]) {
  const src = await seedSource(t.db, `Webhook Agent ${++n}`);
  const res = await addDestination(t.app, src.source_id, {
    kind,
    url: `${receiver.url}${path}`,
    ...(events ? { events } : {}),
  });
  expect(res.statusCode).toBe(201);
  const destination = res.json() as { destination_id: string; secret: string };
  return { ...src, destination };
}
const at = (path: string) => receiver.received.filter((r) => r.path === path);
const settle = async (d: ReturnType<typeof dispatcher>, rounds = 1, waitMs = 0) => {
  for (let i = 0; i < rounds; i++) {
    await d.runOnce();
    if (waitMs) await new Promise((resolve) => setTimeout(resolve, waitMs));
  }
};

describe('webhooks: partner sync and analytics', () => {
  it('When a lead is delivered, then each destination gets one request, signed the Standard Webhooks way, with the documented body', async () => {
    const src = await sourceWith('partner_sync', '/sync-1');
    expect(src.destination.secret).toMatch(/^whsec_/);
    const res = await deliver(t.app, src.token, {
      name: 'Wanda Hook',
      phone: '2145550301',
      email: 'wanda@example.com',
    });
    expect(res.json().auto_sync_enabled).toBe(true);
    await settle(dispatcher(), 2);

    const got = at('/sync-1');
    expect(got).toHaveLength(1);
    const request = got[0];
    if (!request) throw new Error('no request');
    // The receiver's side: the signing library's own verify accepts it.
    const verified = new Webhook(src.destination.secret).verify(request.body, {
      'webhook-id': String(request.headers['webhook-id']),
      'webhook-timestamp': String(request.headers['webhook-timestamp']),
      'webhook-signature': String(request.headers['webhook-signature']),
    });
    expect(verified).toMatchObject({
      type: 'lead.created',
      data: {
        lead_id: res.json().lead_id,
        source_id: src.source_id,
        status: 'New',
        lead: { name: 'Wanda Hook', email: 'wanda@example.com' },
      },
    });
    const deliveries = (await admin('GET', `/agents/${src.agent_id}/deliveries`)).json().deliveries;
    expect(deliveries).toEqual([
      expect.objectContaining({
        status: 'delivered',
        attempts: 1,
        last_status: 200,
        topic: 'lead.created',
        destination_id: src.destination.destination_id,
      }),
    ]);
  });

  it('When the destination is analytics, then the contact is hashed and the attribution identifiers are sent, never the email or phone in clear', async () => {
    const src = await sourceWith('analytics', '/analytics-1');
    const res = await deliver(t.app, src.token, {
      name: 'Ana Lytics',
      phone: '(214) 555-0302',
      email: 'Ana@Example.com',
      fbclid: undefined,
      socialclid: 'click-1',
      ad_id: 'ad-9',
      utm_source: 'meta',
      ip_address: '203.0.113.9',
    });
    expect(res.json().auto_sync_enabled).toBe(false); // analytics is not partner sync
    await settle(dispatcher());
    const request = at('/analytics-1')[0];
    expect(request?.body).not.toContain('ana@example.com');
    expect(request?.body).not.toContain('2145550302');
    expect(request?.body).not.toContain('Ana Lytics');
    expect(JSON.parse(request?.body ?? '{}')).toMatchObject({
      type: 'lead.created',
      data: {
        lead_id: res.json().lead_id,
        email_sha256: sha256('ana@example.com'),
        phone_sha256: sha256('+12145550302'),
        attribution: {
          socialclid: 'click-1',
          ad_id: 'ad-9',
          utm_source: 'meta',
          ip_address: '203.0.113.9',
          socialc: null,
        },
      },
    });
  });

  it('When the receiver answers 500 and then 200, then the event is retried with the same id and delivered once', async () => {
    const src = await sourceWith('partner_sync', '/flaky');
    let calls = 0;
    receiver.setAnswer((r) => (r.path === '/flaky' && calls++ === 0 ? 500 : 200));
    await deliver(t.app, src.token, { name: 'Flaky Fred', phone: '2145550303' });
    await settle(dispatcher([0, 20, 20]), 3, 40);
    receiver.setAnswer(() => 200);
    const got = at('/flaky');
    expect(got).toHaveLength(2);
    expect(got[0]?.headers['webhook-id']).toBe(got[1]?.headers['webhook-id']);
    expect(
      (await admin('GET', `/agents/${src.agent_id}/deliveries?status=delivered`)).json().deliveries,
    ).toHaveLength(1);
  });

  it('When the retry budget is spent, then the delivery is dead; a retry by the agent sends it again', async () => {
    const src = await sourceWith('partner_sync', '/down');
    receiver.setAnswer((r) => (r.path === '/down' ? 503 : 200));
    await deliver(t.app, src.token, { name: 'Dead Letter', phone: '2145550304' });
    await settle(dispatcher([0, 10, 10]), 5, 30);
    expect(at('/down')).toHaveLength(3);
    const dead = (await admin('GET', `/agents/${src.agent_id}/deliveries?status=dead`)).json().deliveries;
    expect(dead).toEqual([expect.objectContaining({ attempts: 3, last_status: 503, next_attempt_at: null })]);

    receiver.setAnswer(() => 200);
    const retried = await admin('POST', `/deliveries/${dead[0].delivery_id}/retry`);
    expect(retried.json()).toMatchObject({ status: 'pending', attempts: 0 });
    await settle(dispatcher([0, 10, 10]));
    expect(at('/down')).toHaveLength(4);
    expect(
      (await admin('GET', `/agents/${src.agent_id}/deliveries?status=delivered`)).json().deliveries,
    ).toHaveLength(1);
  });

  it('When the receiver answers 410 Gone, then the destination is disabled at once and gets nothing more', async () => {
    const src = await sourceWith('partner_sync', '/gone');
    receiver.setAnswer((r) => (r.path === '/gone' ? 410 : 200));
    await deliver(t.app, src.token, { name: 'Gone Gina', phone: '2145550305' });
    await settle(dispatcher());
    receiver.setAnswer(() => 200);
    const list = (await admin('GET', `/sources/${src.source_id}/destinations`)).json().destinations;
    expect(list).toEqual([expect.objectContaining({ active: false, disabled_reason: 'gone' })]);
    expect(list[0]).not.toHaveProperty('secret');
    const again = await deliver(t.app, src.token, { name: 'Gone Gina', phone: '2145550305', city: 'Austin' });
    expect(again.json().auto_sync_enabled).toBe(false);
    await settle(dispatcher(), 2);
    expect(at('/gone')).toHaveLength(1);
  });

  it('When a destination has failed for 5 days without a success, then its next failure disables it; a success before that clears the count', async () => {
    const destinations = async (sourceId: string) =>
      (await admin('GET', `/sources/${sourceId}/destinations`)).json().destinations;
    const failingFor = (destinationId: string, ms: number) =>
      t.db.query(
        `UPDATE sync_destinations SET failing_since = now() - make_interval(secs => $2) WHERE destination_id = $1`,
        [destinationId, ms / 1000],
      );
    const DAYS_5 = 5 * 86_400_000;
    const failing = await sourceWith('partner_sync', '/failing');
    const healing = await sourceWith('partner_sync', '/healing');
    receiver.setAnswer((r) => (r.path === '/failing' ? 500 : 200));
    await failingFor(failing.destination.destination_id, DAYS_5 + 60_000);
    await failingFor(healing.destination.destination_id, DAYS_5 - 60_000);
    await deliver(t.app, failing.token, { name: 'Failing Fay', phone: '2145550320' });
    await deliver(t.app, healing.token, { name: 'Healing Hal', phone: '2145550321' });
    await settle(dispatcher());

    expect(await destinations(failing.source_id)).toEqual([
      expect.objectContaining({ active: false, disabled_reason: 'failing' }),
    ]);
    const healed = (await destinations(healing.source_id))[0];
    expect(healed).toMatchObject({ active: true, disabled_reason: null, failing_since: null });
    expect(healed.last_success_at).toEqual(expect.any(String));
    expect(
      (await admin('GET', `/agents/${failing.agent_id}/deliveries`))
        .json()
        .deliveries.map((d: { status: string }) => d.status),
    ).toEqual(['canceled']);
    receiver.setAnswer(() => 200);
  });

  it('When one lead has several events and the first fails, then the later ones wait: the receiver sees them in order', async () => {
    const src = await sourceWith('partner_sync', '/order');
    let failures = 2;
    receiver.setAnswer((r) =>
      r.path === '/order' && JSON.parse(r.body).type === 'lead.created' && failures-- > 0 ? 500 : 200,
    );
    await deliver(t.app, src.token, { name: 'Order Olive', phone: '2145550306' });
    await deliver(t.app, src.token, {
      name: 'Order Olive',
      phone: '2145550306',
      scheduled_at: '2027-05-01T15:00:00Z',
    });
    await settle(dispatcher([0, 10, 10, 10]), 8, 20);
    receiver.setAnswer(() => 200);
    const types = at('/order').map((r) => JSON.parse(r.body).type as string);
    expect(types).toEqual([
      'lead.created',
      'lead.created',
      'lead.created',
      'lead.updated',
      'appointment.booked',
    ]);
  });

  it('When a destination subscribes to some events, then it gets only those', async () => {
    const src = await sourceWith('partner_sync', '/booked-only', ['appointment.booked']);
    await deliver(t.app, src.token, {
      name: 'Picky Pat',
      phone: '2145550307',
      scheduled_at: '2027-05-02T15:00:00Z',
    });
    await settle(dispatcher());
    expect(at('/booked-only').map((r) => JSON.parse(r.body).type)).toEqual(['appointment.booked']);
  });

  it('When Listen mode, a replay or a refused delivery comes in, then no webhook is sent', async () => {
    const src = await sourceWith('partner_sync', '/quiet');
    const lead = { name: 'Quiet Quinn', phone: '2145550308' };
    await deliver(t.app, src.token, lead, { headers: { 'idempotency-key': 'q-1' } });
    await settle(dispatcher());
    await deliver(t.app, src.token, lead, { headers: { 'idempotency-key': 'q-1' } });
    await deliver(t.app, src.token, { ...lead, listen: true });
    await deliver(t.app, src.token, { phone: '2145550308' });
    await settle(dispatcher(), 2);
    expect(at('/quiet')).toHaveLength(1);
    expect(
      await countRows(t.db, 'webhook_deliveries', 'destination_id = $1', [src.destination.destination_id]),
    ).toBe(1);
  });

  it.each([
    ['a NUL character', 'https://example.com/a\u0000b'],
    ['a number', 42],
    ['blank', '   '],
    ['over 2,048 characters', `https://example.com/${'x'.repeat(2048)}`],
    ['not a URL', 'example.com/hooks'],
  ])('When the destination url is %s, then it is refused with 400 VALIDATION_ERROR', async (_label, url) => {
    const src = await seedSource(t.db, `Bad URL Agent ${++n}`);
    const res = await admin('POST', `/sources/${src.source_id}/destinations`, { kind: 'partner_sync', url });
    expect(res.statusCode).toBe(400);
    expect(res.json().error_code).toBe('VALIDATION_ERROR');
  });

  it('When a destination is deleted, then it is gone from the list and its pending deliveries are canceled', async () => {
    const src = await sourceWith('partner_sync', '/deleted');
    receiver.setAnswer((r) => (r.path === '/deleted' ? 500 : 200));
    await deliver(t.app, src.token, { name: 'Del Dan', phone: '2145550309' });
    await settle(dispatcher([0, 60_000]));
    receiver.setAnswer(() => 200);
    expect((await admin('DELETE', `/destinations/${src.destination.destination_id}`)).statusCode).toBe(204);
    expect((await admin('DELETE', `/destinations/${src.destination.destination_id}`)).json().error_code).toBe(
      'DESTINATION_NOT_FOUND',
    );
    expect((await admin('GET', `/sources/${src.source_id}/destinations`)).json().destinations).toEqual([]);
    expect(
      (await admin('GET', `/agents/${src.agent_id}/deliveries?status=canceled`)).json().deliveries,
    ).toHaveLength(1);
  });
});

describe('webhooks: a delivery in flight when its destination goes', () => {
  it('When a destination is deleted while a delivery to it is being sent, then the failed attempt leaves it canceled, not pending', async () => {
    const slow = await startReceiver(() => 500, { delayMs: 400 });
    try {
      const src = await seedSource(t.db, `In Flight Agent ${++n}`);
      const added = await addDestination(t.app, src.source_id, {
        kind: 'partner_sync',
        url: `${slow.url}/inflight`,
      });
      expect(added.statusCode).toBe(201);
      await deliver(t.app, src.token, { name: 'Flying Fay', phone: '2145550319' });
      const d = dispatcher([0, 60_000]);
      const rounds = (async () => {
        for (let i = 0; i < 3; i++) await d.runOnce();
      })();
      await until(() => slow.received.length > 0);
      const destinationId = (added.json() as { destination_id: string }).destination_id;
      expect((await admin('DELETE', `/destinations/${destinationId}`)).statusCode).toBe(204);
      await rounds;
      const { rows } = await t.db.query<{ status: string }>(
        'SELECT status FROM webhook_deliveries WHERE agent_id = $1',
        [src.agent_id],
      );
      expect(rows).toEqual([{ status: 'canceled' }]);
      expect(slow.received).toHaveLength(1);
    } finally {
      await slow.close();
    }
  });

  it('When a lease ran out and another worker took the delivery, then the first worker’s late answer does not overwrite the second’s', async () => {
    const src = await sourceWith('partner_sync', '/late');
    receiver.setAnswer((r) => (r.path === '/late' ? 500 : 200));
    await deliver(t.app, src.token, { name: 'Late Lou', phone: '2145550320' });
    await settle(dispatcher([0, 60_000]), 2); // made, tried once, failed: due again in a minute
    receiver.setAnswer(() => 200);
    const claim = async () =>
      (await webhookJobs.claim(t.db, 10, 1)).filter((c) => c.agent_id === src.agent_id);
    await t.db.query(`UPDATE webhook_deliveries SET next_attempt_at = now() WHERE agent_id = $1`, [
      src.agent_id,
    ]);
    const [first] = await claim();
    expect(first).toBeDefined();
    await t.db.query(
      `UPDATE webhook_deliveries SET lease_until = now() - interval '1 second' WHERE agent_id = $1`,
      [src.agent_id],
    );
    const [second] = await claim();
    expect(second?.attempts).toBe((first?.attempts ?? 0) + 1);
    if (!first || !second) throw new Error('not claimed');
    await markDelivered(t.db, [{ d: second, httpStatus: 200 }]);
    await markFailed(t.db, first, { httpStatus: 500, error: 'late', retryInMs: 60_000 });
    const { rows } = await t.db.query<{ status: string; attempts: number }>(
      'SELECT status, attempts FROM webhook_deliveries WHERE agent_id = $1',
      [src.agent_id],
    );
    expect(rows).toEqual([{ status: 'delivered', attempts: second.attempts }]);
  });
});

describe('Listen mode shows what would have fired', () => {
  it('When a sample is sent, then it lists create or merge, the call task, the text and the destinations that would get each event', async () => {
    const src = await sourceWith('partner_sync', '/preview', ['lead.created', 'appointment.booked']);
    const lead = { name: 'Preview Pam', phone: '2145550310', state: 'TX', sms_consent: true };
    await deliver(t.app, src.token, { ...lead, listen: true });
    const live = await deliver(t.app, src.token, { name: 'Preview Pam', phone: '2145550310' });
    await deliver(t.app, src.token, { ...lead, scheduled_at: '2027-05-03T15:00:00Z', listen: true });
    const samples = (await admin('GET', `/sources/${src.source_id}/samples`)).json().samples as Array<{
      would_fire: Record<string, unknown>;
    }>;
    const [merge, create] = samples;
    expect(create?.would_fire).toMatchObject({
      outcome: 'create',
      lead_id: null,
      events: ['lead.created'],
      call_task: true,
      text: { send_at: expect.any(String), body: expect.stringContaining('Preview') },
      destinations: [
        { destination_id: src.destination.destination_id, kind: 'partner_sync', events: ['lead.created'] },
      ],
    });
    expect(merge?.would_fire).toMatchObject({
      outcome: 'merge',
      lead_id: live.json().lead_id,
      events: ['lead.updated', 'appointment.booked'],
      call_task: false,
      destinations: [{ events: ['appointment.booked'] }],
    });
    await settle(dispatcher());
    expect(at('/preview').map((r) => JSON.parse(r.body).type)).toEqual(['lead.created']);
  });
});

describe('Listen mode: what the preview reads', () => {
  it('When the number had a text today, and then opted out, then the preview says the text would be skipped, and why', async () => {
    const src = await sourceWith('partner_sync', '/preview-texted');
    const lead = { name: 'Texted Tia', phone: '2145550311', state: 'TX', sms_consent: true };
    await deliver(t.app, src.token, lead);
    await settle(dispatcher());
    const texts = await t.db.query<{ to_phone: string }>(
      'SELECT to_phone FROM sms_messages WHERE agent_id = $1',
      [src.agent_id],
    );
    expect(texts.rows).toHaveLength(1);
    await deliver(t.app, src.token, { ...lead, listen: true });
    await t.db.query(`INSERT INTO sms_opt_outs (agent_id, phone, keyword) VALUES ($1, $2, 'STOP')`, [
      src.agent_id,
      texts.rows[0]?.to_phone,
    ]);
    await deliver(t.app, src.token, { ...lead, listen: true });
    const samples = (await admin('GET', `/sources/${src.source_id}/samples`)).json().samples as Array<{
      would_fire: Record<string, unknown>;
    }>;
    expect(samples.map((s) => s.would_fire.text)).toEqual([
      { skipped: 'opted out' },
      { skipped: 'texted in the last 24 hours' },
    ]);
  });

  it('When a sample is sent with a remembered token, then everything its preview needs and the sample, which checks the token, take a statement each', async () => {
    const observed = faultyDb(t.db);
    const seen = observed.state.seen;
    const app = await createTestApp({ db: observed.db, testDb: t.testDb });
    try {
      const src = await sourceWith('partner_sync', '/preview-reads');
      const lead = { name: 'Read Rae', phone: '2145550312', email: 'rae@example.com', sms_consent: true };
      await deliver(app.app, src.token, { ...lead, listen: true }); // a first one: only the second is counted
      seen.length = 0;
      const res = await deliver(app.app, src.token, { ...lead, phone: '2145550313', listen: true });
      expect(res.statusCode).toBe(200);
      const statements = seen.filter((sql) => !/^\s*(BEGIN|COMMIT|ROLLBACK)/i.test(sql));
      // What the preview needs, then the sample, stored only if the token is still the source's.
      expect(statements).toHaveLength(2);
      expect(statements[0]).toMatch(/FROM sync_destinations/);
      expect(statements[1]).toMatch(/INSERT INTO listen_samples/);
      expect(statements[1]).toMatch(/FROM sources s WHERE s\.token_hash = /);
    } finally {
      await app.app.close();
    }
  });
});

describe('webhooks: destinations on private networks', () => {
  let strict: TestApp;
  beforeAll(async () => {
    strict = await createTestApp({ allowPrivateDestinations: false });
  });
  afterAll(() => strict.close());

  it.each([
    'http://127.0.0.1:9/x',
    'http://10.1.2.3/x',
    'http://169.254.169.254/latest',
    'http://[::1]/x',
    'http://[::127.0.0.1]:9/x',
    'http://[::a9fe:a9fe]/latest',
    'http://localhost/x',
    'ftp://example.com/x',
  ])(
    'When a destination at %s is added without ALLOW_PRIVATE_DESTINATIONS, then it is refused',
    async (url) => {
      const src = await seedSource(strict.db, `Strict ${url}`);
      const res = await addDestination(strict.app, src.source_id, { url });
      expect(res.statusCode).toBe(400);
      expect(res.json().error_code).toBe('VALIDATION_ERROR');
    },
  );

  it('When a destination’s host resolves to a private address by the time of sending, then nothing is sent to it and the delivery says why', async () => {
    const src = await seedSource(strict.db, 'Strict rebinding');
    const added = await addDestination(strict.app, src.source_id, { url: 'https://8.8.8.8/hook' });
    expect(added.statusCode).toBe(201);
    // The name was public when added; now it resolves to the receiver on 127.0.0.1.
    const port = new URL(receiver.url).port;
    await strict.db.query('UPDATE sync_destinations SET url = $1 WHERE destination_id = $2', [
      `http://localhost:${port}/rebound`,
      (added.json() as { destination_id: string }).destination_id,
    ]);
    await deliver(strict.app, src.token, { name: 'Rebound Rita', phone: '2145550177' });
    await testDispatcher(strict.db, [0, 60_000], {}, { allowPrivateDestinations: false }).runOnce();
    expect(at('/rebound')).toHaveLength(0);
    const { rows } = await strict.db.query<{ status: string; last_error: string }>(
      'SELECT status, last_error FROM webhook_deliveries WHERE agent_id = $1',
      [src.agent_id],
    );
    expect(rows).toEqual([
      { status: 'pending', last_error: expect.stringContaining('non-public address (127.0.0.1)') },
    ]);
  });
});
