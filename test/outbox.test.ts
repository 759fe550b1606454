import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { recordOptOut } from '../src/automations/opt-out-repository.ts';
import { OUTBOX_TOPICS } from '../src/outbox/topics.ts';
import { createAgency, putMember } from '../src/routing/agency-repository.ts';
import { createSource } from '../src/sources/source-repository.ts';
import { adminInject, createTestApp, seedSource, type TestApp } from './support/app.ts';
import { testDispatcher } from './support/automations.ts';
import { deliver, GATEWAY } from './support/deliver.ts';
import { bookingFixtureText, type BookingFixture } from './fixtures/booking/load.ts';

const SMS_SECRET = 'outbox-sms-secret';
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ sms: { provider: 'recorder', inboundSecret: SMS_SECRET } });
});
afterAll(() => t.close());

type Src = { agent_id: string; source_id: string; token: string };
let n = 0;
const freshSource = () => seedSource(t.db, `Outbox Agent ${++n}`);

interface Message {
  topic: string;
  payload: Record<string, unknown>;
}

/** Sends one delivery and returns its answer and the outbox messages it wrote, in order. */
async function send(src: Src, body: unknown, headers: Record<string, string> = {}) {
  const before = await maxSeq(src);
  const res = await deliver(t.app, src.token, body, { headers });
  return { status: res.statusCode, body: res.json(), messages: await messagesAfter(src, before) };
}
async function sendEvent(src: Src, fixture: BookingFixture) {
  const before = await maxSeq(src);
  const res = await t.app.inject({
    method: 'POST',
    url: `${GATEWAY}/v/${src.token}`,
    headers: { 'content-type': 'application/json' },
    payload: bookingFixtureText(fixture),
  });
  return { body: res.json(), messages: await messagesAfter(src, before) };
}
async function maxSeq(src: Src): Promise<number> {
  const { rows } = await t.db.query<{ seq: number | null }>(
    'SELECT max(seq)::int AS seq FROM outbox WHERE agent_id = $1',
    [src.agent_id],
  );
  return rows[0]?.seq ?? 0;
}
/** Every message the tests saw, to check docs/outbox.md against. */
const seen: Message[] = [];
async function messagesAfter(src: Src, seq: number): Promise<Message[]> {
  const { rows } = await t.db.query<Message>(
    'SELECT topic, payload FROM outbox WHERE agent_id = $1 AND seq > $2 ORDER BY seq',
    [src.agent_id, seq],
  );
  seen.push(...rows);
  return rows;
}
async function appointmentIds(leadId: string): Promise<Record<string, string>> {
  const { rows } = await t.db.query<{ appointment_id: string; status: string; scheduled_at: Date }>(
    'SELECT appointment_id, status, scheduled_at FROM appointments WHERE lead_id = $1 ORDER BY scheduled_at',
    [leadId],
  );
  return Object.fromEntries(rows.map((r) => [r.scheduled_at.toISOString(), r.appointment_id]));
}

describe('outbox: one message per thing that happened', () => {
  it('When a plain lead is created, then lead.created with who it is', async () => {
    const src = await freshSource();
    const { body, messages } = await send(src, {
      name: 'Ola Out',
      phone: '3125550200',
      email: 'OLA@example.com',
    });
    expect(messages).toEqual([
      {
        topic: 'lead.created',
        payload: {
          lead_id: body.lead_id,
          source_id: src.source_id,
          status: 'New',
          appointment_id: null,
          scheduled_at: null,
          name: 'Ola Out',
          phone: '3125550200',
          email: 'ola@example.com',
        },
      },
    ]);
  });

  it('When a lead comes with an appointment, then lead.created and appointment.booked name the same appointment', async () => {
    const src = await freshSource();
    const { body, messages } = await send(src, {
      name: 'Bo Booked',
      phone: '3125550201',
      scheduled_at: '2027-04-01T15:00:00Z',
    });
    const [appointmentId] = Object.values(await appointmentIds(body.lead_id));
    expect(messages.map((m) => m.topic)).toEqual(['lead.created', 'appointment.booked']);
    expect(messages[0]?.payload).toMatchObject({
      appointment_id: appointmentId,
      scheduled_at: '2027-04-01T15:00:00.000Z',
      status: 'Scheduled',
    });
    expect(messages[1]?.payload).toEqual({
      appointment_id: appointmentId,
      lead_id: body.lead_id,
      source_id: src.source_id,
      scheduled_at: '2027-04-01T15:00:00.000Z',
      external_id: null,
    });
  });

  it('When a contact is resent with a new time, then lead.updated, the old appointment rescheduled (replaced by the new) and the new booked', async () => {
    const src = await freshSource();
    const first = await send(src, {
      name: 'Re Sched',
      phone: '3125550202',
      scheduled_at: '2027-04-01T15:00:00Z',
    });
    const again = await send(src, {
      name: 'Re Sched',
      phone: '3125550202',
      scheduled_at: '2027-04-01T15:00:00Z',
      city: 'Chicago',
    });
    expect(again.messages).toEqual([
      expect.objectContaining({
        topic: 'lead.updated',
        payload: expect.objectContaining({ changed_fields: ['city'], status_from: 'Scheduled' }),
      }),
    ]);
    const moved = await send(src, {
      name: 'Re Sched',
      phone: '3125550202',
      scheduled_at: '2027-04-02T15:00:00Z',
    });
    const ids = await appointmentIds(first.body.lead_id);
    const oldId = ids['2027-04-01T15:00:00.000Z'];
    const newId = ids['2027-04-02T15:00:00.000Z'];
    expect(moved.messages.map((m) => [m.topic, m.payload.appointment_id])).toEqual([
      ['lead.updated', newId],
      ['appointment.rescheduled', oldId],
      ['appointment.booked', newId],
    ]);
    expect(moved.messages[1]?.payload).toMatchObject({
      replaced_by: newId,
      scheduled_at: '2027-04-01T15:00:00.000Z',
    });
  });

  it('When a scheduler books, cancels, and a no-show is reported and removed, then each says so', async () => {
    const src = await freshSource();
    const booked = await sendEvent(src, 'invitee-created-questionnaire');
    expect(booked.messages.map((m) => m.topic)).toEqual(['lead.created', 'appointment.booked']);
    expect(booked.messages[1]?.payload.external_id).toMatch(/^https:\/\/api\.calendly\.com\//);

    const noShow = await sendEvent(src, 'invitee-no-show-created');
    expect(noShow.messages.map((m) => m.topic)).toEqual(['appointment.no_show']);
    expect((await sendEvent(src, 'invitee-no-show-created')).messages).toEqual([]); // nothing changed
    const removed = await sendEvent(src, 'invitee-no-show-deleted');
    expect(removed.messages.map((m) => m.topic)).toEqual(['appointment.no_show_removed']);
    expect(removed.messages[0]?.payload.appointment_id).toBe(booked.messages[1]?.payload.appointment_id);
  });

  it('When a scheduler cancels, then lead.updated and appointment.canceled with the reason; a reschedule says rescheduled', async () => {
    const src = await freshSource();
    await sendEvent(src, 'invitee-created');
    const canceled = await sendEvent(src, 'invitee-canceled');
    expect(canceled.messages.map((m) => m.topic)).toEqual(['lead.updated', 'appointment.canceled']);
    expect(canceled.messages[0]?.payload).toMatchObject({
      status: 'Canceled',
      status_from: 'Scheduled',
      appointment_id: null,
    });
    expect(canceled.messages[1]?.payload).toMatchObject({ reason: 'Found a policy through my credit union' });

    const other = await freshSource();
    await sendEvent(other, 'invitee-created');
    const moved = await sendEvent(other, 'invitee-canceled-rescheduled');
    expect(moved.messages.map((m) => m.topic)).toContain('appointment.rescheduled');
  });

  it('When a cancel arrives before its booking, then the meeting is recorded canceled once, and the late booking changes no appointment', async () => {
    const src = await freshSource();
    const cancel = await sendEvent(src, 'invitee-canceled');
    expect(cancel.messages.map((m) => m.topic)).toEqual(['lead.created', 'appointment.canceled']);
    const late = await sendEvent(src, 'invitee-created');
    expect(late.messages.map((m) => m.topic)).toEqual(['lead.updated']);
    expect(late.messages[0]?.payload).toMatchObject({
      status: 'Canceled',
      appointment_id: cancel.messages[1]?.payload.appointment_id,
    });
  });

  it('When a delivery is a replay, a Listen sample or refused, then nothing is written', async () => {
    const src = await freshSource();
    const lead = { name: 'Kay Quiet', phone: '3125550203' };
    expect((await send(src, lead, { 'idempotency-key': 'quiet-1' })).messages).toHaveLength(1);
    expect((await send(src, lead, { 'idempotency-key': 'quiet-1' })).messages).toEqual([]);
    expect((await send(src, { ...lead, listen: true })).messages).toEqual([]);
    expect((await send(src, { phone: '3125550204' })).messages).toEqual([]);
    expect(
      (await send(src, { name: 'Other', phone: '3125550999' }, { 'idempotency-key': 'quiet-1' })).status,
    ).toBe(422);
    expect(await maxSeq(src)).toBeGreaterThan(0);
    expect((await sendEvent(src, 'routing-form-submission-created')).messages).toEqual([]);
  });
});

describe('outbox: a lead of an agency moved on', () => {
  it('When the claim timer moves a lead, then lead.reassigned under the new producer', async () => {
    const boss = await seedSource(t.db, 'Outbox Boss');
    const producers = [await seedSource(t.db, 'Outbox P1'), await seedSource(t.db, 'Outbox P2')];
    const agency = await createAgency(t.db, {
      name: 'Outbox Agency',
      fallback_agent_id: boss.agent_id,
      timezone: 'America/Chicago',
      claim_minutes: 1,
    });
    for (const p of producers) {
      await putMember(t.db, agency.agency_id, p.agent_id, {
        licensed_states: ['IL'],
        weight: 1,
        daily_cap: null,
        active: true,
      });
    }
    const { source, token } = await createSource(
      t.db,
      boss.agent_id,
      'Outbox agency source',
      agency.agency_id,
    );
    const res = await deliver(t.app, token, { name: 'Moving Mo', phone: '3125550299', state: 'IL' });
    const first = res.json<{ lead_id: string; agent_id: string }>();
    const to = producers.find((p) => p.agent_id !== first.agent_id) ?? boss;
    const before = await maxSeq(to);
    const later = testDispatcher(t.db, [0], { now: () => new Date(Date.now() + 2 * 24 * 3600_000) });
    expect((await later.runOnce()).reassigned).toBe(1);
    const messages = (await messagesAfter(to, before)).filter((m) => m.topic === 'lead.reassigned');
    expect(messages).toEqual([
      {
        topic: 'lead.reassigned',
        payload: {
          lead_id: first.lead_id,
          source_id: source.source_id,
          from_agent_id: first.agent_id,
          agent_id: to.agent_id,
          rule: 'reassigned',
        },
      },
    ]);
  });
});

describe('outbox: a number opted out', () => {
  it('When a prospect revokes consent, then lead.opted_out for the lead, under its agent', async () => {
    const src = await freshSource();
    const lead = (await send(src, { name: 'Opting Olive', phone: '3125550298' })).body.lead_id as string;
    const before = await maxSeq(src);
    await t.db.withTransaction((tx) =>
      recordOptOut(tx, '3125550298', { by: 'words', phrase: 'stop texting', language: 'en' }, new Date(), {
        words: 'stop texting me',
        confirmation: 'ours',
      }),
    );
    expect(await messagesAfter(src, before)).toEqual([
      {
        topic: 'lead.opted_out',
        payload: {
          lead_id: lead,
          source_id: src.source_id,
          phone: '3125550298',
          by: 'words',
          words: 'stop texting',
          opted_out_at: expect.any(String),
        },
      },
    ]);
  });
});
describe('outbox: a prospect texts', () => {
  it('When a prospect’s text reaches a lead, then lead.replied with the message, under its agent', async () => {
    const src = await freshSource();
    const lead = (await send(src, { name: 'Replying Ray', phone: '3125550297' })).body.lead_id as string;
    const before = await maxSeq(src);
    const res = await t.app.inject({
      method: 'POST',
      url: '/v1/sms/inbound',
      headers: { 'content-type': 'application/json', 'x-sms-secret': SMS_SECRET },
      payload: JSON.stringify({ from: '3125550297', body: 'Yes, call me' }),
    });
    expect(await messagesAfter(src, before)).toEqual([
      {
        topic: 'lead.replied',
        payload: {
          lead_id: lead,
          source_id: src.source_id,
          intent: 'reply',
          message: { message_id: res.json().message_id, body: 'Yes, call me', at: expect.any(String) },
        },
      },
    ]);
  });
});

describe('outbox: what a lead cost and earned', () => {
  it('When a lead is returned, credited and sold, then lead.returned twice and lead.sold, under its agent', async () => {
    const src = await freshSource();
    await adminInject(t.app, 'PATCH', `/sources/${src.source_id}`, { price_cents: 1_500 });
    const { body } = await send(src, { name: 'Rita Return', phone: '3125550290', state: 'WI' });
    const before = await maxSeq(src);
    const made = (
      await adminInject(t.app, 'POST', `/leads/${body.lead_id}/returns`, { reason: 'out_of_area' })
    ).json<{ return_id: string }>();
    await adminInject(t.app, 'PATCH', `/returns/${made.return_id}`, { status: 'credited' });
    const sale = (
      await adminInject(t.app, 'POST', `/leads/${body.lead_id}/sales`, { premium_cents: 90_000 })
    ).json<{ sale_id: string; sold_at: string }>();
    const returned = {
      lead_id: body.lead_id,
      source_id: src.source_id,
      return_id: made.return_id,
      reason: 'out_of_area',
      price_cents: 1_500,
      evidence: { dial_attempts: 0, calls: [], state: 'WI' },
      note: null,
    };
    expect(await messagesAfter(src, before)).toEqual([
      { topic: 'lead.returned', payload: { ...returned, status: 'requested' } },
      { topic: 'lead.returned', payload: { ...returned, status: 'credited' } },
      {
        topic: 'lead.sold',
        payload: {
          lead_id: body.lead_id,
          source_id: src.source_id,
          sale_id: sale.sale_id,
          premium_cents: 90_000,
          product: null,
          sold_at: sale.sold_at,
        },
      },
    ]);
  });
});

describe('docs/outbox.md', () => {
  const doc = readFileSync(new URL('../docs/outbox.md', import.meta.url), 'utf8');
  const sections = new Map(
    doc
      .split(/^### /m)
      .slice(1)
      .map((section) => [/^`([^`]+)`/.exec(section)?.[1] ?? '', section] as const),
  );
  /** A topic's documented fields; `optional`: those whose type says when they are absent. */
  const fieldsOf = (topic: string, which: 'always' | 'optional' = 'always'): string[] => {
    const section = sections.get(topic) ?? '';
    const own = [...section.matchAll(/^\| `([a-z_]+)` *\| ([^|]*)\|/gm)]
      .filter((m) => (which === 'optional') === /absent/.test(m[2] ?? ''))
      .map((m) => m[1] ?? '');
    return section.includes('The fields of `appointment.booked`')
      ? [...fieldsOf('appointment.booked', which), ...own]
      : own;
  };

  it('When the topics are listed, then each has its section, and every message the tests saw has exactly the documented fields', () => {
    expect([...sections.keys()]).toEqual([...OUTBOX_TOPICS]);
    const topicsSeen = new Set(seen.map((m) => m.topic));
    expect([...topicsSeen].sort()).toEqual([...OUTBOX_TOPICS].sort());
    for (const message of seen) {
      expect(Object.keys(message.payload).sort(), message.topic).toEqual(fieldsOf(message.topic).sort());
    }
  });

  it('When a field is documented as absent for a delivery, then no delivery’s message had it, and it is `action`', () => {
    expect(fieldsOf('lead.updated', 'optional')).toEqual(['action']);
    expect(seen.some((m) => 'action' in m.payload)).toBe(false);
  });
});
