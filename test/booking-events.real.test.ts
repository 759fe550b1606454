import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { JsonObject } from '../src/json.ts';
import { adminInject, createTestApp, seedSource, type TestApp } from './support/app.ts';
import { countRows, GATEWAY } from './support/deliver.ts';
import { bookingFixtureText, loadBookingFixture, type BookingFixture } from './fixtures/booking/load.ts';

/**
 * Scheduler events as schedulers really send them: the no-show webhook whose payload is the
 * Invitee itself, nameless invitees, a reschedule's cancel that arrives after the new booking,
 * hosts known only by email, phone meetings, and the older (API v1) payload generation.
 */

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

type Src = { agent_id: string; source_id: string; token: string };
let n = 0;
const freshSource = () => seedSource(t.db, `Real Scheduler Agent ${++n}`);

function post(src: Src, body: string | object) {
  return t.app.inject({
    method: 'POST',
    url: `${GATEWAY}/v/${src.token}`,
    headers: { 'content-type': 'application/json' },
    payload: typeof body === 'string' ? body : JSON.stringify(body),
  });
}
const send = (src: Src, fixture: BookingFixture) => post(src, bookingFixtureText(fixture));
const admin = (url: string) => adminInject(t.app, 'GET', url);
const payloadOf = (body: JsonObject) => body.payload as Record<string, unknown>;
const uriOf = (fixture: BookingFixture): string => {
  const payload = payloadOf(loadBookingFixture(fixture));
  const invitee = (payload.invitee ?? payload) as Record<string, unknown>;
  return invitee.uri as string;
};

interface Appt {
  external_id: string;
  status: string;
  scheduled_at: string;
  setter_dialer_name: string | null;
  join_url: string | null;
  cancel_url: string | null;
}
type LeadDetail = Record<string, unknown> & {
  status: string;
  notes: string | null;
  appointments: Appt[];
  history: Array<{ event: string; details: Record<string, unknown> }>;
  custom_fields: Record<string, unknown>;
};
async function lead(leadId: string): Promise<LeadDetail> {
  const res = await admin(`/leads/${leadId}`);
  expect(res.statusCode).toBe(200);
  return res.json() as LeadDetail;
}
/** What an agent reads on the lead, without the bookkeeping that changes on every write. */
function fieldsOf(detail: LeadDetail): Record<string, unknown> {
  const { updated_at: _u, appointments: _a, history: _h, ...rest } = detail;
  return rest;
}
const statusByInvitee = (appointments: Appt[]) =>
  Object.fromEntries(appointments.map((a) => [a.external_id, a.status]));
async function eventLog(src: Src) {
  const res = await admin(`/sources/${src.source_id}/events`);
  return (res.json().events as Array<Record<string, unknown>>).map((e) => [e.event, e.outcome]);
}

describe('invitee_no_show.* with the Invitee as payload (payload.uri is the invitee)', () => {
  it('when the Invitee payload also names the invitee in payload.invitee, or the no-show resource names it, then both find the appointment', async () => {
    const src = await freshSource();
    const created = (await send(src, 'invitee-created-questionnaire')).json();
    const both = loadBookingFixture('invitee-no-show-created-invitee');
    payloadOf(both).invitee = uriOf('invitee-created-questionnaire');
    expect((await post(src, both)).json()).toMatchObject({ message: 'Appointment marked no-show' });
    // The older shape still works: payload.uri is the no-show's own uri, payload.invitee the invitee.
    expect((await send(src, 'invitee-no-show-deleted')).json()).toMatchObject({
      lead_id: created.lead_id,
      message: 'No-show removed',
    });
  });

  it('when the Invitee payload names an invitee never seen, then 200 ignored, recorded under that invitee', async () => {
    const src = await freshSource();
    const res = await send(src, 'invitee-no-show-created-invitee');
    expect(res.json()).toEqual({ success: true, message: 'Event ignored', ignored: true });
    const events = (await admin(`/sources/${src.source_id}/events`)).json().events as Array<
      Record<string, unknown>
    >;
    expect(events.map((e) => [e.outcome, e.invitee_uri])).toEqual([
      ['ignored_unknown_invitee', uriOf('invitee-no-show-created-invitee')],
    ]);
  });
});

describe('a null or blank value never overwrites a stored one', () => {
  it('when a cancel carries "name": null, then the stored name stays (not replaced by the email)', async () => {
    const src = await freshSource();
    const created = (await send(src, 'invitee-created')).json();
    const before = await lead(created.lead_id);
    const res = await send(src, 'invitee-canceled-no-name');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ lead_id: created.lead_id, status: 'Canceled' });
    const after = await lead(created.lead_id);
    expect(after).toMatchObject({
      name: 'Maria Gonzalez',
      first_name: before.first_name,
      last_name: before.last_name,
      phone: '3125550148',
      email: 'maria.gonzalez@example.com',
    });
    const changes = after.history.find((h) => h.event === 'merged') as unknown as {
      changes: Record<string, unknown>;
    };
    expect(Object.keys(changes.changes)).not.toEqual(
      expect.arrayContaining([expect.stringMatching(/^(name|first_name|last_name|phone|email)$/)]),
    );
  });

  it.each<[string, (payload: Record<string, unknown>) => void]>([
    [
      'null identity and links (recognised by email)',
      (p) => {
        for (const key of ['name', 'first_name', 'last_name', 'text_reminder_number', 'cancel_url'])
          p[key] = null;
        p.reschedule_url = null;
        (p.scheduled_event as Record<string, unknown>).location = null;
      },
    ],
    [
      'blank identity and links (recognised by email)',
      (p) => {
        for (const key of ['name', 'first_name', 'last_name', 'text_reminder_number', 'cancel_url'])
          p[key] = '  ';
        p.reschedule_url = '';
        (p.scheduled_event as Record<string, unknown>).location = { type: 'zoom', join_url: ' ' };
      },
    ],
    [
      'no email and no name (recognised by phone)',
      (p) => {
        p.name = null;
        p.email = null;
        p.cancel_url = null;
      },
    ],
  ])(
    'when a later event carries %s, then name, first/last name, phone, email and links stay',
    async (_label, mutate) => {
      const src = await freshSource();
      const first = loadBookingFixture('invitee-created');
      Object.assign(payloadOf(first), { first_name: 'Maria', last_name: 'Gonzalez' });
      const created = (await post(src, first)).json();
      const before = await lead(created.lead_id);

      const update = loadBookingFixture('invitee-created');
      mutate(payloadOf(update));
      const res = await post(src, { ...update, event: 'invitee.canceled' });
      expect(res.statusCode).toBe(200);
      expect(res.json().lead_id).toBe(created.lead_id);
      const after = await lead(created.lead_id);
      for (const field of ['name', 'first_name', 'last_name', 'phone', 'email']) {
        expect(after[field], field).toEqual(before[field]);
      }
      for (const link of ['cancel_url', 'reschedule_url', 'join_url']) {
        expect(after.custom_fields[link], link).toEqual(before.custom_fields[link]);
      }
      expect(after.name).toBe('Maria Gonzalez');
    },
  );

  it('when a nameless cancel is the first the gateway hears of the contact, then the new lead is named by the email', async () => {
    const src = await freshSource();
    const res = (await send(src, 'invitee-canceled-no-name')).json();
    expect(res.status).toBe('Canceled');
    expect((await lead(res.lead_id)).name).toBe('Maria.Gonzalez@example.com');
  });
});

describe('a reschedule: the old invitee never overwrites the new one', () => {
  const OLD = 'invitee-created-nested';
  const CANCEL = 'invitee-canceled-rescheduled';
  const NEW = 'invitee-created-rescheduled';
  const NEW_LINKS = {
    cancel_url: 'https://calendly.com/cancellations/6a84e70e-1da9-498b-935a-993c4ec99469',
    reschedule_url: 'https://calendly.com/reschedulings/6a84e70e-1da9-498b-935a-993c4ec99469',
    join_url: 'https://meet.google.com/hzw-pqcj-tbn',
  };
  const OLD_TIME = '2027-02-03 15:00 UTC';

  it('when the cancel of the old invitee arrives after the new booking, then it only closes the old appointment', async () => {
    const src = await freshSource();
    await send(src, OLD);
    const booked = (await send(src, NEW)).json();
    const before = await lead(booked.lead_id);
    expect(before.custom_fields).toMatchObject(NEW_LINKS);

    const res = await send(src, CANCEL);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      lead_id: booked.lead_id,
      status: 'Scheduled',
      message: 'Appointment rescheduled',
    });
    const after = await lead(booked.lead_id);
    expect(fieldsOf(after)).toEqual(fieldsOf(before));
    expect(after.custom_fields).toMatchObject(NEW_LINKS);
    expect(String(after.notes).split('\n--- ').length).toBe(String(before.notes).split('\n--- ').length);
    expect(statusByInvitee(after.appointments)).toEqual({
      [uriOf(OLD)]: 'rescheduled',
      [uriOf(NEW)]: 'booked',
    });
    expect(after.history.filter((h) => h.event === 'appointment_rescheduled')).toEqual([
      expect.objectContaining({
        details: expect.objectContaining({ invitee_uri: uriOf(OLD), new_invitee: uriOf(NEW) }),
      }),
    ]);
    expect(after.history.filter((h) => h.event === 'merged')).toHaveLength(
      before.history.filter((h) => h.event === 'merged').length,
    );
    expect((await eventLog(src))[0]).toEqual(['invitee.canceled', 'appointment_rescheduled']);
  });

  it('when the new booking came first and the old invitee cancels, and then books late, then the lead keeps the new links and notes', async () => {
    const src = await freshSource();
    const booked = (await send(src, NEW)).json();
    const before = await lead(booked.lead_id);
    for (const fixture of [CANCEL, OLD] as const) {
      const res = await send(src, fixture);
      expect(res.statusCode, fixture).toBe(200);
      expect(res.json().lead_id).toBe(booked.lead_id);
    }
    const after = await lead(booked.lead_id);
    expect(fieldsOf(after)).toEqual(fieldsOf(before));
    expect(String(after.notes)).not.toContain(OLD_TIME);
    expect(statusByInvitee(after.appointments)).toEqual({
      [uriOf(OLD)]: 'rescheduled',
      [uriOf(NEW)]: 'booked',
    });
    // The late booking of the replaced invitee changed nothing: the agent's log says so.
    expect(await eventLog(src)).toEqual([
      ['invitee.created', 'ignored'],
      ['invitee.canceled', 'appointment_rescheduled'],
      ['invitee.created', 'lead_created'],
    ]);
  });

  it('when the new booking names the old invitee (old_invitee), then the old appointment is rescheduled at once', async () => {
    const src = await freshSource();
    await send(src, OLD);
    const booked = (await send(src, NEW)).json();
    expect(booked.status).toBe('Scheduled');
    const detail = await lead(booked.lead_id);
    expect(statusByInvitee(detail.appointments)).toEqual({
      [uriOf(OLD)]: 'rescheduled',
      [uriOf(NEW)]: 'booked',
    });
    const oldId = detail.appointments.find((a) => a.external_id === uriOf(OLD)) as unknown as {
      appointment_id: string;
    };
    expect(detail.history.find((h) => h.event === 'merged')?.details).toMatchObject({
      rescheduled_appointment_ids: [oldId.appointment_id],
    });
  });

  it('when the cancel comes first and the new booking after it, then the lead ends with the new links', async () => {
    const src = await freshSource();
    await send(src, OLD);
    await send(src, CANCEL);
    const booked = (await send(src, NEW)).json();
    const after = await lead(booked.lead_id);
    expect(after.custom_fields).toMatchObject(NEW_LINKS);
    expect(after.status).toBe('Scheduled');
    expect(statusByInvitee(after.appointments)).toEqual({
      [uriOf(OLD)]: 'rescheduled',
      [uriOf(NEW)]: 'booked',
    });
  });

  it('when the new booking was canceled in the meantime, then the late cancel of the old one does not revive the lead', async () => {
    const src = await freshSource();
    await send(src, OLD);
    const booked = (await send(src, NEW)).json();
    const newCancel = loadBookingFixture(NEW);
    newCancel.event = 'invitee.canceled';
    Object.assign(payloadOf(newCancel), {
      status: 'canceled',
      cancellation: { canceled_by: "James O'Connor", reason: 'Changed my mind', canceler_type: 'invitee' },
    });
    expect((await post(src, newCancel)).json().status).toBe('Canceled');
    const before = await lead(booked.lead_id);

    const res = (await send(src, CANCEL)).json();
    expect(res.status).toBe('Canceled');
    const after = await lead(booked.lead_id);
    expect(fieldsOf(after)).toEqual(fieldsOf(before));
    expect(statusByInvitee(after.appointments)).toEqual({
      [uriOf(OLD)]: 'rescheduled',
      [uriOf(NEW)]: 'canceled',
    });
  });
});

describe('hosts and phone meetings', () => {
  it('when the host has only an email and the meeting is an outbound call, then the setter is the email and the phone the call number', async () => {
    const src = await freshSource();
    const res = await send(src, 'invitee-created-host-email-only');
    expect(res.statusCode).toBe(200);
    const detail = await lead(res.json().lead_id);
    expect(detail).toMatchObject({
      name: 'Robert Kim',
      phone: '7025550163',
      setter_dialer_name: 'sofia.reyes@summitlife.example',
      body_format: 'calendly',
    });
    expect(detail.custom_fields).toMatchObject({
      location_type: 'outbound_call',
      location: '+1 702-555-0163',
    });
    expect(detail.appointments).toEqual([
      expect.objectContaining({ setter_dialer_name: 'sofia.reyes@summitlife.example', status: 'booked' }),
    ]);
    expect(String(detail.notes)).toContain('Host: sofia.reyes@summitlife.example');
  });

  it('when an outbound call also has a text reminder number, then the reminder number is the phone', async () => {
    const src = await freshSource();
    const body = loadBookingFixture('invitee-created-host-email-only');
    payloadOf(body).text_reminder_number = '+1 602 555 0111';
    const detail = await lead((await post(src, body)).json().lead_id);
    expect(detail.phone).toBe('6025550111');
  });
});

describe('Calendly API v1 payloads', () => {
  const V1_KEY = 'calendly-v1:EVBR5KD2QW8MZLXN';

  it('when a v1 invitee.created arrives, then a Scheduled lead with its appointment, host and answers', async () => {
    const src = await freshSource();
    const res = await send(src, 'v1-invitee-created');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      message: 'Lead created and appointment scheduled',
      status: 'Scheduled',
      scheduled_at: '2027-04-06T17:30:00.000Z',
      appointment_timezone: 'America/New_York',
    });
    const detail = await lead(res.json().lead_id);
    expect(detail).toMatchObject({
      name: 'Evelyn Brooks',
      first_name: 'Evelyn',
      last_name: 'Brooks',
      email: 'evelyn.brooks@example.net',
      phone: '4045550186',
      setter_dialer_name: 'Grace Lee',
      campaign_name: 'Final Expense Review',
      utm_source: 'google',
      idempotency_key: V1_KEY,
      body_format: 'calendly_v1',
    });
    expect(detail.appointments).toEqual([
      expect.objectContaining({
        external_id: V1_KEY,
        status: 'booked',
        scheduled_at: '2027-04-06T17:30:00.000Z',
        setter_dialer_name: 'Grace Lee',
      }),
    ]);
    expect(String(detail.notes)).toContain('Do you use tobacco or nicotine products?\nNo');
    expect(String(detail.notes)).toContain('Host: Grace Lee <grace.lee@summitlife.example>');

    const again = (await send(src, 'v1-invitee-created')).json();
    expect(again).toEqual({ ...res.json(), idempotent_replay: true });
  });

  it('when a v1 invitee.canceled follows, then it finds the appointment and keeps the reason and who canceled', async () => {
    const src = await freshSource();
    const created = (await send(src, 'v1-invitee-created')).json();
    const res = await send(src, 'v1-invitee-canceled');
    expect(res.json()).toMatchObject({
      lead_id: created.lead_id,
      status: 'Canceled',
      message: 'Appointment canceled',
    });
    const detail = await lead(created.lead_id);
    expect(detail.appointments.map((a) => [a.external_id, a.status])).toEqual([[V1_KEY, 'canceled']]);
    expect(detail.history.find((h) => h.event === 'appointment_canceled')?.details).toMatchObject({
      invitee_uri: V1_KEY,
      reason: 'My daughter is handling it now',
      canceled_by: 'Evelyn Brooks',
    });
    expect((await send(src, 'v1-invitee-canceled')).json().idempotent_replay).toBe(true);
    expect(await countRows(t.db, 'appointments', 'agent_id = $1', [src.agent_id])).toBe(1);
  });

  it('when a v1 cancel names its new invitee (a reschedule), then the old appointment is rescheduled and the new one booked', async () => {
    const src = await freshSource();
    await send(src, 'v1-invitee-created');
    const moved = loadBookingFixture('v1-invitee-created');
    const movedPayload = payloadOf(moved);
    const invitee = movedPayload.invitee as Record<string, unknown>;
    const oldInvitee = { ...invitee };
    invitee.uuid = 'FWNC8HT3ZQ6RKBYD';
    invitee.is_reschedule = true;
    Object.assign(movedPayload.event as Record<string, unknown>, {
      uuid: 'DKRT2MXQ9WLZ4HBN',
      start_time: '2027-04-08T17:00:00Z',
      invitee_start_time: '2027-04-08T13:00:00-04:00',
      end_time: '2027-04-08T17:30:00Z',
    });
    movedPayload.old_invitee = oldInvitee;
    const booked = (await post(src, moved)).json();
    expect(booked.scheduled_at).toBe('2027-04-08T17:00:00.000Z');

    const cancel = loadBookingFixture('v1-invitee-canceled');
    payloadOf(cancel).new_invitee = { ...invitee };
    const res = (await post(src, cancel)).json();
    expect(res).toMatchObject({
      lead_id: booked.lead_id,
      status: 'Scheduled',
      message: 'Appointment rescheduled',
    });
    const detail = await lead(booked.lead_id);
    expect(statusByInvitee(detail.appointments)).toEqual({
      [V1_KEY]: 'rescheduled',
      'calendly-v1:FWNC8HT3ZQ6RKBYD': 'booked',
    });
  });
});
