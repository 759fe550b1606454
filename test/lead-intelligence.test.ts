import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, seedSource, type TestApp } from './support/app.ts';
import { countRows, deliver } from './support/deliver.ts';
import { loadLead } from './support/lead-rows.ts';

let t: TestApp;
let src: { agent_id: string; source_id: string; token: string };

beforeAll(async () => {
  t = await createTestApp();
  src = await seedSource(t.db, 'Agent Central', 'America/Chicago');
});
afterAll(() => t.close());

describe('a vendor payload in its own shape', () => {
  it('when aliases, messy values and a split local appointment come in, then the lead lands clean and in the right zone', async () => {
    const res = await deliver(t.app, src.token, {
      'First Name': 'Luis',
      lastName: 'Ortega',
      cell: '+1 (915) 555-0147',
      Email_Address: ' Luis.Ortega@Example.COM ',
      State: 'texas',
      zip: '79901-1234',
      DOB: '04/12/1961',
      Gender: 'm',
      lead_type: 'FE',
      coverage_requested: 15000,
      tobacco: 'N',
      appointment_date: '03/04/2027',
      appointment_time: '2:30 pm',
      vendor_ref: 'A-77',
    });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    // El Paso (ZIP 799xx) keeps Mountain time although Texas's main zone is Central.
    expect(body).toMatchObject({
      status: 'Scheduled',
      appointment_timezone: 'America/Denver',
      scheduled_at: '2027-03-04T21:30:00.000Z',
      schedule_type: 'appointment',
    });
    const stored = await loadLead(t.db, body.lead_id);
    expect(stored).toMatchObject({
      name: 'Luis Ortega',
      phone: '9155550147',
      email: 'luis.ortega@example.com',
      state: 'TX',
      zipcode: '79901',
      date_of_birth: '1961-04-12',
      gender: 'Male',
      lead_category: 'final-expense',
      coverage_amount: '15000',
      smoker: false,
    });
    expect(stored?.custom_fields).toEqual({ vendor_ref: 'A-77' });
  });

  it('when a canonical field and its alias are both sent, then the canonical wins and the alias is kept by its name', async () => {
    const res = await deliver(t.app, src.token, {
      name: 'Both Sent',
      phone: '2145550300',
      Cell: '2145550399',
    });
    const stored = await loadLead(t.db, res.json().lead_id);
    expect(stored?.phone).toBe('2145550300');
    expect(stored?.custom_fields).toEqual({ Cell: '2145550399' });
  });

  it('when values are invalid, then the lead is created, the raw values kept and each warned', async () => {
    const res = await deliver(t.app, src.token, {
      name: 'Bad Values',
      phone: '555-1234',
      email: 'not-an-email',
      age: 15,
      state: 'Atlantis',
      gender: 'unknown',
    });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    const warned = body.warnings.map((w: { field: string; code: string }) => `${w.field}:${w.code}`);
    expect(warned).toEqual(
      expect.arrayContaining([
        'phone:INVALID_PHONE',
        'email:INVALID_EMAIL',
        'age:INVALID_AGE',
        'state:INVALID_STATE',
        'gender:INVALID_GENDER',
      ]),
    );
    const stored = await loadLead(t.db, body.lead_id);
    expect(stored?.custom_fields).toEqual({
      phone: '555-1234',
      email: 'not-an-email',
      age: 15,
      state: 'Atlantis',
      gender: 'unknown',
    });
    expect(stored?.phone).toBeNull();
  });

  it('when a spring-forward local time is booked, then it moves forward by the gap with a warning', async () => {
    const res = await deliver(t.app, src.token, {
      name: 'Gap Time',
      appointment_date: '2027-03-14',
      appointment_time: '2:30 AM',
      appointment_timezone: 'America/New_York',
    });
    const body = res.json();
    expect(body.scheduled_at).toBe('2027-03-14T07:30:00.000Z'); // 03:30 EDT
    expect(body.warnings.map((w: { code: string }) => w.code)).toContain('DST_GAP_SHIFTED');
  });

  it('when nothing tells the zone, then the agent’s default zone is used', async () => {
    const res = await deliver(t.app, src.token, {
      name: 'No Place',
      appointment_date: '2027-01-15',
      appointment_time: '13:30',
    });
    expect(res.json()).toMatchObject({
      appointment_timezone: 'America/Chicago',
      scheduled_at: '2027-01-15T19:30:00.000Z',
    });
  });
});

describe('Listen mode shows the mapping', () => {
  it('when a vendor tries a payload, then the sample holds the mapped lead, custom_fields, warnings and inferred zone', async () => {
    const before = await countRows(t.db, 'leads');
    const res = await deliver(t.app, src.token, {
      listen: true,
      fname: 'Ada',
      lname: 'Byron',
      mobile: '850.432.0101',
      email: 'bad@',
      state: 'FL',
      favorite: 'blue',
    });
    expect(res.json()).toEqual({
      success: true,
      listen: true,
      message: 'Sample received for mapping. Check the lead source in the app.',
    });
    expect(await countRows(t.db, 'leads')).toBe(before);
    const { rows } = await t.db.query<Record<string, unknown> & { mapped: Record<string, unknown> }>(
      'SELECT * FROM listen_samples WHERE source_id = $1 ORDER BY received_at DESC LIMIT 1',
      [src.source_id],
    );
    const sample = rows[0];
    // 850-432 is a Pensacola exchange: Central time, although Florida's main zone is Eastern.
    expect(sample?.mapped).toMatchObject({
      name: 'Ada Byron',
      first_name: 'Ada',
      last_name: 'Byron',
      phone: '8504320101',
      state: 'FL',
      status: 'New',
      inferred_timezone: 'America/Chicago',
      timezone_source: 'area_code',
    });
    expect(sample?.custom_fields).toEqual({ email: 'bad@', favorite: 'blue' });
    expect(sample?.warnings).toEqual([expect.objectContaining({ field: 'email', code: 'INVALID_EMAIL' })]);
  });
});
