// Every row id the gateway makes is a UUID version 7 (src/db/ids.ts): time-ordered, so each
// table's new entries go to the end of its indexes. This sends one of each kind of delivery, lets
// the dispatcher hand them on (webhooks, call tasks, texts), and then reads every uuid column of
// every table: one made with randomUUID again (version 4) fails here, on both databases.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminInject, createTestApp, seedSource, type TestApp } from './support/app.ts';
import { testDispatcher } from './support/automations.ts';
import { deliver, GATEWAY } from './support/deliver.ts';
import { bookingFixtureText } from './fixtures/booking/load.ts';
import { startReceiver } from './support/receiver.ts';

const V7 = /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

let t: TestApp;
let receiver: Awaited<ReturnType<typeof startReceiver>>;
beforeAll(async () => {
  receiver = await startReceiver();
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
  await receiver.close();
});

describe('row ids', () => {
  it('When each kind of delivery has been written and handed on, then every id in every table is a version 7 UUID', async () => {
    const src = await seedSource(t.db, 'Ordered Ids Agent', 'America/Chicago');
    const added = await adminInject(t.app, 'POST', `/sources/${src.source_id}/destinations`, {
      kind: 'partner_sync',
      url: `${receiver.url}/sync`,
    });
    expect(added.statusCode).toBe(201);
    const lead = {
      name: 'Vera Seven',
      phone: '(312) 555-0177',
      email: 'vera@example.com',
      sms_consent: true,
    };
    const sent = [
      await deliver(t.app, src.token, lead),
      await deliver(t.app, src.token, { ...lead, notes: 'called back' }), // the same contact: a merge
      await deliver(t.app, src.token, {
        name: 'Ada Appointment',
        phone: '(312) 555-0178',
        appointment_date: '2027-02-01',
        appointment_time: '10:30',
      }),
      await deliver(t.app, src.token, { name: 'Lena Listen', phone: '(312) 555-0179', listen: true }),
      await deliver(t.app, src.token, { phone: '(312) 555-0180' }), // no name: refused, kept as a sample
      await t.app.inject({
        method: 'POST',
        url: `${GATEWAY}/v/${src.token}`,
        headers: { 'content-type': 'application/json' },
        payload: bookingFixtureText('invitee-created'),
      }),
    ];
    expect(sent.map((r) => r.statusCode)).toEqual([200, 200, 200, 200, 400, 200]);
    // The outbox's messages are deleted as they are handed on: their ids are read before.
    const { rows: messages } = await t.db.query<{ message_id: string; lead_id: string }>(
      'SELECT message_id::text, lead_id::text FROM outbox',
    );
    expect(messages.length).toBeGreaterThanOrEqual(5);
    expect(messages.flatMap((m) => [m.message_id, m.lead_id]).filter((id) => !V7.test(id))).toEqual([]);
    const dispatcher = testDispatcher(t.db, [0], { now: () => new Date('2027-01-15T18:00:00Z') });
    await dispatcher.runOnce();
    await dispatcher.runOnce();

    const { rows: columns } = await t.db.query<{ table_name: string; column_name: string }>(
      `SELECT table_name, column_name FROM information_schema.columns
        WHERE table_schema = current_schema() AND data_type = 'uuid' ORDER BY table_name, column_name`,
    );
    const notV7: string[] = [];
    const tablesWithIds = new Set<string>();
    for (const { table_name: table, column_name: column } of columns) {
      const { rows } = await t.db.query<{ id: string }>(
        `SELECT DISTINCT ${column}::text AS id FROM ${table} WHERE ${column} IS NOT NULL`,
      );
      if (rows.length > 0) tablesWithIds.add(table);
      notV7.push(...rows.filter((r) => !V7.test(r.id)).map((r) => `${table}.${column} ${r.id}`));
    }
    expect(notV7).toEqual([]);
    // Not vacuous: the tables each kind of delivery and follow-up writes had rows to check.
    expect([...tablesWithIds]).toEqual(
      expect.arrayContaining([
        'agents',
        'appointments',
        'booking_events',
        'dial_tasks',
        'lead_contacts',
        'lead_history',
        'leads',
        'listen_samples',
        'sms_messages',
        'sources',
        'sync_destinations',
        'webhook_deliveries',
      ]),
    );
  });
});
