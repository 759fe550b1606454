import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomUUID } from 'node:crypto';
import { queueStats } from '../src/automations/queue-stats.ts';
import { insertReminders } from '../src/automations/reminder-repository.ts';
import { scheduleTexts } from '../src/automations/sms-repository.ts';
import { createMetrics } from '../src/metrics/metrics.ts';
import { buildApp } from '../src/app.ts';
import type { FastifyInstance } from 'fastify';
import { addDestination, ADMIN_KEY, seedSource, TEST_SECRETS } from './support/app.ts';
import { testDispatcher } from './support/automations.ts';
import { createTestDb, type TestDb } from './support/db.ts';
import { deliver } from './support/deliver.ts';
import { startReceiver } from './support/receiver.ts';

let testDb: TestDb;
let app: FastifyInstance;
let receiver: Awaited<ReturnType<typeof startReceiver>>;
const metrics = () => app.inject({ method: 'GET', url: '/metrics' }).then((r) => r.body);
/** A series' value in a scrape; a series the scrape lacks is an error (not NaN, which equals NaN). */
const value = (text: string, series: string) => {
  const found = new RegExp(`^${series.replace(/[{}"()[\]]/g, '\\$&')} (\\S+)$`, 'm').exec(text)?.[1];
  if (found === undefined) throw new Error(`${series} is not in the scrape`);
  return Number(found);
};

let shared: ReturnType<typeof createMetrics>;
beforeAll(async () => {
  testDb = await createTestDb();
  shared = createMetrics(() => queueStats(testDb.db));
  app = await buildApp({
    db: testDb.db,
    adminApiKey: ADMIN_KEY,
    secrets: TEST_SECRETS,
    publicBaseUrl: 'http://127.0.0.1:3000/v1',
    rateLimit: { rps: 0, burst: 1 },
    logLevel: 'silent',
    maxEventLoopDelayMs: 0, // as the test app: a busy machine is not an overloaded server
    metrics: shared,
    allowPrivateDestinations: true,
  });
  receiver = await startReceiver((r) => (r.path === '/dead' ? 500 : 200));
});
afterAll(async () => {
  await app.close();
  await receiver.close();
  await testDb.cleanup();
});

describe('GET /metrics', () => {
  it('When deliveries come in and the dispatcher runs, then the counters, the latency histogram and the queue gauges say so', async () => {
    const src = await seedSource(testDb.db);
    await addDestination(app, src.source_id, { url: `${receiver.url}/dead` });
    await deliver(app, src.token, { name: 'Metric Mia', phone: '2145550601' });
    await deliver(app, src.token, { name: 'Metric Mia', phone: '2145550601', city: 'Austin' });
    await deliver(app, src.token, { phone: '2145550602' });

    let text = await metrics();
    expect(value(text, 'leadgate_deliveries_total{outcome="created",code=""}')).toBe(1);
    expect(value(text, 'leadgate_deliveries_total{outcome="merged",code=""}')).toBe(1);
    expect(value(text, 'leadgate_deliveries_total{outcome="rejected",code="MISSING_NAME"}')).toBe(1);
    expect(value(text, 'leadgate_leads_total{outcome="created"}')).toBe(1);
    expect(value(text, 'leadgate_outbox_depth')).toBe(2);
    expect(value(text, 'leadgate_outbox_lag_seconds')).toBeGreaterThanOrEqual(0);
    expect(
      value(
        text,
        'leadgate_http_request_duration_seconds_count{method="POST",route="/v1/inbound-lead-gateway",status="200"}',
      ),
    ).toBe(2);

    const dispatcher = testDispatcher(testDb.db, [0], { metrics: shared });
    await dispatcher.runOnce(); // the lead's second event waits until its first is settled
    await dispatcher.runOnce();
    text = await metrics();
    expect(value(text, 'leadgate_outbox_depth')).toBe(0);
    expect(value(text, 'leadgate_dead_letters')).toBe(2);
    expect(value(text, 'leadgate_webhook_attempts_total{outcome="dead"}')).toBe(2);
    expect(text).not.toContain(src.token);
  });

  it('When texts are due and not sent, then leadgate_texts_due counts them; a text not yet due, or sent, is not counted', async () => {
    const { rows } = await testDb.db.query<{ agent_id: string; lead_id: string }>(
      'SELECT agent_id, lead_id FROM leads LIMIT 1',
    );
    const lead = rows[0];
    if (!lead) throw new Error('the test before left no lead');
    // A scrape's queue figures are shared with the scrapes of the same moment: read after a timer.
    const due = async () => {
      await new Promise((resolve) => setTimeout(resolve, 5));
      return value(await metrics(), 'leadgate_texts_due');
    };
    const before = await due();
    const text = (send_at: Date, lease_until?: Date) => ({
      ...lead,
      message_id: randomUUID(),
      to_phone: '+12145550601',
      body: 'Hi',
      send_at,
      ...(lease_until ? { lease_until } : {}),
    });
    const now = Date.now();
    const [first] = await scheduleTexts(testDb.db, [
      text(new Date(now - 60_000)),
      text(new Date(now - 1_000), new Date(now + 30_000)), // being sent
      text(new Date(now + 3_600_000)), // an hour from now
    ]);
    expect(await due()).toBe(before + 2);
    await testDb.db.query(`UPDATE sms_messages SET status = 'sent' WHERE sms_id = $1`, [first?.sms_id]);
    expect(await due()).toBe(before + 1);
  });
  it('When appointment reminders are due and not done, then leadgate_reminders_due counts them; one not yet due, or sent, is not counted', async () => {
    const src = await seedSource(testDb.db, 'Reminder Gauge Agent');
    const res = await deliver(app, src.token, {
      name: 'Gauge Booked',
      phone: '2145550602',
      scheduled_at: '2027-02-01T16:00:00Z',
    });
    expect(res.statusCode, res.body).toBe(200);
    const { rows } = await testDb.db.query<{ appointment_id: string; lead_id: string }>(
      'SELECT appointment_id, lead_id FROM appointments WHERE agent_id = $1',
      [src.agent_id],
    );
    const booked = rows[0];
    if (!booked) throw new Error('the delivery booked no appointment');
    const due = async () => {
      await new Promise((resolve) => setTimeout(resolve, 5));
      return value(await metrics(), 'leadgate_reminders_due');
    };
    const before = await due();
    const now = Date.now();
    const reminder = (kind: 'day_before' | 'hour_before', due_at: Date) => ({
      agent_id: src.agent_id,
      appointment_id: booked.appointment_id,
      lead_id: booked.lead_id,
      kind,
      appointment_at: new Date('2027-02-01T16:00:00Z'),
      due_at,
    });
    await testDb.db.query('DELETE FROM appointment_reminders WHERE agent_id = $1', [src.agent_id]);
    await insertReminders(testDb.db, [
      reminder('day_before', new Date(now - 60_000)),
      reminder('hour_before', new Date(now + 3_600_000)),
    ]);
    expect(await due()).toBe(before + 1);
    await testDb.db.query(
      `UPDATE appointment_reminders SET status = 'sent' WHERE agent_id = $1 AND kind = 'day_before'`,
      [src.agent_id],
    );
    expect(await due()).toBe(before);
  });
});
