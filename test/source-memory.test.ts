import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LIMITS } from '../src/limits.ts';
import { regenerateSourceToken } from '../src/sources/source-repository.ts';
import {
  addDestination,
  adminInject,
  createTestApp,
  seedSource,
  watchedTestApp,
  type TestApp,
} from './support/app.ts';
import type { FaultyDb } from './support/faulty-db.ts';
import { deliver, GATEWAY } from './support/deliver.ts';
import { signSchedulerPayload } from '../src/booking-events/signature.ts';
import { bookingFixtureText, type BookingFixture } from './fixtures/booking/load.ts';

// A gateway process keeps a token's source in memory after its first request
// (src/gateway/source-directory.ts). Every test here first delivers once, so the source is remembered,
// then changes it behind the process's back and checks that the very next request sees the change.

let t: TestApp;
let faulty: FaultyDb;
let close: () => Promise<void>;

beforeAll(async () => ({ t, faulty, close } = await watchedTestApp()));
afterAll(() => close());
const lookups = () => faulty.state.seen.filter((sql) => sql.includes('token_hash = ANY'));

const splitAppointment = (name: string) => ({
  name,
  appointment_date: '01/15/2027',
  appointment_time: '2:30 PM',
});

describe('a source remembered by the process', () => {
  it("When the agent's time zone changes, then the next delivery books in the new zone", async () => {
    const s = await seedSource(t.db, 'Zone Agent', 'America/Chicago');
    const before = await deliver(t.app, s.token, splitAppointment('Zone One'));
    expect(before.json().appointment_timezone).toBe('America/Chicago');
    expect(
      (await adminInject(t.app, 'PATCH', `/agents/${s.agent_id}`, { timezone: 'America/Denver' })).statusCode,
    ).toBe(200);
    const after = await deliver(t.app, s.token, splitAppointment('Zone Two'));
    expect(after.json().appointment_timezone).toBe('America/Denver');
    expect(after.json().scheduled_at).toBe('2027-01-15T21:30:00.000Z');
  });

  it('When the source gets mapping rules, then the next delivery is mapped with them', async () => {
    const s = await seedSource(t.db, 'Rules Agent');
    expect((await deliver(t.app, s.token, { name: 'Rule Before', '1.3': 'Gravity' })).statusCode).toBe(200);
    const put = await t.app.inject({
      method: 'PUT',
      url: `/v1/admin/sources/${s.source_id}/mapping`,
      headers: { authorization: 'Bearer test-admin-key-0123456789', 'content-type': 'application/json' },
      payload: JSON.stringify({ rules: { '1.3': 'first_name', '1.6': 'last_name' } }),
    });
    expect(put.statusCode).toBe(200);
    const after = await deliver(t.app, s.token, { '1.3': 'Greta', '1.6': 'Gravity' });
    expect(after.statusCode).toBe(200);
    const { rows } = await t.db.query<{ name: string }>('SELECT name FROM leads WHERE lead_id = $1', [
      after.json().lead_id,
    ]);
    expect(rows[0]?.name).toBe('Greta Gravity');
  });

  it('When the source gets mapping rules, then the next Listen sample is mapped with them', async () => {
    const s = await seedSource(t.db, 'Listen Rules Agent');
    expect((await deliver(t.app, s.token, { name: 'Listen Before', listen: true })).statusCode).toBe(200);
    const put = await adminInject(t.app, 'PUT', `/sources/${s.source_id}/mapping`, {
      rules: { '1.3': 'first_name', '1.6': 'last_name' },
    });
    expect(put.statusCode).toBe(200);
    const after = await deliver(t.app, s.token, { '1.3': 'Lena', '1.6': 'Later', listen: true });
    expect(after.statusCode).toBe(200);
    const { rows } = await t.db.query<{ mapped: { name?: string } }>(
      `SELECT mapped FROM listen_samples WHERE source_id = $1 AND body->>'1.3' = 'Lena'`,
      [s.source_id],
    );
    expect(rows.map((r) => r.mapped.name)).toEqual(['Lena Later']);
  });

  it('When a partner destination is added, then the next answer says auto_sync_enabled', async () => {
    const s = await seedSource(t.db, 'Sync Agent');
    expect((await deliver(t.app, s.token, { name: 'Sync Before' })).json().auto_sync_enabled).toBe(false);
    expect((await addDestination(t.app, s.source_id, { url: 'http://127.0.0.1:9/hook' })).statusCode).toBe(
      201,
    );
    expect((await deliver(t.app, s.token, { name: 'Sync After' })).json().auto_sync_enabled).toBe(true);
  });
});

describe('a booking scheduler whose token is remembered', () => {
  const KEY = 'whsec_remembered_key';
  const event = (token: string, fixture: BookingFixture, key?: string) => {
    const raw = bookingFixtureText(fixture);
    const headers: Record<string, string> = { 'content-type': 'application/json' };
    if (key)
      headers['calendly-webhook-signature'] = signSchedulerPayload(raw, key, Math.floor(Date.now() / 1000));
    return t.app.inject({ method: 'POST', url: `${GATEWAY}/v/${token}`, headers, payload: raw });
  };

  it('When bookings and cancels come, then no lookup is made: their writes check the token', async () => {
    const s = await seedSource(t.db, 'Remembered Scheduler Agent');
    expect((await deliver(t.app, s.token, { name: 'First Lead' })).statusCode).toBe(200);
    faulty.state.seen.length = 0;

    const booked = await event(s.token, 'invitee-created');
    const canceled = await event(s.token, 'invitee-canceled');

    expect([booked.statusCode, canceled.statusCode]).toEqual([200, 200]);
    expect(lookups()).toEqual([]);
    const { rows } = await t.db.query<{ status: string }>(
      'SELECT status FROM appointments WHERE agent_id = $1',
      [s.agent_id],
    );
    expect(rows.map((r) => r.status)).toEqual(['canceled']);
  });

  it('When the agent replaces the signing key, then the next event signed with the new key is taken and one with the old key refused', async () => {
    const s = await seedSource(t.db, 'Rotated Key Agent');
    const patch = (signing_key: string) =>
      adminInject(t.app, 'PATCH', `/sources/${s.source_id}`, { signing_key });
    expect((await patch('whsec_old_key')).statusCode).toBe(200);
    expect((await event(s.token, 'invitee-created', 'whsec_old_key')).statusCode).toBe(200);

    expect((await patch(KEY)).statusCode).toBe(200);
    const withNew = await event(s.token, 'invitee-canceled', KEY);
    const withOld = await event(s.token, 'invitee-canceled', 'whsec_old_key');

    expect(withOld.statusCode).toBe(401);
    expect(withOld.json()).toMatchObject({ error_code: 'INVALID_SIGNATURE' });
    expect(withNew.statusCode).toBe(200);
  });

  it('When a source without a key gets one, then the next unsigned event is refused', async () => {
    const s = await seedSource(t.db, 'Newly Keyed Agent');
    expect((await event(s.token, 'invitee-created')).statusCode).toBe(200);
    expect(
      (await adminInject(t.app, 'PATCH', `/sources/${s.source_id}`, { signing_key: KEY })).statusCode,
    ).toBe(200);
    const unsigned = await event(s.token, 'invitee-canceled');
    expect(unsigned.statusCode).toBe(401);
    expect(unsigned.json()).toMatchObject({ error_code: 'INVALID_SIGNATURE' });
  });
});

describe('a remembered token, revoked', () => {
  // Each case has a source of its own: once refused, a token is remembered as unknown, and the
  // next case would not reach the path it is about.
  const revoked: Array<{ agent_id: string; source_id: string; token: string }> = [];
  const rememberedThenRevoked = async () => {
    const s = await seedSource(t.db, 'Revoked Agent');
    const first = await deliver(
      t.app,
      s.token,
      { name: 'Known Contact', phone: '2145550990' },
      { headers: { 'idempotency-key': 'revoked-1' } },
    );
    expect(first.statusCode).toBe(200);
    await regenerateSourceToken(t.db, s.source_id);
    revoked.push(s);
    return s.token;
  };

  const big = 'x'.repeat(LIMITS.maxBodyBytes + 10);
  it.each([
    ['a new contact', (token: string) => deliver(t.app, token, { name: 'New Contact', phone: '2145550991' })],
    [
      'a repeat contact',
      (token: string) => deliver(t.app, token, { name: 'Known Contact', phone: '2145550990' }),
    ],
    [
      'a retry under a used key',
      (token: string) =>
        deliver(
          t.app,
          token,
          { name: 'Known Contact', phone: '2145550990' },
          { headers: { 'idempotency-key': 'revoked-1' } },
        ),
    ],
    ['a Listen sample', (token: string) => deliver(t.app, token, { name: 'Listen', listen: true })],
    ['a lead without a name', (token: string) => deliver(t.app, token, { phone: '2145550992' })],
    ['a body that is not JSON', (token: string) => deliver(t.app, token, null, { raw: '{"name": ' })],
    [
      'a body over the size limit',
      (token: string) => deliver(t.app, token, null, { raw: `{"name":"${big}"}` }),
    ],
    [
      'a booking-scheduler event',
      (token: string) => deliver(t.app, token, null, { raw: bookingFixtureText('invitee-created') }),
    ],
    [
      'a no-show event',
      (token: string) => deliver(t.app, token, null, { raw: bookingFixtureText('invitee-no-show-created') }),
    ],
    [
      'a scheduler event the gateway ignores',
      (token: string) =>
        deliver(t.app, token, null, { raw: bookingFixtureText('routing-form-submission-created') }),
    ],
  ])('When it sends %s, then it is refused 401', async (_what, send) => {
    const res = await send(await rememberedThenRevoked());
    expect(res.statusCode).toBe(401);
    expect(res.json().error_code).toBe('INVALID_SOURCE_TOKEN');
  });

  it('When it is over its rate limit, then it is told 401, not 429', async () => {
    const limited = await createTestApp({ testDb: t.testDb, rateLimit: { rps: 1, burst: 1 } });
    try {
      const r = await seedSource(t.db, 'Limited Agent');
      expect((await deliver(limited.app, r.token, { name: 'First' })).statusCode).toBe(200);
      expect((await deliver(limited.app, r.token, { name: 'Second' })).statusCode).toBe(429);
      await regenerateSourceToken(t.db, r.source_id);
      expect((await deliver(limited.app, r.token, { name: 'Third' })).statusCode).toBe(401);
    } finally {
      await limited.close();
    }
  });

  it('When all that was refused, then no source kept more than its first lead: no sample, event or key', async () => {
    const count = async (table: string) => {
      const { rows } = await t.db.query<{ n: number }>(
        `SELECT count(*)::int AS n FROM ${table} WHERE source_id = ANY($1::uuid[])`,
        [revoked.map((r) => r.source_id)],
      );
      return rows[0]?.n;
    };
    expect(revoked).toHaveLength(10);
    expect(await count('leads')).toBe(10);
    expect(await count('idempotency_keys')).toBe(10);
    expect(await count('listen_samples')).toBe(0);
    expect(await count('booking_events')).toBe(0);
  });
});

describe("a source's state changed by the agent", () => {
  // A refusal from memory must never outlive a change the database already holds: a 401 is a
  // permanent answer, and a vendor's system drops the lead and often pauses the integration.
  const patch = (sourceId: string, body: unknown) =>
    adminInject(t.app, 'PATCH', `/sources/${sourceId}`, body);

  it('When a source refused while disabled is enabled again, then the very next delivery lands', async () => {
    const s = await seedSource(t.db, 'Paused Vendor');
    expect((await deliver(t.app, s.token, { name: 'Before Pause' })).statusCode).toBe(200);
    expect((await patch(s.source_id, { active: false })).statusCode).toBe(200);
    for (let i = 0; i < 3; i++) {
      const refused = await deliver(t.app, s.token, { name: 'While Paused' });
      expect(refused.statusCode).toBe(401);
    }
    expect((await patch(s.source_id, { active: true })).statusCode).toBe(200);
    const after = await deliver(t.app, s.token, { name: 'After Pause' });
    expect(after.statusCode).toBe(200);
    expect(after.json()).toMatchObject({ success: true, message: 'Lead created' });
  });

  it('When a source never delivered to is refused while disabled and then enabled, then the next delivery lands', async () => {
    const s = await seedSource(t.db, 'Cold Vendor');
    expect((await patch(s.source_id, { active: false })).statusCode).toBe(200);
    expect((await deliver(t.app, s.token, { name: 'Cold Paused' })).statusCode).toBe(401);
    expect((await patch(s.source_id, { active: true })).statusCode).toBe(200);
    expect((await deliver(t.app, s.token, { name: 'Cold After' })).statusCode).toBe(200);
  });

  it('When the token is regenerated, then the old one is refused and the new one lands at once, every time', async () => {
    const s = await seedSource(t.db, 'Rotated Vendor');
    expect((await deliver(t.app, s.token, { name: 'Rotate One' })).statusCode).toBe(200);
    const regenerated = await adminInject(t.app, 'POST', `/sources/${s.source_id}/regenerate`, {});
    const fresh = regenerated.json().token as string;
    expect((await deliver(t.app, s.token, { name: 'Rotate Old' })).statusCode).toBe(401);
    expect((await deliver(t.app, fresh, { name: 'Rotate New' })).statusCode).toBe(200);
    expect((await deliver(t.app, s.token, { name: 'Rotate Old Again' })).statusCode).toBe(401);
  });

  it("When a source's rate limit is lowered, then the next request counts against the new limit; raised, the next goes on", async () => {
    const limited = await createTestApp({ testDb: t.testDb, rateLimit: { rps: 100, burst: 100 } });
    try {
      const s = await seedSource(t.db, 'Throttled Vendor');
      expect((await deliver(limited.app, s.token, { name: 'Throttle One' })).statusCode).toBe(200);
      const lower = await adminInject(limited.app, 'PATCH', `/sources/${s.source_id}`, {
        rate_limit_rps: 1,
        rate_limit_burst: 1,
      });
      expect(lower.statusCode).toBe(200);
      expect((await deliver(limited.app, s.token, { name: 'Throttle Two' })).statusCode).toBe(200);
      expect((await deliver(limited.app, s.token, { name: 'Throttle Three' })).statusCode).toBe(429);
      const raise = await adminInject(limited.app, 'PATCH', `/sources/${s.source_id}`, {
        rate_limit_rps: 50,
        rate_limit_burst: 50,
      });
      expect(raise.statusCode).toBe(200);
      expect((await deliver(limited.app, s.token, { name: 'Throttle Four' })).statusCode).toBe(200);
    } finally {
      await limited.close();
    }
  });
});
