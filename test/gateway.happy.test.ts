import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, seedSource, type TestApp } from './support/app.ts';
import { countRows, deliver, GATEWAY } from './support/deliver.ts';
import { FULL_LEAD, SUCCESS_FIELDS } from './support/fixtures.ts';
import { loadLead } from './support/lead-rows.ts';

let t: TestApp;
let src: { agent_id: string; source_id: string; token: string };

beforeAll(async () => {
  t = await createTestApp();
  src = await seedSource(t.db);
});
afterAll(() => t.close());

describe('live delivery', () => {
  for (const via of ['header', 'path'] as const) {
    it(`when a plain lead is sent with the token in the ${via}, then it is created as New`, async () => {
      const res = await deliver(
        t.app,
        src.token,
        { name: 'Jane Doe', phone: via === 'header' ? '2145550100' : '2145550101' },
        { via },
      );
      expect(res.statusCode).toBe(200);
      const body = res.json();
      expect(body).toMatchObject({
        success: true,
        message: 'Lead created',
        listen: false,
        agent_id: src.agent_id,
        status: 'New',
        auto_sync_enabled: false,
      });
      expect(body.lead_id).toMatch(/^[0-9a-f-]{36}$/);
      expect(Object.keys(body).every((k) => SUCCESS_FIELDS.includes(k))).toBe(true);
      expect(body).not.toHaveProperty('scheduled_at');
      const stored = await loadLead(t.db, body.lead_id);
      expect(stored).toMatchObject({ name: 'Jane Doe', first_name: 'Jane', last_name: 'Doe', status: 'New' });
      expect(stored?.source_id).toBe(src.source_id);
    });
  }

  it('when every field of the spec is sent, then each is stored under its spec name', async () => {
    const res = await deliver(t.app, src.token, FULL_LEAD);
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body).toMatchObject({
      message: 'Lead created and appointment scheduled',
      status: 'Scheduled',
      scheduled_at: '2027-01-15T19:30:00.000Z',
      appointment_timezone: 'America/Chicago',
      schedule_type: 'appointment',
    });
    expect(Object.keys(body).every((k) => SUCCESS_FIELDS.includes(k))).toBe(true);
    const stored = await loadLead(t.db, body.lead_id);
    const { custom_fields, scheduled_at: _s, ...fields } = FULL_LEAD;
    expect(stored).toMatchObject({ ...fields, name: 'Maria Lopez', status: 'Scheduled' });
    expect(stored?.scheduled_at).toBe('2027-01-15T19:30:00.000Z');
    expect(stored?.custom_fields).toEqual(custom_fields);
  });

  it('when scheduled_at is sent, then the appointment is on the agenda with the links of custom_fields', async () => {
    const res = await deliver(t.app, src.token, {
      name: 'Sam Booked',
      scheduled_at: '2027-02-01T15:00:00-05:00',
      appointment_timezone: 'America/New_York',
      setter_dialer_name: 'Setter Sue',
      custom_fields: { join_url: 'https://meet.example/x', cancel_url: 'https://c.example/x' },
    });
    const body = res.json();
    expect(body.scheduled_at).toBe('2027-02-01T20:00:00.000Z');
    const stored = await loadLead(t.db, body.lead_id);
    expect(stored?.appointments).toHaveLength(1);
    const appt = stored?.appointments[0];
    expect(appt).toMatchObject({
      status: 'booked',
      appointment_timezone: 'America/New_York',
      schedule_type: 'appointment',
      setter_dialer_name: 'Setter Sue',
      join_url: 'https://meet.example/x',
      cancel_url: 'https://c.example/x',
    });
    expect(new Date(appt?.scheduled_at as string).toISOString()).toBe('2027-02-01T20:00:00.000Z');
  });

  it('when unknown fields are sent, then they land in custom_fields unchanged beside the sender’s own', async () => {
    const res = await deliver(t.app, src.token, {
      name: 'Una Known',
      favorite_color: 'teal',
      'Vendor Lead ID': 123,
      nested: { a: [1, { b: null }] },
      custom_fields: { setter_id: 'S1' },
    });
    const stored = await loadLead(t.db, res.json().lead_id);
    expect(stored?.custom_fields).toEqual({
      setter_id: 'S1',
      favorite_color: 'teal',
      'Vendor Lead ID': 123,
      nested: { a: [1, { b: null }] },
    });
  });

  it('when an appointment value under an alias cannot be used, then it is kept under the name it was sent as', async () => {
    const res = await deliver(t.app, src.token, {
      name: 'Alias Al',
      appointment_datetime: 'next tuesday-ish',
    });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.status).toBe('New');
    expect(body.warnings.map((w: { field: string }) => w.field)).toContain('scheduled_at');
    const stored = await loadLead(t.db, body.lead_id);
    expect(stored?.custom_fields).toEqual({ appointment_datetime: 'next tuesday-ish' });
    expect(stored).not.toHaveProperty('scheduled_at');
  });

  it('when the Content-Type is text/plain or missing, then the body is still read as JSON', async () => {
    for (const contentType of ['text/plain', 'application/octet-stream', undefined]) {
      const res = await t.app.inject({
        method: 'POST',
        url: GATEWAY,
        headers: { 'x-source-token': src.token, ...(contentType ? { 'content-type': contentType } : {}) },
        payload: JSON.stringify({ name: `Plain ${contentType ?? 'none'}` }),
      });
      expect(res.statusCode, String(contentType)).toBe(200);
    }
  });

  it('when the body is form-encoded, then it is mapped like JSON', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: `${GATEWAY}/v/${src.token}`,
      headers: { 'content-type': 'application/x-www-form-urlencoded; charset=utf-8' },
      payload: 'first_name=Form&last_name=Filler&tags=a&tags=b&custom_fields%5Bsetter_id%5D=S2&extra=1',
    });
    expect(res.statusCode).toBe(200);
    const stored = await loadLead(t.db, res.json().lead_id);
    expect(stored).toMatchObject({ name: 'Form Filler', tags: ['a', 'b'] });
    expect(stored?.custom_fields).toEqual({ setter_id: 'S2', extra: '1' });
  });

  it('when first_name alone is given, then it is the name', async () => {
    const res = await deliver(t.app, src.token, { first_name: 'Cher' });
    expect(res.statusCode).toBe(200);
    expect(await loadLead(t.db, res.json().lead_id)).toMatchObject({ name: 'Cher', first_name: 'Cher' });
  });

  it('when a delivery is live, then one lead.created message is put in the outbox', async () => {
    const res = await deliver(t.app, src.token, { name: 'Outbox Olive' });
    const leadId = res.json().lead_id;
    expect(
      await countRows(t.db, 'outbox', "topic = 'lead.created' AND payload->>'lead_id' = $1", [leadId]),
    ).toBe(1);
  });
});

describe('Listen mode', () => {
  it('when listen is true, then the exact Listen answer, a stored sample, and nothing else created', async () => {
    const before = await Promise.all(
      ['leads', 'appointments', 'outbox', 'idempotency_keys'].map((x) => countRows(t.db, x)),
    );
    const body = { ...FULL_LEAD, listen: true, surprise: 'kept', idempotency_key: 'listen-1' };
    const res = await deliver(t.app, src.token, body, { headers: { 'idempotency-key': 'listen-2' } });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      success: true,
      listen: true,
      message: 'Sample received for mapping. Check the lead source in the app.',
    });
    const after = await Promise.all(
      ['leads', 'appointments', 'outbox', 'idempotency_keys'].map((x) => countRows(t.db, x)),
    );
    expect(after).toEqual(before);
    const { rows } = await t.db.query<Record<string, unknown>>(
      'SELECT * FROM listen_samples WHERE source_id = $1 ORDER BY received_at DESC LIMIT 1',
      [src.source_id],
    );
    const sample = rows[0];
    expect(sample?.body).toMatchObject({ surprise: 'kept', listen: true, first_name: 'Maria' });
    expect(sample?.mapped).toMatchObject({
      name: 'Maria Lopez',
      status: 'Scheduled',
      scheduled_at: '2027-01-15T19:30:00.000Z',
    });
    expect(sample?.custom_fields).toMatchObject({ surprise: 'kept', setter_id: 'S-9' });
    expect(sample?.error_code).toBeNull();
  });

  it('when a Listen sample has no name, then it is stored with MISSING_NAME and answered 400', async () => {
    const res = await deliver(t.app, src.token, { listen: 'true', phone: '2145550111' });
    expect(res.statusCode).toBe(400);
    expect(res.json().error_code).toBe('MISSING_NAME');
    const { rows } = await t.db.query<{ error_code: string }>(
      'SELECT error_code FROM listen_samples WHERE source_id = $1 ORDER BY received_at DESC LIMIT 1',
      [src.source_id],
    );
    expect(rows[0]?.error_code).toBe('MISSING_NAME');
  });
});

describe('operations', () => {
  it('when /healthz and /readyz are asked, then the process and the database answer', async () => {
    expect((await t.app.inject({ method: 'GET', url: '/healthz' })).json()).toEqual({ status: 'ok' });
    const ready = await t.app.inject({ method: 'GET', url: '/readyz' });
    expect(ready.statusCode).toBe(200);
    expect(ready.json().status).toBe('ready');
  });

  it('when a request is made, then its id comes back in x-request-id', async () => {
    const res = await deliver(
      t.app,
      src.token,
      { name: 'Req Id' },
      { headers: { 'x-request-id': 'abc-123' } },
    );
    expect(res.headers['x-request-id']).toBe('abc-123');
  });
});
