import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_KEY, createTestApp, seedSource, type TestApp } from './support/app.ts';
import { countRows, deliver, deliverInParallel } from './support/deliver.ts';
import { loadLead } from './support/lead-rows.ts';

let t: TestApp;
let src: { agent_id: string; source_id: string; token: string };
let baseUrl: string;

beforeAll(async () => {
  t = await createTestApp();
  src = await seedSource(t.db);
  baseUrl = await t.app.listen({ port: 0, host: '127.0.0.1' });
});
afterAll(() => t.close());

async function leadDetail(leadId: string) {
  const res = await t.app.inject({
    method: 'GET',
    url: `/v1/admin/leads/${leadId}`,
    headers: { authorization: `Bearer ${ADMIN_KEY}` },
  });
  return res.json() as Record<string, unknown> & {
    history: Array<{
      event: string;
      changes: Record<string, { from: unknown; to: unknown }>;
      details: Record<string, unknown>;
    }>;
    appointments: Array<{ appointment_id: string; status: string; scheduled_at: string }>;
  };
}

describe('recognising a repeat contact', () => {
  it('when the same phone comes again in another format, then the lead is merged with resubmit: true', async () => {
    const first = (
      await deliver(t.app, src.token, { name: 'Pat Phone', phone: '(214) 555-0900', city: 'Dallas' })
    ).json();
    const again = await deliver(t.app, src.token, {
      name: 'Pat Phone',
      phone: '214.555.0900',
      city: 'Plano',
    });
    expect(again.statusCode).toBe(200);
    expect(again.json()).toMatchObject({
      success: true,
      message: 'Lead updated',
      lead_id: first.lead_id,
      resubmit: true,
      status: 'New',
    });
    expect(await countRows(t.db, 'leads', "name = 'Pat Phone'")).toBe(1);
    const detail = await leadDetail(first.lead_id);
    expect(detail.city).toBe('Plano');
    const merge = detail.history.find((h) => h.event === 'merged');
    expect(merge?.changes.city).toEqual({ from: 'Dallas', to: 'Plano' });
  });

  it('when the same email comes again in another case, then the lead is merged', async () => {
    const first = (await deliver(t.app, src.token, { name: 'Em Mail', email: 'em.mail@example.com' })).json();
    const again = (
      await deliver(t.app, src.token, {
        name: 'Em Mail',
        email: ' EM.Mail@Example.COM ',
        phone: '2145550901',
      })
    ).json();
    expect(again).toMatchObject({ lead_id: first.lead_id, resubmit: true });
    const stored = await loadLead(t.db, first.lead_id);
    expect(stored?.phone).toBe('2145550901');
    const byNewPhone = (await deliver(t.app, src.token, { first_name: 'Em', phone: '2145550901' })).json();
    expect(byNewPhone.lead_id).toBe(first.lead_id);
  });

  it('when another agent receives the same contact, then it is never merged across agents', async () => {
    const other = await seedSource(t.db, 'Agent Elsewhere');
    const a = (await deliver(t.app, src.token, { name: 'Cross Agent', phone: '2145550902' })).json();
    const b = (await deliver(t.app, other.token, { name: 'Cross Agent', phone: '2145550902' })).json();
    expect(b.resubmit).toBeUndefined();
    expect(b.lead_id).not.toBe(a.lead_id);
    expect(b.message).toBe('Lead created');
  });

  it('when two sources of one agent deliver the same contact, then they merge', async () => {
    const second = await t.app.inject({
      method: 'POST',
      url: `/v1/admin/agents/${src.agent_id}/sources`,
      headers: { authorization: `Bearer ${ADMIN_KEY}` },
      payload: { name: 'Second source' },
    });
    const token = second.json().token as string;
    const a = (await deliver(t.app, src.token, { name: 'Two Sources', email: 'two@example.com' })).json();
    const b = (await deliver(t.app, token, { name: 'Two Sources', email: 'two@example.com' })).json();
    expect(b).toMatchObject({ lead_id: a.lead_id, resubmit: true });
  });
});

describe('merge rules', () => {
  it('when values come again, then non-empty overwrite, empty never erase, tags unite, notes append, custom_fields merge', async () => {
    const first = (
      await deliver(t.app, src.token, {
        name: 'Rule Ruth',
        phone: '2145550910',
        email: 'ruth@example.com',
        occupation: 'Nurse',
        tags: ['fe', 'hot'],
        notes: 'First call went well',
        custom_fields: { setter_id: 'S1', keep: 'me' },
      })
    ).json();
    await deliver(t.app, src.token, {
      name: 'Rule Ruth',
      phone: '2145550910',
      email: '',
      occupation: 'Retired',
      tags: 'hot, vip',
      notes: 'Wants a quote for 25k',
      custom_fields: { setter_id: 'S2', extra: 1 },
    });
    const stored = await loadLead(t.db, first.lead_id);
    expect(stored).toMatchObject({
      email: 'ruth@example.com',
      occupation: 'Retired',
      tags: ['fe', 'hot', 'vip'],
    });
    expect(stored?.notes).toMatch(
      /^First call went well\n\n--- \d{4}-\d{2}-\d{2} ---\nWants a quote for 25k$/,
    );
    expect(stored?.custom_fields).toEqual({ setter_id: 'S2', keep: 'me', extra: 1 });
    const merge = (await leadDetail(first.lead_id)).history.find((h) => h.event === 'merged');
    expect(merge?.changes).toMatchObject({
      occupation: { from: 'Nurse', to: 'Retired' },
      tags: { from: ['fe', 'hot'], to: ['fe', 'hot', 'vip'] },
      'custom_fields.setter_id': { from: 'S1', to: 'S2' },
      'custom_fields.extra': { from: null, to: 1 },
    });
    expect(merge?.changes).not.toHaveProperty('email');
  });

  it('when the phone matches one lead and the email another, then the email’s lead gets the merge', async () => {
    const byPhone = (await deliver(t.app, src.token, { name: 'Phone Owner', phone: '2145550920' })).json();
    const byEmail = (
      await deliver(t.app, src.token, { name: 'Email Owner', email: 'owner@example.com' })
    ).json();
    const res = (
      await deliver(t.app, src.token, { name: 'Both', phone: '2145550920', email: 'owner@example.com' })
    ).json();
    expect(res.lead_id).toBe(byEmail.lead_id);
    expect(res.lead_id).not.toBe(byPhone.lead_id);
  });
});

describe('status transitions on a resubmit', () => {
  const phone = (n: number) => `21455509${String(n).padStart(2, '0')}`;

  it('when New is resubmitted without an appointment, then it stays New; with one, it becomes Scheduled', async () => {
    const a = (await deliver(t.app, src.token, { name: 'Stay New', phone: phone(30) })).json();
    expect((await deliver(t.app, src.token, { name: 'Stay New', phone: phone(30) })).json().status).toBe(
      'New',
    );
    const b = (
      await deliver(t.app, src.token, {
        name: 'Stay New',
        phone: phone(30),
        scheduled_at: '2027-07-01T15:00:00Z',
      })
    ).json();
    expect(b).toMatchObject({
      lead_id: a.lead_id,
      status: 'Scheduled',
      resubmit: true,
      scheduled_at: '2027-07-01T15:00:00.000Z',
    });
  });

  it('when a Scheduled contact gets a new time, then the open appointment becomes rescheduled and the new one is booked', async () => {
    const a = (
      await deliver(t.app, src.token, {
        name: 'Re Schedule',
        phone: phone(31),
        scheduled_at: '2027-07-02T15:00:00Z',
      })
    ).json();
    const plain = (await deliver(t.app, src.token, { name: 'Re Schedule', phone: phone(31) })).json();
    expect(plain.status).toBe('Scheduled');
    const same = (
      await deliver(t.app, src.token, {
        name: 'Re Schedule',
        phone: phone(31),
        scheduled_at: '2027-07-02T15:00:00Z',
      })
    ).json();
    expect(same.status).toBe('Scheduled');
    expect(await countRows(t.db, 'appointments', 'lead_id = $1', [a.lead_id])).toBe(1);
    await deliver(t.app, src.token, {
      name: 'Re Schedule',
      phone: phone(31),
      scheduled_at: '2027-07-03T15:00:00Z',
    });
    const detail = await leadDetail(a.lead_id);
    expect(detail.appointments.map((x) => [x.scheduled_at, x.status])).toEqual([
      ['2027-07-02T15:00:00.000Z', 'rescheduled'],
      ['2027-07-03T15:00:00.000Z', 'booked'],
    ]);
    expect(detail.status).toBe('Scheduled');
  });

  it('when a Canceled contact is resubmitted, then it returns to New, or Scheduled with a time', async () => {
    const a = (await deliver(t.app, src.token, { name: 'Came Back', phone: phone(32) })).json();
    await t.db.query(`UPDATE leads SET status = 'Canceled' WHERE lead_id = $1`, [a.lead_id]);
    expect((await deliver(t.app, src.token, { name: 'Came Back', phone: phone(32) })).json().status).toBe(
      'New',
    );
    await t.db.query(`UPDATE leads SET status = 'Canceled' WHERE lead_id = $1`, [a.lead_id]);
    const b = (
      await deliver(t.app, src.token, {
        name: 'Came Back',
        phone: phone(32),
        scheduled_at: '2027-07-04T15:00:00Z',
      })
    ).json();
    expect(b.status).toBe('Scheduled');
    const merges = (await leadDetail(a.lead_id)).history.filter((h) => h.event === 'merged');
    expect(merges.map((h) => [h.details.status_from, h.details.status_to])).toEqual([
      ['Canceled', 'New'],
      ['Canceled', 'Scheduled'],
    ]);
  });
});

describe('simultaneous first deliveries', () => {
  it('when 20 first deliveries of one contact arrive at once (no idempotency key), then exactly one lead', async () => {
    const results = await deliverInParallel([baseUrl], src.token, 20, (i) => ({
      name: 'Rush Hour',
      phone: '(214) 555-0950',
      email: i % 2 ? 'rush@example.com' : undefined,
      tags: [`t${i}`],
    }));
    expect(results.map((r) => r.status)).toEqual(Array(20).fill(200));
    expect(new Set(results.map((r) => r.body.lead_id)).size).toBe(1);
    expect(results.filter((r) => r.body.resubmit !== true)).toHaveLength(1);
    expect(await countRows(t.db, 'leads', "phone = '2145550950'")).toBe(1);
    const stored = await loadLead(t.db, String(results[0]?.body.lead_id));
    expect((stored?.tags as string[]).sort()).toEqual(Array.from({ length: 20 }, (_, i) => `t${i}`).sort());
  });
});
