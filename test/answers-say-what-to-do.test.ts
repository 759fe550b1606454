import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addDestination, createTestApp, seedSource, type TestApp } from './support/app.ts';
import { deliver } from './support/deliver.ts';
import { loadLead } from './support/lead-rows.ts';

/**
 * Answers that say what to do next, on the database the suite runs on: an
 * appointment kept with a warning when it is past or at night, a missing name that says which
 * fields will do, a private destination's refusal that names the switch.
 */
let t: TestApp;
let strict: TestApp;
let src: { agent_id: string; source_id: string; token: string };
beforeAll(async () => {
  t = await createTestApp();
  strict = await createTestApp({ allowPrivateDestinations: false });
  src = await seedSource(t.db);
});
afterAll(async () => {
  await t.close();
  await strict.close();
});

// A day ahead whenever the suite runs: mid-January of next year.
const FUTURE_DAY = `${new Date().getUTCFullYear() + 1}-01-15`;
const codes = (body: { warnings?: Array<{ code: string }> }) => (body.warnings ?? []).map((w) => w.code);

describe('appointments a sender probably did not mean', () => {
  it('When the appointment date is in the past, then the lead is booked Scheduled, with APPOINTMENT_IN_PAST', async () => {
    const res = await deliver(t.app, src.token, {
      name: 'Past Booking',
      phone: '(214) 555-0170',
      appointment_date: '2025-01-15',
      appointment_time: '1:30 PM',
    });
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    expect(body).toMatchObject({ status: 'Scheduled', scheduled_at: '2025-01-15T19:30:00.000Z' });
    expect(codes(body)).toEqual(['APPOINTMENT_IN_PAST']);
    expect(await loadLead(t.db, body.lead_id)).toMatchObject({ status: 'Scheduled' });
  });

  it('When the appointment is at 2 a.m. in the prospect’s zone, then it is booked, with APPOINTMENT_OUTSIDE_HOURS naming the zone', async () => {
    const res = await deliver(t.app, src.token, {
      name: 'Night Booking',
      phone: '(212) 555-0171',
      state: 'NY',
      appointment_date: FUTURE_DAY,
      appointment_time: '2:00 AM',
    });
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    expect(body).toMatchObject({ status: 'Scheduled', appointment_timezone: 'America/New_York' });
    expect(body.warnings).toEqual([
      expect.objectContaining({
        code: 'APPOINTMENT_OUTSIDE_HOURS',
        message: expect.stringContaining('2:00 AM in America/New_York'),
      }),
    ]);
  });

  it('When the appointment is in the afternoon of a future day, then there is no warning', async () => {
    const res = await deliver(t.app, src.token, {
      name: 'Good Booking',
      phone: '(214) 555-0172',
      appointment_date: FUTURE_DAY,
      appointment_time: '1:30 PM',
    });
    expect(res.json()).not.toHaveProperty('warnings');
  });
});

describe('a missing name', () => {
  it('When a lead has neither name nor first_name, then the 400 says that either will do', async () => {
    const res = await deliver(t.app, src.token, { email: 'nameless@example.com' });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({
      error: 'Missing required field: name is required',
      error_code: 'MISSING_NAME',
      details: expect.stringMatching(/name .* or as first_name/),
    });
  });
});

describe('a destination on this machine', () => {
  it('When private destinations are not allowed, then the refusal names ALLOW_PRIVATE_DESTINATIONS', async () => {
    const own = await seedSource(strict.db, 'Strict Agent');
    const res = await addDestination(strict.app, own.source_id, { url: 'http://127.0.0.1:9000/hook' });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({
      error_code: 'VALIDATION_ERROR',
      details: expect.stringContaining('ALLOW_PRIVATE_DESTINATIONS=true'),
    });
  });
});
