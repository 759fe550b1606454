import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildBookingNotes } from '../src/booking-events/notes.ts';
import { signSchedulerPayload } from '../src/booking-events/signature.ts';
import type { JsonValue } from '../src/json.ts';
import { adminInject, createTestApp, seedSource, type TestApp } from './support/app.ts';
import { countRows, GATEWAY } from './support/deliver.ts';
import { bookingFixtureText, loadBookingFixture, type BookingFixture } from './fixtures/booking/load.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

type Src = { agent_id: string; source_id: string; token: string };
let n = 0;
/** Each test gets an agent of its own: the fixtures share people, and contacts merge per agent. */
const freshSource = () => seedSource(t.db, `Scheduler Agent ${++n}`);

function post(src: Src, body: string | object, headers: Record<string, string> = {}) {
  return t.app.inject({
    method: 'POST',
    url: `${GATEWAY}/v/${src.token}`,
    headers: { 'content-type': 'application/json', ...headers },
    payload: typeof body === 'string' ? body : JSON.stringify(body),
  });
}
const send = (src: Src, fixture: BookingFixture) => post(src, bookingFixtureText(fixture));
const uriOf = (fixture: BookingFixture): string => {
  const payload = loadBookingFixture(fixture).payload as Record<string, unknown>;
  const invitee = (payload.invitee ?? payload) as Record<string, unknown>;
  return invitee.uri as string;
};
const admin = (url: string) => adminInject(t.app, 'GET', url);

interface Appt {
  external_id: string;
  status: string;
  scheduled_at: string;
  join_url: string | null;
  cancel_url: string | null;
  reschedule_url: string | null;
}
async function lead(leadId: string) {
  return (await admin(`/leads/${leadId}`)).json() as Record<string, unknown> & {
    appointments: Appt[];
    history: Array<{ event: string; details: Record<string, unknown> }>;
    custom_fields: Record<string, unknown>;
  };
}
const statusByInvitee = (appointments: Appt[]) =>
  Object.fromEntries(appointments.map((a) => [a.external_id, a.status]));

describe('an event PostgreSQL could not store as sent', () => {
  it('when a booking carries a NUL or a lone surrogate (in an answer, in its URI), then it is booked, those characters taken out', async () => {
    const src = await freshSource();
    const event = loadBookingFixture('invitee-created') as { payload: Record<string, unknown> };
    const invitee = (event.payload.invitee ?? event.payload) as Record<string, unknown>;
    const uri = String(invitee.uri);
    invitee.uri = `${uri}\u0000`;
    event.payload.questions_and_answers = [{ question: 'Best time?', answer: 'after\u0000 five \ud800' }];
    const res = await post(src, event);
    expect(res.statusCode, res.body).toBe(200);
    const detail = await lead(res.json().lead_id);
    expect(detail.appointments.map((a) => a.external_id)).toEqual([uri]);
    expect(JSON.stringify(detail)).toContain('after five');
  });
});

describe('invitee.created', () => {
  it('when a booking arrives (members directly under payload), then a Scheduled lead with its appointment and links', async () => {
    const src = await freshSource();
    const res = await send(src, 'invitee-created');
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body).toMatchObject({
      success: true,
      message: 'Lead created and appointment scheduled',
      status: 'Scheduled',
      scheduled_at: '2027-01-15T19:30:00.000Z',
      appointment_timezone: 'America/Chicago',
      schedule_type: 'appointment',
    });
    const detail = await lead(body.lead_id);
    expect(detail).toMatchObject({
      name: 'Maria Gonzalez',
      email: 'maria.gonzalez@example.com',
      phone: '3125550148',
      campaign_name: 'Final Expense Consultation',
      idempotency_key: uriOf('invitee-created'),
      utm_source: 'facebook',
      utm_campaign: 'fe-jan-2027',
    });
    expect(detail.custom_fields).toMatchObject({
      join_url: expect.stringContaining('zoom.us'),
      cancel_url: expect.stringContaining('/cancellations/'),
      reschedule_url: expect.stringContaining('/reschedulings/'),
    });
    expect(detail.appointments).toEqual([
      expect.objectContaining({
        external_id: uriOf('invitee-created'),
        status: 'booked',
        join_url: expect.stringContaining('zoom.us'),
        cancel_url: expect.stringContaining('/cancellations/'),
      }),
    ]);
    expect(String(detail.notes)).toMatch(
      /^Appointment: Final Expense Consultation\nTime: 2027-01-15 19:30 UTC \[America\/Chicago\]/,
    );
  });

  it('when the invitee is nested under payload.invitee, then it maps the same way', async () => {
    const src = await freshSource();
    const body = (await send(src, 'invitee-created-nested')).json();
    expect(body.status).toBe('Scheduled');
    const detail = await lead(body.lead_id);
    expect(detail.appointments[0]?.external_id).toBe(uriOf('invitee-created-nested'));
    expect(detail.name).toBeTruthy();
  });

  it('when the phone is only in the questionnaire, then it is promoted and the notes keep the right answers', async () => {
    const src = await freshSource();
    const fixture = loadBookingFixture('invitee-created-questionnaire');
    const body = (await send(src, 'invitee-created-questionnaire')).json();
    const detail = await lead(body.lead_id);
    expect(detail.phone).toMatch(/^\d{10}$/);
    const payload = fixture.payload as unknown as {
      scheduled_event: {
        name: string;
        start_time: string;
        location: { join_url: string };
        event_memberships: Array<{ user_name: string; user_email: string }>;
      };
      timezone: string;
      reschedule_url: string;
      cancel_url: string;
      questions_and_answers: JsonValue;
    };
    const event = payload.scheduled_event;
    const host = event.event_memberships[0];
    expect(detail.notes).toBe(
      buildBookingNotes({
        eventName: event.name,
        startTime: event.start_time,
        timezone: payload.timezone,
        hostName: host?.user_name,
        hostEmail: host?.user_email,
        joinUrl: event.location.join_url,
        rescheduleUrl: payload.reschedule_url,
        cancelUrl: payload.cancel_url,
        questions: payload.questions_and_answers,
      }),
    );
    expect(String(detail.notes)).not.toMatch(/phone/i);
  });

  it('when the scheduler retries the same event, then it is replayed: one lead, one appointment', async () => {
    const src = await freshSource();
    const first = (await send(src, 'invitee-created')).json();
    const again = (await send(src, 'invitee-created')).json();
    expect(again).toEqual({ ...first, idempotent_replay: true });
    expect(await countRows(t.db, 'appointments', 'agent_id = $1', [src.agent_id])).toBe(1);
  });
});

describe('invitee.canceled', () => {
  it('when a booking is canceled, then the appointment is canceled, the lead Canceled, and the reason kept in history', async () => {
    const src = await freshSource();
    const created = (await send(src, 'invitee-created')).json();
    const res = await send(src, 'invitee-canceled');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      lead_id: created.lead_id,
      status: 'Canceled',
      message: 'Appointment canceled',
    });
    const detail = await lead(created.lead_id);
    expect(detail.status).toBe('Canceled');
    expect(detail.appointments.map((a) => a.status)).toEqual(['canceled']);
    const entry = detail.history.find((h) => h.event === 'appointment_canceled');
    const cancellation = (
      loadBookingFixture('invitee-canceled').payload as Record<string, Record<string, unknown>>
    ).cancellation;
    expect(entry?.details).toMatchObject({
      reason: cancellation?.reason,
      canceled_by: cancellation?.canceled_by,
      canceler_type: 'invitee',
    });
    const retry = (await send(src, 'invitee-canceled')).json();
    expect(retry.idempotent_replay).toBe(true);
  });

  it('when a cancel arrives for an invitee never seen, then the contact is created Canceled, and a late create does not revive it', async () => {
    const src = await freshSource();
    const cancel = (await send(src, 'invitee-canceled')).json();
    expect(cancel.status).toBe('Canceled');
    const late = (await send(src, 'invitee-created')).json();
    expect(late.lead_id).toBe(cancel.lead_id);
    expect(late.status).toBe('Canceled');
    const detail = await lead(cancel.lead_id);
    expect(detail.status).toBe('Canceled');
    expect(detail.appointments.map((a) => a.status)).toEqual(['canceled']);
  });
});

describe('reschedules, in any order', () => {
  const OLD = 'invitee-created-nested';
  const CANCEL = 'invitee-canceled-rescheduled';
  const NEW = 'invitee-created-rescheduled';
  const orders: Array<[string, BookingFixture[]]> = [
    ['create old, cancel old, create new', [OLD, CANCEL, NEW]],
    ['create old, create new, cancel old', [OLD, NEW, CANCEL]],
    ['cancel old, create new, create old late', [CANCEL, NEW, OLD]],
    ['create new, cancel old, create old late', [NEW, CANCEL, OLD]],
    ['create new, create old late, cancel old', [NEW, OLD, CANCEL]],
    ['cancel old, create old late, create new', [CANCEL, OLD, NEW]],
  ];
  for (const [label, sequence] of orders) {
    it(`when events come as: ${label} (with retries), then the new appointment is booked and the lead Scheduled`, async () => {
      const src = await freshSource();
      const ids = new Set<string>();
      for (const fixture of [...sequence, ...sequence]) {
        const res = await send(src, fixture);
        expect(res.statusCode, fixture).toBe(200);
        ids.add(res.json().lead_id);
      }
      expect(ids.size).toBe(1);
      const detail = await lead([...ids][0] ?? '');
      expect(statusByInvitee(detail.appointments)).toEqual({
        [uriOf(OLD)]: 'rescheduled',
        [uriOf(NEW)]: 'booked',
      });
      expect(detail.status).toBe('Scheduled');
      expect(detail.history.some((h) => h.event === 'appointment_rescheduled')).toBe(true);
    });
  }

  it('when another booking of the contact is canceled (no reschedule), then the lead stays Scheduled for the remaining one', async () => {
    const src = await freshSource();
    await send(src, 'invitee-created');
    const other = loadBookingFixture('invitee-created');
    const payload = other.payload as Record<string, unknown>;
    payload.uri = `${String(payload.uri)}-second`;
    (payload.scheduled_event as Record<string, unknown>).start_time = '2027-01-20T19:30:00.000000Z';
    const second = (await post(src, other)).json();
    const res = (await send(src, 'invitee-canceled')).json();
    expect(res.status).toBe('Scheduled');
    const detail = await lead(second.lead_id);
    // Each invitee has its own events: the second booking did not move the first, the cancel closed it.
    expect(statusByInvitee(detail.appointments)).toEqual({
      [uriOf('invitee-created')]: 'canceled',
      [String(payload.uri)]: 'booked',
    });
  });
});

describe('other scheduler events', () => {
  it('when the invitee URI is very long, then the booking and its cancel still work, keyed by its hash', async () => {
    const src = await freshSource();
    // Random hex does not compress: past an index row's limit, as a raw key it would answer 500.
    const long = `https://api.calendly.com/scheduled_events/E/invitees/${randomBytes(4_000).toString('hex')}`;
    const withUri = (fixture: BookingFixture) =>
      bookingFixtureText(fixture)
        .split(JSON.stringify(uriOf(fixture)))
        .join(JSON.stringify(long));
    const booked = await post(src, withUri('invitee-created'));
    expect(booked.statusCode).toBe(200);
    const canceled = await post(src, withUri('invitee-canceled'));
    expect(canceled.statusCode).toBe(200);
    const { appointments } = await lead(booked.json().lead_id);
    expect(appointments).toEqual([
      expect.objectContaining({
        external_id: expect.stringMatching(/^sha256:[0-9a-f]{64}$/),
        status: 'canceled',
      }),
    ]);
  });

  it.each([
    ['the no-show resource (payload.invitee)', 'invitee-no-show-created', 'invitee-no-show-deleted'],
    [
      'the Invitee object (payload.uri)',
      'invitee-no-show-created-invitee',
      'invitee-no-show-deleted-invitee',
    ],
  ] as const)(
    'when a no-show is reported as %s and then removed, then the appointment is no_show and booked again, with history and event log',
    async (_shape, reported, removed) => {
      const src = await freshSource();
      const created = (await send(src, 'invitee-created-questionnaire')).json();
      const marked = await send(src, reported);
      expect(marked.statusCode).toBe(200);
      expect(marked.json()).toMatchObject({
        lead_id: created.lead_id,
        message: 'Appointment marked no-show',
      });
      expect((await lead(created.lead_id)).appointments.map((a) => a.status)).toEqual(['no_show']);
      const undone = await send(src, removed);
      expect(undone.json()).toMatchObject({ lead_id: created.lead_id, message: 'No-show removed' });
      const detail = await lead(created.lead_id);
      expect(detail.appointments.map((a) => a.status)).toEqual(['booked']);
      expect(detail.history.map((h) => h.event)).toEqual(
        expect.arrayContaining(['no_show', 'no_show_removed']),
      );
      const events = (await admin(`/sources/${src.source_id}/events`)).json().events as Array<
        Record<string, unknown>
      >;
      expect(events.map((e) => [e.event, e.outcome])).toEqual([
        ['invitee_no_show.deleted', 'no_show_removed'],
        ['invitee_no_show.created', 'no_show_marked'],
        ['invitee.created', 'lead_created'],
      ]);
    },
  );

  it('when a no-show names an invitee never seen, or an event is unknown, then 200 ignored and recorded for the agent', async () => {
    const src = await freshSource();
    for (const fixture of ['invitee-no-show-created', 'routing-form-submission-created'] as const) {
      const res = await send(src, fixture);
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({ success: true, message: 'Event ignored', ignored: true });
    }
    const custom = await post(src, { event: 'invitee.something_new', payload: { any: 'thing' } });
    expect(custom.json().ignored).toBe(true);
    const events = (await admin(`/sources/${src.source_id}/events`)).json().events as Array<
      Record<string, unknown>
    >;
    expect(events.map((e) => [e.event, e.outcome])).toEqual([
      ['invitee.something_new', 'ignored'],
      ['routing_form_submission.created', 'ignored'],
      ['invitee_no_show.created', 'ignored_unknown_invitee'],
    ]);
    expect(await countRows(t.db, 'leads', 'agent_id = $1', [src.agent_id])).toBe(0);
  });

  it('when an event carries listen: true, then the Listen answer, a stored sample, and nothing created', async () => {
    const src = await freshSource();
    const event = { ...loadBookingFixture('invitee-created'), listen: true };
    const res = await post(src, event);
    expect(res.json()).toEqual({
      success: true,
      listen: true,
      message: 'Sample received for mapping. Check the lead source in the app.',
    });
    expect(await countRows(t.db, 'leads', 'agent_id = $1', [src.agent_id])).toBe(0);
    expect(await countRows(t.db, 'booking_events', 'agent_id = $1', [src.agent_id])).toBe(0);
    const samples = (await admin(`/sources/${src.source_id}/samples`)).json().samples;
    expect(samples[0].mapped).toMatchObject({
      name: 'Maria Gonzalez',
      status: 'Scheduled',
      phone: '3125550148',
    });
  });
});

describe('signature check', () => {
  const KEY = 'whsec_test_signing_key';
  async function signedSource() {
    const src = await freshSource();
    const res = await adminInject(t.app, 'PATCH', `/sources/${src.source_id}`, { signing_key: KEY });
    expect(res.json().has_signing_key).toBe(true);
    return src;
  }
  const now = () => Math.floor(Date.now() / 1000);
  const raw = bookingFixtureText('invitee-created');

  it('when the signature is valid, then the event is accepted', async () => {
    const src = await signedSource();
    const res = await post(src, raw, { 'calendly-webhook-signature': signSchedulerPayload(raw, KEY, now()) });
    expect(res.statusCode).toBe(200);
  });

  it('when the signature is invalid, stale or absent, then 401 INVALID_SIGNATURE and nothing is created', async () => {
    const src = await signedSource();
    const cases: Array<Record<string, string>> = [
      { 'calendly-webhook-signature': signSchedulerPayload(raw, 'wrong-key', now()) },
      { 'calendly-webhook-signature': signSchedulerPayload(raw, KEY, now() - 301) },
      { 'calendly-webhook-signature': signSchedulerPayload(`${raw} `, KEY, now()) },
      {},
    ];
    for (const headers of cases) {
      const res = await post(src, raw, headers);
      expect(res.statusCode).toBe(401);
      expect(res.json()).toMatchObject({
        error_code: 'INVALID_SIGNATURE',
        error: 'Invalid webhook signature',
      });
    }
    expect(await countRows(t.db, 'leads', 'agent_id = $1', [src.agent_id])).toBe(0);
  });

  it('when a source without a key receives an unsigned event, or a keyed source a plain lead, then both are accepted', async () => {
    const plain = await freshSource();
    expect((await post(plain, raw)).statusCode).toBe(200);
    const keyed = await signedSource();
    expect((await post(keyed, { name: 'Plain Lead' })).statusCode).toBe(200);
  });
});
