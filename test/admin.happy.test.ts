import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Queryable } from '../src/db/index.ts';
import { activeSourceOf, ADMIN_KEY, createTestApp, seedSource, type TestApp } from './support/app.ts';

const AUTH = { authorization: `Bearer ${ADMIN_KEY}` };

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});

async function admin(method: 'GET' | 'POST' | 'PATCH', url: string, payload?: unknown) {
  const res = await t.app.inject({
    method,
    url: `/v1/admin${url}`,
    headers: AUTH,
    ...(payload !== undefined ? { payload: payload as Record<string, unknown> } : {}),
  });
  return { status: res.statusCode, body: res.json<Record<string, unknown>>(), raw: res.body };
}

/** Leads are written by the gateway; here they are put in place directly. */
async function insertLead(
  db: Queryable,
  lead: { agent_id: string; source_id: string; name: string } & Partial<{
    status: string;
    phone: string;
    email: string;
    fields: object;
    custom_fields: object;
    created_at: string;
  }>,
): Promise<string> {
  const leadId = randomUUID();
  await db.query(
    `INSERT INTO leads (agent_id, lead_id, source_id, status, name, phone, email, fields, custom_fields, created_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, COALESCE($10::timestamptz, now()))`,
    [
      lead.agent_id,
      leadId,
      lead.source_id,
      lead.status ?? 'New',
      lead.name,
      lead.phone ?? null,
      lead.email ?? null,
      JSON.stringify(lead.fields ?? {}),
      JSON.stringify(lead.custom_fields ?? {}),
      lead.created_at ?? null,
    ],
  );
  return leadId;
}

async function insertAppointment(
  db: Queryable,
  a: { agent_id: string; lead_id: string; scheduled_at: string; status?: string; join_url?: string },
): Promise<string> {
  const appointmentId = randomUUID();
  await db.query(
    `INSERT INTO appointments (agent_id, appointment_id, lead_id, scheduled_at, appointment_timezone, status, join_url)
     VALUES ($1, $2, $3, $4, 'America/Chicago', $5, $6)`,
    [a.agent_id, appointmentId, a.lead_id, a.scheduled_at, a.status ?? 'booked', a.join_url ?? null],
  );
  return appointmentId;
}

describe('agents', () => {
  it('when an agent is created with a name and a time zone, then it answers 201 and can be read back', async () => {
    const created = await admin('POST', '/agents', { name: '  Dana Agent ', timezone: 'America/Denver' });

    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ name: 'Dana Agent', timezone: 'America/Denver' });
    const read = await admin('GET', `/agents/${String(created.body.agent_id)}`);
    expect(read.status).toBe(200);
    expect(read.body).toEqual(created.body);
  });

  it('when an agent is created without a time zone, then it gets the default one', async () => {
    const created = await admin('POST', '/agents', { name: 'No Zone' });

    expect(created.status).toBe(201);
    expect(created.body.timezone).toBe('America/New_York');
  });

  it('when the time zone is written in another case, then it is stored in its canonical spelling', async () => {
    const created = await admin('POST', '/agents', { name: 'Lower Case', timezone: 'america/chicago' });

    expect(created.body.timezone).toBe('America/Chicago');
  });
});

describe('sources', () => {
  let agentId: string;
  let sourceId: string;
  let firstToken: string;

  it('when a source is created, then the token is returned once, 36 characters, with its webhook URL', async () => {
    const agent = await admin('POST', '/agents', { name: 'Source Owner', timezone: 'America/Chicago' });
    agentId = String(agent.body.agent_id);

    const created = await admin('POST', `/agents/${agentId}/sources`, { name: 'Vendor A' });

    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ agent_id: agentId, name: 'Vendor A', active: true });
    firstToken = String(created.body.token);
    sourceId = String(created.body.source_id);
    expect(firstToken).toHaveLength(36);
    expect(created.body.webhook_url).toBe(`http://127.0.0.1:3000/v1/inbound-lead-gateway/v/${firstToken}`);
    expect(created.body).not.toHaveProperty('token_hash');
    expect(await activeSourceOf(t.db, firstToken)).toMatchObject({ source_id: sourceId });
  });

  it('when the sources of an agent are listed, then no token or token hash appears', async () => {
    const listed = await admin('GET', `/agents/${agentId}/sources`);

    expect(listed.status).toBe(200);
    const sources = listed.body.sources as Record<string, unknown>[];
    expect(sources).toHaveLength(1);
    expect(sources[0]).toMatchObject({ source_id: sourceId, name: 'Vendor A', active: true });
    expect(sources[0]).not.toHaveProperty('token');
    expect(sources[0]).not.toHaveProperty('token_hash');
    expect(listed.raw).not.toContain(firstToken);
  });

  it('when a token is regenerated, then a new token works and the old one is dead at once', async () => {
    const regenerated = await admin('POST', `/sources/${sourceId}/regenerate`);

    expect(regenerated.status).toBe(200);
    const token = String(regenerated.body.token);
    expect(regenerated.body.source_id).toBe(sourceId);
    expect(token).toHaveLength(36);
    expect(token).not.toBe(firstToken);
    expect(regenerated.body.webhook_url).toBe(`http://127.0.0.1:3000/v1/inbound-lead-gateway/v/${token}`);
    expect(await activeSourceOf(t.db, firstToken)).toBeNull();
    expect(await activeSourceOf(t.db, token)).not.toBeNull();
    firstToken = token;
  });

  it('when a source is disabled and enabled again, then its token stops and starts working', async () => {
    const disabled = await admin('PATCH', `/sources/${sourceId}`, { active: false });

    expect(disabled.status).toBe(200);
    expect(disabled.body.active).toBe(false);
    expect(await activeSourceOf(t.db, firstToken)).toBeNull();

    const enabled = await admin('PATCH', `/sources/${sourceId}`, { active: true });

    expect(enabled.body.active).toBe(true);
    expect(await activeSourceOf(t.db, firstToken)).not.toBeNull();
  });

  it('when a source is renamed and given a signing key, then the key itself is never returned', async () => {
    const patched = await admin('PATCH', `/sources/${sourceId}`, {
      name: 'Vendor A (renamed)',
      signing_key: 'sk-123',
    });

    expect(patched.status).toBe(200);
    expect(patched.body).toMatchObject({ name: 'Vendor A (renamed)', has_signing_key: true, active: true });
    expect(patched.raw).not.toContain('sk-123');
    const cleared = await admin('PATCH', `/sources/${sourceId}`, { signing_key: null });
    expect(cleared.body.has_signing_key).toBe(false);
  });

  it('when an empty patch is sent, then the source comes back unchanged', async () => {
    const before = await admin('GET', `/agents/${agentId}/sources`);

    const patched = await admin('PATCH', `/sources/${sourceId}`, {});

    expect(patched.status).toBe(200);
    expect(patched.body).toEqual((before.body.sources as unknown[])[0]);
  });
});

describe('leads', () => {
  let seeded: { agent_id: string; source_id: string };
  const ids: string[] = [];

  beforeAll(async () => {
    seeded = await seedSource(t.db, 'Lead Agent');
    const people = [
      { name: 'Alice Anders', email: 'alice@example.com', phone: '5551230001', status: 'New' },
      { name: 'Bob Brown', email: 'bob@example.com', phone: '5551230002', status: 'Scheduled' },
      { name: 'Carol 100%_Sure', email: 'carol@example.com', phone: '5551230003', status: 'New' },
      { name: 'Dan Dole', email: 'DAN@EXAMPLE.COM', phone: '5559870004', status: 'Canceled' },
      { name: 'Eve Evans', email: 'eve@example.com', phone: '5551230005', status: 'New' },
    ];
    // Microseconds apart: the cursor must not lose precision a JavaScript Date would drop.
    for (const [i, p] of people.entries()) {
      ids.push(await insertLead(t.db, { ...seeded, ...p, created_at: `2026-03-01T10:00:00.00000${i}Z` }));
    }
  });

  it('when leads are listed with a limit of 2, then three pages return every lead once, newest first', async () => {
    const seen: string[] = [];
    let cursor: string | null = null;
    let pages = 0;

    do {
      const qs: string = cursor ? `&cursor=${cursor}` : '';
      const page = await admin('GET', `/agents/${seeded.agent_id}/leads?limit=2${qs}`);
      expect(page.status).toBe(200);
      const leads = page.body.leads as { lead_id: string }[];
      expect(leads.length).toBeLessThanOrEqual(2);
      seen.push(...leads.map((l) => l.lead_id));
      cursor = page.body.next_cursor as string | null;
      pages++;
    } while (cursor && pages < 10);

    expect(pages).toBe(3);
    expect(seen).toEqual([...ids].reverse());
  });

  it('when several leads share one created_at, then pagination still returns each exactly once', async () => {
    const tie = await seedSource(t.db, 'Tie Agent');
    const tied: string[] = [];
    for (let i = 0; i < 4; i++) {
      tied.push(await insertLead(t.db, { ...tie, name: `Tie ${i}`, created_at: '2026-03-02T00:00:00Z' }));
    }

    const first = await admin('GET', `/agents/${tie.agent_id}/leads?limit=3`);
    const second = await admin(
      'GET',
      `/agents/${tie.agent_id}/leads?limit=3&cursor=${String(first.body.next_cursor)}`,
    );

    const all = [
      ...(first.body.leads as { lead_id: string }[]),
      ...(second.body.leads as { lead_id: string }[]),
    ];
    expect(all.map((l) => l.lead_id).sort()).toEqual([...tied].sort());
    expect(second.body.next_cursor).toBeNull();
  });

  it('when leads are listed without a limit, then all come back with next_cursor null', async () => {
    const listed = await admin('GET', `/agents/${seeded.agent_id}/leads`);

    expect(listed.body.leads).toHaveLength(5);
    expect(listed.body.next_cursor).toBeNull();
  });

  it('when filtered by status, then only leads with that status come back (case-insensitive)', async () => {
    const listed = await admin('GET', `/agents/${seeded.agent_id}/leads?status=new`);

    const leads = listed.body.leads as { name: string; status: string }[];
    expect(leads.map((l) => l.name)).toEqual(['Eve Evans', 'Carol 100%_Sure', 'Alice Anders']);
    expect(leads.every((l) => l.status === 'New')).toBe(true);
  });

  it.each([
    ['a name, case-insensitively', 'bob', ['Bob Brown']],
    ['an email, case-insensitively', 'dan@example', ['Dan Dole']],
    ['a phone', '5559870004', ['Dan Dole']],
    ['a phone written with punctuation', '(555) 987-0004', ['Dan Dole']],
    ['a phone written with its country code', '+1 555 987 0004', ['Dan Dole']],
    ['a part of a phone', '987-0004', ['Dan Dole']],
    ['% and _ literally', '100%_', ['Carol 100%_Sure']],
    ['nothing when _ would only match as a wildcard', 'Bob_Brown', []],
  ])('when q matches %s, then only those leads come back', async (_label, q, names) => {
    const listed = await admin('GET', `/agents/${seeded.agent_id}/leads?q=${encodeURIComponent(q)}`);

    expect(listed.status).toBe(200);
    expect((listed.body.leads as { name: string }[]).map((l) => l.name)).toEqual(names);
  });

  it('when a lead is read, then canonical fields are flat and appointments and history are in time order', async () => {
    const leadId = await insertLead(t.db, {
      ...seeded,
      name: 'Frank Fields',
      phone: '5551239999',
      status: 'Scheduled',
      fields: { state: 'TX', age: 54, tags: ['hot', 'fb'], coverage_type: 'Final Expense' },
      custom_fields: { favorite_color: 'teal' },
    });
    const later = await insertAppointment(t.db, {
      ...seeded,
      lead_id: leadId,
      scheduled_at: '2027-01-16T15:00:00Z',
    });
    const earlier = await insertAppointment(t.db, {
      ...seeded,
      lead_id: leadId,
      scheduled_at: '2027-01-15T19:30:00Z',
      status: 'rescheduled',
    });
    for (const event of ['created', 'merged']) {
      await t.db.query(
        `INSERT INTO lead_history (agent_id, history_id, lead_id, source_id, event, changes)
         VALUES ($1, $2, $3, $4, $5, $6)`,
        [seeded.agent_id, randomUUID(), leadId, seeded.source_id, event, JSON.stringify({ phone: event })],
      );
    }

    const read = await admin('GET', `/leads/${leadId}`);

    expect(read.status).toBe(200);
    expect(read.body).toMatchObject({
      lead_id: leadId,
      agent_id: seeded.agent_id,
      source_id: seeded.source_id,
      status: 'Scheduled',
      name: 'Frank Fields',
      phone: '5551239999',
      email: null,
      campaign_name: null,
      idempotency_key: null,
      state: 'TX',
      age: 54,
      tags: ['hot', 'fb'],
      coverage_type: 'Final Expense',
      zipcode: null,
      custom_fields: { favorite_color: 'teal' },
    });
    expect(read.body).not.toHaveProperty('fields');
    expect(new Date(String(read.body.created_at)).toISOString()).toBe(read.body.created_at);
    const appointments = read.body.appointments as Record<string, unknown>[];
    expect(appointments.map((a) => a.appointment_id)).toEqual([earlier, later]);
    expect(appointments[0]).toEqual({
      appointment_id: earlier,
      lead_id: leadId,
      scheduled_at: '2027-01-15T19:30:00.000Z',
      appointment_timezone: 'America/Chicago',
      schedule_type: 'appointment',
      status: 'rescheduled',
      setter_dialer_name: null,
      join_url: null,
      cancel_url: null,
      reschedule_url: null,
      external_id: null,
    });
    const history = read.body.history as Record<string, unknown>[];
    expect(history.map((h) => h.event)).toEqual(['created', 'merged']);
    expect(history[0]).toMatchObject({
      source_id: seeded.source_id,
      changes: { phone: 'created' },
      details: {},
    });
    expect(Object.keys(history[0] ?? {}).sort()).toEqual(
      ['changes', 'created_at', 'details', 'event', 'history_id', 'source_id'].sort(),
    );
  });

  it('when leads are listed, then each has the detail shape without appointments and history', async () => {
    const listed = await admin('GET', `/agents/${seeded.agent_id}/leads?q=Frank`);

    const [lead] = listed.body.leads as Record<string, unknown>[];
    expect(lead).toMatchObject({
      name: 'Frank Fields',
      state: 'TX',
      custom_fields: { favorite_color: 'teal' },
    });
    expect(lead).not.toHaveProperty('appointments');
    expect(lead).not.toHaveProperty('history');
  });
});

describe('agenda', () => {
  it('when the agenda is read for a range, then appointments in it come back in time order with names', async () => {
    const s = await seedSource(t.db, 'Agenda Agent');
    const ann = await insertLead(t.db, { ...s, name: 'Ann Agenda' });
    const ben = await insertLead(t.db, { ...s, name: 'Ben Agenda' });
    const second = await insertAppointment(t.db, {
      ...s,
      lead_id: ann,
      scheduled_at: '2027-02-02T16:00:00Z',
      join_url: 'https://meet.example/ann',
    });
    const first = await insertAppointment(t.db, { ...s, lead_id: ben, scheduled_at: '2027-02-01T16:00:00Z' });
    await insertAppointment(t.db, { ...s, lead_id: ben, scheduled_at: '2027-03-15T16:00:00Z' });

    const agenda = await admin(
      'GET',
      `/agents/${s.agent_id}/agenda?from=2027-02-01T00:00:00Z&to=2027-03-01T00:00:00Z`,
    );

    expect(agenda.status).toBe(200);
    expect(agenda.body.appointments).toEqual([
      {
        appointment_id: first,
        lead_id: ben,
        name: 'Ben Agenda',
        scheduled_at: '2027-02-01T16:00:00.000Z',
        appointment_timezone: 'America/Chicago',
        schedule_type: 'appointment',
        status: 'booked',
        setter_dialer_name: null,
        join_url: null,
        cancel_url: null,
        reschedule_url: null,
      },
      expect.objectContaining({
        appointment_id: second,
        name: 'Ann Agenda',
        join_url: 'https://meet.example/ann',
      }),
    ]);
  });

  it('when no range is given, then the next 30 days from the start of today are shown', async () => {
    const s = await seedSource(t.db, 'Default Range Agent');
    const lead = await insertLead(t.db, { ...s, name: 'Soon Lead' });
    const soon = await insertAppointment(t.db, {
      ...s,
      lead_id: lead,
      scheduled_at: new Date(Date.now() + 86_400_000).toISOString(),
    });
    await insertAppointment(t.db, {
      ...s,
      lead_id: lead,
      scheduled_at: new Date(Date.now() + 60 * 86_400_000).toISOString(),
    });
    await insertAppointment(t.db, {
      ...s,
      lead_id: lead,
      scheduled_at: new Date(Date.now() - 3 * 86_400_000).toISOString(),
    });

    const agenda = await admin('GET', `/agents/${s.agent_id}/agenda`);

    expect((agenda.body.appointments as { appointment_id: string }[]).map((a) => a.appointment_id)).toEqual([
      soon,
    ]);
  });
});

describe('samples', () => {
  it('when a source has Listen samples, then they come back newest first', async () => {
    const s = await seedSource(t.db, 'Sample Agent');
    const sampleIds: string[] = [];
    for (const [i, name] of ['Old Sample', 'New Sample'].entries()) {
      const sampleId = randomUUID();
      sampleIds.push(sampleId);
      await t.db.query(
        `INSERT INTO listen_samples (agent_id, sample_id, source_id, received_at, body, mapped, custom_fields, warnings)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`,
        [
          s.agent_id,
          sampleId,
          s.source_id,
          `2026-05-0${i + 1}T12:00:00Z`,
          JSON.stringify({ Name: name, listen: true }),
          JSON.stringify({ name }),
          JSON.stringify({}),
          JSON.stringify([{ field: 'phone', code: 'INVALID_PHONE', message: 'bad' }]),
        ],
      );
    }

    const listed = await admin('GET', `/sources/${s.source_id}/samples`);

    expect(listed.status).toBe(200);
    const samples = listed.body.samples as Record<string, unknown>[];
    expect(samples.map((x) => x.sample_id)).toEqual([...sampleIds].reverse());
    expect(samples[0]).toEqual({
      sample_id: sampleIds[1],
      received_at: '2026-05-02T12:00:00.000Z',
      listen: true,
      body: { Name: 'New Sample', listen: true },
      // Stored before body formats and refused samples were (migration 0008): listed as null.
      raw_body: null,
      body_format: null,
      mapped: { name: 'New Sample' },
      custom_fields: {},
      warnings: [{ field: 'phone', code: 'INVALID_PHONE', message: 'bad' }],
      error_code: null,
      error_details: null,
      // Stored without a preview (as samples from before automations were): listed as null.
      would_fire: null,
      would_route: null,
    });
  });

  it('when a source has no samples, then the list is empty', async () => {
    const s = await seedSource(t.db, 'Quiet Agent');

    const listed = await admin('GET', `/sources/${s.source_id}/samples`);

    expect(listed.body).toEqual({ samples: [] });
  });
});
