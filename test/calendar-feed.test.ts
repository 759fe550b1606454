import ICAL from 'ical.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminInject, createTestApp, seedSource, type TestApp } from './support/app.ts';
import { agentWithLogin, CONSOLE_PASSWORD, ConsoleClient } from './support/console-client.ts';
import { deliver, GATEWAY } from './support/deliver.ts';
import { bookingFixtureText, loadBookingFixture, type BookingFixture } from './fixtures/booking/load.ts';

/** The agent's calendar feed (docs/calendar.md), read by a real iCalendar parser. */

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ publicBaseUrl: 'https://leads.example.com/v1' });
});
afterAll(async () => {
  await t.close();
});

let n = 0;
const freshSource = () => seedSource(t.db, `Calendar Agent ${++n}`, 'America/Chicago');

async function newFeed(agentId: string): Promise<string> {
  const res = await adminInject(t.app, 'POST', `/agents/${agentId}/calendar-feed`);
  expect(res.statusCode, res.body).toBe(201);
  const { url } = res.json() as { url: string };
  expect(url).toMatch(/^https:\/\/leads\.example\.com\/v1\/calendar\/[A-Za-z0-9_-]{43}\.ics$/);
  return url;
}

const pathOf = (url: string) => new URL(url).pathname;
const read = (url: string, headers: Record<string, string> = {}) =>
  t.app.inject({ method: 'GET', url: pathOf(url), headers });

interface Ev {
  uid: string;
  sequence: number;
  status: string;
  summary: string;
  description: string;
  location: string | null;
  start: string;
  end: string;
  startZone: string;
}

/** The feed's events, as a calendar app would read them. */
async function events(url: string): Promise<Ev[]> {
  const res = await read(url);
  expect(res.statusCode, res.body).toBe(200);
  const calendar = new ICAL.Component(ICAL.parse(res.body));
  return calendar.getAllSubcomponents('vevent').map((c) => {
    const e = new ICAL.Event(c);
    return {
      uid: e.uid,
      sequence: e.sequence,
      status: String(c.getFirstPropertyValue('status')),
      summary: e.summary,
      description: e.description,
      location: e.location ?? null,
      start: e.startDate.toJSDate().toISOString(),
      end: e.endDate.toJSDate().toISOString(),
      startZone: e.startDate.zone.tzid,
    };
  });
}

const postBooking = (token: string, body: string) =>
  t.app.inject({
    method: 'POST',
    url: `${GATEWAY}/v/${token}`,
    headers: { 'content-type': 'application/json' },
    payload: body,
  });
const book = async (token: string, fixture: BookingFixture) =>
  expect((await postBooking(token, bookingFixtureText(fixture))).statusCode).toBe(200);

describe('the feed URL', () => {
  it('When an agent makes a feed URL, then calendar apps read it without a header, as text/calendar with CRLF lines', async () => {
    const src = await freshSource();
    const url = await newFeed(src.agent_id);
    const res = await read(url);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/calendar; charset=utf-8');
    expect(res.body.startsWith('BEGIN:VCALENDAR\r\nVERSION:2.0\r\n')).toBe(true);
    expect(res.body.replace(/\r\n/g, '')).not.toMatch(/[\r\n]/);
    expect(await events(url)).toEqual([]);
  });

  it('When a new URL is made, then the one before answers 404 at once, and so do made-up and malformed ones', async () => {
    const src = await freshSource();
    const first = await newFeed(src.agent_id);
    const second = await newFeed(src.agent_id);
    expect((await read(first)).statusCode).toBe(404);
    expect((await read(second)).statusCode).toBe(200);
    const secret = pathOf(second).split('/').pop()?.replace('.ics', '') ?? '';
    for (const path of [
      `/v1/calendar/${secret.slice(0, 20)}.ics`, // a prefix of the real one
      `/v1/calendar/${secret.slice(0, -1)}${secret.endsWith('A') ? 'B' : 'A'}.ics`, // its last character changed
      `/v1/calendar/${'x'.repeat(43)}.ics`,
      '/v1/calendar/..%2F..%2Fetc.ics',
      '/v1/calendar/%F0%9F%8F%A1',
      `/v1/calendar/${secret}.ics.ics`,
    ]) {
      const res = await t.app.inject({ method: 'GET', url: path });
      expect(res.statusCode, path).toBe(404);
    }
    expect((await adminInject(t.app, 'DELETE', `/agents/${src.agent_id}/calendar-feed`)).statusCode).toBe(
      204,
    );
    expect((await read(second)).statusCode).toBe(404);
    expect((await adminInject(t.app, 'DELETE', `/agents/${src.agent_id}/calendar-feed`)).statusCode).toBe(
      404,
    );
  });

  it('When the feed is read, then its secret never reaches the log', async () => {
    const src = await freshSource();
    const url = await newFeed(src.agent_id);
    await read(url);
    const secret = pathOf(url).split('/').pop()?.replace('.ics', '') ?? '';
    expect(t.logs.join('')).toContain('/v1/calendar/[REDACTED]');
    expect(t.logs.join('')).not.toContain(secret);
  });
});

describe('appointments as events', () => {
  it('When a lead is booked, then its event has the name, type, phone, lead link, notes and join URL, in UTC', async () => {
    const src = await freshSource();
    const url = await newFeed(src.agent_id);
    const notes = `Wants final expense; wife Ann on the call, too.\nCall back after 5; ${'n'.repeat(150)}`;
    const res = await deliver(t.app, src.token, {
      name: 'Jenkins, Harold 🏡; "Hal"',
      phone: '(312) 555-0142',
      scheduled_at: '2027-01-15T19:30:00Z',
      notes,
      custom_fields: { join_url: 'https://meet.example/j/1?a=1,b=2' },
    });
    expect(res.statusCode, res.body).toBe(200);
    const leadId = (res.json() as { lead_id: string }).lead_id;
    const [e, ...others] = await events(url);
    expect(others).toEqual([]);
    expect(e).toMatchObject({
      sequence: 0,
      status: 'CONFIRMED',
      summary: 'Jenkins, Harold 🏡; "Hal" · Appointment',
      location: 'https://meet.example/j/1?a=1,b=2',
      start: '2027-01-15T19:30:00.000Z',
      end: '2027-01-15T20:00:00.000Z', // the agent's 30 minutes
      startZone: 'UTC',
    });
    expect(e?.uid).toMatch(/^[0-9a-f-]{36}@leadgate$/);
    expect(e?.description).toContain('Phone: +1 (312) 555-0142');
    expect(e?.description).toContain(`Lead: https://leads.example.com/console/leads/${leadId}`);
    expect(e?.description).toContain(notes);
    // Long lines are folded at 75 octets, never inside a character.
    const body = (await read(url)).body;
    for (const line of body.split('\r\n')) expect(Buffer.byteLength(line)).toBeLessThanOrEqual(75);
    expect(body).toMatch(/\r\n /);
  });

  it('When a lead is sent a new time, then its event keeps its UID with the new times and a higher SEQUENCE', async () => {
    const src = await freshSource();
    const url = await newFeed(src.agent_id);
    const lead = { name: 'Rita Moreno', phone: '3125550143' };
    await deliver(t.app, src.token, { ...lead, scheduled_at: '2027-01-20T15:00:00Z' });
    const [before] = await events(url);
    await deliver(t.app, src.token, { ...lead, scheduled_at: '2027-01-22T17:00:00Z' });
    const after = await events(url);
    expect(after).toHaveLength(1);
    expect(after[0]).toMatchObject({
      uid: before?.uid,
      status: 'CONFIRMED',
      start: '2027-01-22T17:00:00.000Z',
    });
    expect(after[0]?.sequence).toBeGreaterThan(before?.sequence ?? Infinity);
    await deliver(t.app, src.token, { ...lead, scheduled_at: '2027-01-23T17:00:00Z' });
    const third = await events(url);
    expect(third).toHaveLength(1);
    expect(third[0]?.uid).toBe(before?.uid);
    expect(third[0]?.sequence).toBeGreaterThan(after[0]?.sequence ?? Infinity);
  });

  it('When a scheduler booking is canceled, then its event stays with STATUS:CANCELLED and a higher SEQUENCE; its end is the booking’s', async () => {
    const src = await freshSource();
    const url = await newFeed(src.agent_id);
    await book(src.token, 'invitee-created');
    const [booked] = await events(url);
    expect(booked).toMatchObject({
      status: 'CONFIRMED',
      start: '2027-01-15T19:30:00.000Z',
      end: '2027-01-15T20:00:00.000Z',
      summary: 'Maria Gonzalez · Appointment',
    });
    expect(booked?.location).toMatch(/^https:\/\/us06web\.zoom\.us\//);
    await book(src.token, 'invitee-canceled');
    const [canceled, ...rest] = await events(url);
    expect(rest).toEqual([]);
    expect(canceled).toMatchObject({ uid: booked?.uid, status: 'CANCELLED' });
    expect(canceled?.sequence).toBeGreaterThan(booked?.sequence ?? Infinity);
  });

  it('When a scheduler reschedules (cancel, then the new invitee), then the event moves under the same UID', async () => {
    const src = await freshSource();
    const url = await newFeed(src.agent_id);
    const canceled = loadBookingFixture('invitee-canceled-rescheduled') as {
      payload: Record<string, unknown>;
    };
    // The old invitee's own booking, at the time its cancel names.
    const first = loadBookingFixture('invitee-created-rescheduled') as { payload: Record<string, unknown> };
    first.payload = {
      ...first.payload,
      uri: canceled.payload.uri,
      old_invitee: null,
      scheduled_event: canceled.payload.scheduled_event,
    };
    expect((await postBooking(src.token, JSON.stringify(first))).statusCode).toBe(200);
    const [old] = await events(url);
    expect(old).toMatchObject({ status: 'CONFIRMED', start: '2027-02-03T15:00:00.000Z' });
    await book(src.token, 'invitee-canceled-rescheduled');
    const [between] = await events(url);
    expect(between).toMatchObject({ uid: old?.uid, status: 'CANCELLED' });
    await book(src.token, 'invitee-created-rescheduled');
    const after = await events(url);
    expect(after).toHaveLength(1);
    expect(after[0]).toMatchObject({
      uid: old?.uid,
      status: 'CONFIRMED',
      start: '2027-02-05T18:30:00.000Z',
      location: 'https://meet.google.com/hzw-pqcj-tbn',
    });
    expect(after[0]?.sequence).toBeGreaterThan(between?.sequence ?? Infinity);
  });

  it('When appointments are long past or canceled long ago, then they leave the feed; a no-show stays', async () => {
    const src = await freshSource();
    const url = await newFeed(src.agent_id);
    for (const [i, at] of ['2027-03-01T15:00:00Z', '2027-03-02T15:00:00Z', '2027-03-03T15:00:00Z'].entries())
      await deliver(t.app, src.token, { name: `Past ${i}`, phone: `312555016${i}`, scheduled_at: at });
    const ids = await t.db.query<{ appointment_id: string; lead_name: string }>(
      `SELECT a.appointment_id, l.name AS lead_name FROM appointments a JOIN leads l USING (agent_id, lead_id)
        WHERE a.agent_id = $1 ORDER BY l.name`,
      [src.agent_id],
    );
    const [past, canceled, noShow] = ids.rows.map((r) => r.appointment_id);
    await t.db.query(
      `UPDATE appointments SET scheduled_at = now() - interval '91 days' WHERE appointment_id = $1`,
      [past],
    );
    await t.db.query(
      `UPDATE appointments SET status = 'canceled', updated_at = now() - interval '31 days' WHERE appointment_id = $1`,
      [canceled],
    );
    await t.db.query(`UPDATE appointments SET status = 'no_show' WHERE appointment_id = $1`, [noShow]);
    const left = await events(url);
    expect(left.map((e) => e.summary)).toEqual(['Past 2 · Appointment (no-show)']);
    expect(left[0]?.status).toBe('CONFIRMED');
  });

  it('When the agent sets its appointments’ length, then events without a booked end last that long; out of range is refused', async () => {
    const src = await freshSource();
    const url = await newFeed(src.agent_id);
    const set = (minutes: unknown) =>
      adminInject(t.app, 'PATCH', `/agents/${src.agent_id}`, { appointment_minutes: minutes });
    const res = await set(45);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ appointment_minutes: 45 });
    await deliver(t.app, src.token, {
      name: 'Long Talk',
      phone: '3125550172',
      scheduled_at: '2027-01-25T15:00:00Z',
    });
    expect((await events(url)).map((e) => e.end)).toEqual(['2027-01-25T15:45:00.000Z']);
    for (const bad of [4, 481, 30.5, '60']) {
      const refused = await set(bad);
      expect(refused.statusCode, String(bad)).toBe(400);
      expect(refused.json()).toMatchObject({ error_code: 'VALIDATION_ERROR' });
    }
  });

  it('When a follow-up is booked, then its summary says so', async () => {
    const src = await freshSource();
    const url = await newFeed(src.agent_id);
    await deliver(t.app, src.token, {
      name: 'Follow Up',
      phone: '3125550171',
      scheduled_at: '2027-01-25T15:00:00Z',
      schedule_type: 'follow_up',
    });
    expect((await events(url)).map((e) => e.summary)).toEqual(['Follow Up · Follow-up call']);
  });
});

describe('whose appointments', () => {
  it('When two agents have appointments, then each feed holds only its own', async () => {
    const [a, b] = [await freshSource(), await freshSource()];
    const [urlA, urlB] = [await newFeed(a.agent_id), await newFeed(b.agent_id)];
    await deliver(t.app, a.token, {
      name: 'For A',
      phone: '3125550181',
      scheduled_at: '2027-01-26T15:00:00Z',
    });
    await deliver(t.app, b.token, {
      name: 'For B',
      phone: '3125550181',
      scheduled_at: '2027-01-26T16:00:00Z',
    });
    expect((await events(urlA)).map((e) => e.summary)).toEqual(['For A · Appointment']);
    expect((await events(urlB)).map((e) => e.summary)).toEqual(['For B · Appointment']);
  });

  it('When an agency’s lead goes to a producer, then it is in the producer’s feed, not the fallback producer’s', async () => {
    const fallback = await freshSource();
    const json = async <T>(
      p: Promise<{ statusCode: number; body: string; json(): unknown }>,
      code: number,
    ) => {
      const res = await p;
      expect(res.statusCode, res.body).toBe(code);
      return res.json() as T;
    };
    const agency = await json<{ agency_id: string }>(
      adminInject(t.app, 'POST', '/agencies', { name: 'Feed agency', fallback_agent_id: fallback.agent_id }),
      201,
    );
    const producer = await json<{ agent_id: string }>(
      adminInject(t.app, 'POST', '/agents', { name: 'Producer' }),
      201,
    );
    await json(
      adminInject(t.app, 'PUT', `/agencies/${agency.agency_id}/members/${producer.agent_id}`, {
        licensed_states: ['TX'],
      }),
      201,
    );
    const source = await json<{ token: string }>(
      adminInject(t.app, 'POST', `/agencies/${agency.agency_id}/sources`, { name: 'Agency source' }),
      201,
    );
    const [fallbackUrl, producerUrl] = [await newFeed(fallback.agent_id), await newFeed(producer.agent_id)];
    const res = await deliver(t.app, source.token, {
      name: 'Texan Booked',
      phone: '5125550190',
      state: 'TX',
      scheduled_at: '2027-01-27T15:00:00Z',
    });
    expect(res.statusCode, res.body).toBe(200);
    expect((await events(producerUrl)).map((e) => e.summary)).toEqual(['Texan Booked · Appointment']);
    expect(await events(fallbackUrl)).toEqual([]);
  });
});

describe('polling', () => {
  it('When the feed has not changed, then If-None-Match gets 304; after a booking, 200 with a new ETag', async () => {
    const src = await freshSource();
    const url = await newFeed(src.agent_id);
    await deliver(t.app, src.token, {
      name: 'Poll One',
      phone: '3125550191',
      scheduled_at: '2027-01-28T15:00:00Z',
    });
    const first = await read(url);
    const etag = String(first.headers.etag);
    expect(etag).toMatch(/^"[A-Za-z0-9_-]+"$/);
    expect(new Date(String(first.headers['last-modified'])).getTime()).not.toBeNaN();
    const again = await read(url, { 'if-none-match': etag });
    expect(again.statusCode).toBe(304);
    expect(again.body).toBe('');
    expect((await read(url, { 'if-none-match': `"other", W/${etag}` })).statusCode).toBe(304);
    expect((await read(url, { 'if-none-match': '"other"' })).statusCode).toBe(200);
    await deliver(t.app, src.token, {
      name: 'Poll Two',
      phone: '3125550192',
      scheduled_at: '2027-01-29T15:00:00Z',
    });
    const changed = await read(url, { 'if-none-match': etag });
    expect(changed.statusCode).toBe(200);
    expect(changed.headers.etag).not.toBe(etag);
  });
});

describe('the agenda page', () => {
  // The console over plain HTTP: an app whose PUBLIC_BASE_URL is http, as in development.
  let c: TestApp;
  beforeAll(async () => {
    c = await createTestApp();
  });
  afterAll(() => c.close());

  it('When the agent makes a feed URL in the console, then it is its own, shown once, and never without the CSRF token', async () => {
    const [alice, bob] = [await agentWithLogin(c.app, 'Feed Alice'), await agentWithLogin(c.app, 'Feed Bob')];
    await deliver(c.app, alice.token, {
      name: 'Alice Client',
      phone: '3125550201',
      scheduled_at: '2027-02-01T15:00:00Z',
    });
    await deliver(c.app, bob.token, {
      name: 'Bob Client',
      phone: '3125550202',
      scheduled_at: '2027-02-01T16:00:00Z',
    });
    const b = new ConsoleClient(c.app);
    expect((await b.login(alice.email, CONSOLE_PASSWORD)).statusCode).toBe(303);
    const before = await b.get('/console/agenda');
    expect(before.body).toContain('Make my calendar URL');
    expect((await b.post('/console/agenda/calendar-feed', {})).statusCode).toBe(403);
    const made = await b.post('/console/agenda/calendar-feed', { _csrf: await b.csrf('/console/agenda') });
    expect(made.statusCode).toBe(200);
    expect(made.headers['cache-control']).toBe('no-store');
    const url = /id="calendar-feed-url" readonly value="([^"]+)"/.exec(made.body)?.[1] ?? '';
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:3000\/v1\/calendar\//);
    const feed = await c.app.inject({ method: 'GET', url: new URL(url).pathname });
    expect(feed.body).toContain('SUMMARY:Alice Client · Appointment');
    expect(feed.body).not.toContain('Bob Client');
    const after = await b.get('/console/agenda');
    expect(after.body).not.toContain(url);
    expect(after.body).toContain('You have a calendar URL');
    expect(after.body).toContain('data-confirm=');
  });
});
