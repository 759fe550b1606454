import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, seedSource, type TestApp } from './support/app.ts';
import { deliver } from './support/deliver.ts';
import { loadBookingFixture } from './fixtures/booking/load.ts';

// A bad value never rejects a lead: a date the database cannot store is kept raw with a warning,
// and the lead is created. These once answered 500 (PostgreSQL's 22009, "time zone displacement out
// of range"), which a sender retries forever while nothing is stored.

let t: TestApp;
let src: { agent_id: string; source_id: string; token: string };
beforeAll(async () => {
  t = await createTestApp();
  src = await seedSource(t.db, 'Far Future Agent', 'America/Los_Angeles');
});
afterAll(() => t.close());

async function stored(leadId: string) {
  const { rows } = await t.db.query<{ custom_fields: Record<string, unknown>; appointments: number }>(
    `SELECT l.custom_fields, (SELECT count(*)::int FROM appointments a WHERE a.lead_id = l.lead_id) AS appointments
       FROM leads l WHERE l.lead_id = $1`,
    [leadId],
  );
  return rows[0];
}

describe('dates the database cannot store', () => {
  it.each([
    ['scheduled_at', '+010000-01-01T00:00:00Z'],
    ['scheduled_at', '9999-12-31T23:00:00-05:00'],
    ['scheduled_at', '-000001-01-01T00:00:00Z'],
    ['scheduled_at', '0000-01-01T00:00:00Z'],
    ['scheduled_at', '0001-01-01T00:00:00+05:00'],
  ])(
    'When %s is %s, then the lead is created, the value kept raw with a warning, no appointment',
    async (field, value) => {
      const res = await deliver(t.app, src.token, { name: 'Far Future', [field]: value });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toMatchObject({ success: true, message: 'Lead created' });
      expect(res.json().warnings).toContainEqual(
        expect.objectContaining({ field: 'scheduled_at', code: 'DATETIME_OUT_OF_RANGE' }),
      );
      const row = await stored(res.json().lead_id);
      expect(row?.custom_fields).toMatchObject({ scheduled_at: value });
      expect(row?.appointments).toBe(0);
    },
  );

  it('When appointment_date 9999-12-31 at 11:30 PM in California passes the last storable instant, then the lead is created with both halves kept raw', async () => {
    const res = await deliver(t.app, src.token, {
      name: 'Last Night',
      appointment_date: '9999-12-31',
      appointment_time: '11:30 PM',
      state: 'CA',
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().warnings).toContainEqual(
      expect.objectContaining({ field: 'appointment_time', code: 'DATETIME_OUT_OF_RANGE' }),
    );
    const row = await stored(res.json().lead_id);
    expect(row?.custom_fields).toMatchObject({
      appointment_date: '9999-12-31',
      appointment_time: '11:30 PM',
    });
    expect(row?.appointments).toBe(0);
  });

  it('When the last storable minute is asked for, then it is booked', async () => {
    const res = await deliver(t.app, src.token, { name: 'Just In', scheduled_at: '9999-12-31T23:59:00Z' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ scheduled_at: '9999-12-31T23:59:00.000Z' });
  });

  it('When a booking scheduler sends an event starting in year 10000, then the lead is created without the appointment', async () => {
    const event = loadBookingFixture('invitee-created');
    const body = JSON.stringify(event).replace(
      '2027-01-15T19:30:00.000000Z',
      '+010000-01-15T19:30:00.000000Z',
    );
    expect(body).toContain('+010000-01-15');
    const res = await deliver(t.app, src.token, null, { raw: body });
    expect(res.statusCode).toBe(200);
    expect(res.json().lead_id).toEqual(expect.any(String));
    expect((await stored(res.json().lead_id))?.appointments).toBe(0);
  });

  it('When any date string goes into any date field, then the answer is never a 500', async () => {
    const year = fc.oneof(
      fc.integer({ min: 0, max: 9999 }).map((y) => String(y).padStart(4, '0')),
      fc
        .integer({ min: -300_000, max: 300_000 })
        .map((y) => `${y < 0 ? '-' : '+'}${String(Math.abs(y)).padStart(6, '0')}`),
    );
    const two = (max: number) => fc.integer({ min: 0, max }).map((n) => String(n).padStart(2, '0'));
    const offset = fc.oneof(
      fc.constant('Z'),
      fc.constant(''),
      fc.tuple(fc.constantFrom('+', '-'), two(23), two(59)).map(([s, h, m]) => `${s}${h}:${m}`),
    );
    const isoLike = fc
      .tuple(year, two(13), two(32), two(24), two(60), offset)
      .map(([y, mo, d, h, mi, o]) => `${y}-${mo}-${d}T${h}:${mi}:00${o}`);
    const dateLike = fc.oneof(
      fc.tuple(year, two(12), two(31)).map(([y, mo, d]) => `${y}-${mo}-${d}`),
      fc.tuple(two(12), two(31), year).map(([mo, d, y]) => `${mo}/${d}/${y}`),
    );
    const text = fc.oneof(isoLike, dateLike, fc.string({ maxLength: 30 }));
    const body = fc.oneof(
      text.map((v) => ({ scheduled_at: v })),
      fc.tuple(dateLike, fc.constantFrom('11:30 PM', '00:00', '12:00 AM', '23:59')).map(([d, tm]) => ({
        appointment_date: d,
        appointment_time: tm,
      })),
      text.map((v) => ({ date_of_birth: v })),
      fc
        .tuple(text, fc.constantFrom('Pacific/Kiritimati', 'Etc/GMT+12', 'America/Chicago', 'nonsense'))
        .map(([v, zone]) => ({ scheduled_at: v, appointment_timezone: zone })),
    );
    await fc.assert(
      fc.asyncProperty(body, async (fields) => {
        const res = await deliver(t.app, src.token, { name: 'Any Date', ...fields });
        expect(res.statusCode, res.body).toBe(200);
      }),
      { numRuns: 150 },
    );
  });
});
