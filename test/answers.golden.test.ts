import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { signSchedulerPayload } from '../src/booking-events/signature.ts';
import { signMetaPayload } from '../src/gateway/meta-envelope.ts';
import { ADMIN_KEY, createTestApp, seedSource, type TestApp } from './support/app.ts';
import { GATEWAY } from './support/deliver.ts';
import { FULL_LEAD } from './support/fixtures.ts';
import { bookingFixtureText, type BookingFixture } from './fixtures/booking/load.ts';

/**
 * The answers senders get, recorded byte for byte: status, the headers a sender acts on, and the
 * exact body text. Random ids are replaced by `<id:N>` in order of first appearance, so a replay
 * that answers with the first lead's id still shows it. Any change to this file is a change to the
 * sender contract and must be deliberate (`npx vitest run test/answers.golden.test.ts -u`).
 */

const RECORDED_ON = new Date('2026-12-01T16:00:00Z');
let t: TestApp;
let limited: TestApp;
beforeAll(async () => {
  t = await createTestApp();
  limited = await createTestApp({ rateLimit: { rps: 1, burst: 1 } });
  // The answers are recorded as of one day, so an appointment of theirs never turns past (and
  // warned of) as the calendar moves on; the clock runs on from there.
  vi.useFakeTimers({ toFake: ['Date'], now: RECORDED_ON, shouldAdvanceTime: true });
});
afterAll(async () => {
  vi.useRealTimers();
  await t.close();
  await limited.close();
});

const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/gi;

interface Call {
  method?: string;
  url?: string;
  token?: string;
  via?: 'header' | 'path';
  headers?: Record<string, string>;
  body?: unknown;
  raw?: string;
}

function recorder() {
  const ids = new Map<string, string>();
  const lines: string[] = [];
  const placeholder = (id: string) => {
    const key = id.toLowerCase();
    if (!ids.has(key)) ids.set(key, `<id:${ids.size + 1}>`);
    return ids.get(key) as string;
  };
  return {
    lines,
    async run(app: TestApp, label: string, call: Call) {
      const viaPath = call.via === 'path';
      const res = await app.app.inject({
        method: (call.method ?? 'POST') as 'POST',
        url: call.url ?? (viaPath ? `${GATEWAY}/v/${call.token ?? ''}` : GATEWAY),
        headers: {
          'content-type': 'application/json',
          ...(!viaPath && call.token !== undefined ? { 'x-source-token': call.token } : {}),
          ...call.headers,
        },
        ...(call.method === 'GET' || call.method === 'HEAD' || call.method === 'OPTIONS'
          ? {}
          : { payload: call.raw ?? JSON.stringify(call.body) }),
      });
      const shown = ['content-type', 'allow', 'retry-after']
        .filter((h) => res.headers[h] !== undefined)
        .map((h) => `${h}: ${String(res.headers[h])}`);
      lines.push(`### ${label}`, `HTTP ${res.statusCode}`, ...shown, res.body.replace(UUID, placeholder), '');
      return res;
    },
  };
}

describe('the answers senders get, byte for byte', () => {
  it('when a fixed set of deliveries is sent, then every answer is what it was', async () => {
    const rec = recorder();
    const src = await seedSource(t.db, 'Golden Agent', 'America/Chicago');
    const token = src.token;
    const send = (label: string, call: Call) => rec.run(t, label, { token, ...call });

    // Leads: created, merged, appointments, warnings.
    await send('plain lead, header token', { body: { name: 'Jane Doe', phone: '2145550100' } });
    await send('plain lead, path token', { via: 'path', body: { name: 'John Roe', phone: '2145550101' } });
    await send('every spec field', { body: FULL_LEAD });
    await send('resubmit of the same contact', {
      body: { name: 'Jane Doe', phone: '(214) 555-0100', email: 'jane@example.com' },
    });
    await send('resubmit with an appointment', {
      body: {
        name: 'Jane Doe',
        phone: '2145550100',
        appointment_date: '2027-03-02',
        appointment_time: '2:30 PM',
      },
    });
    await send('resubmit with a new time (reschedule)', {
      body: { name: 'Jane Doe', phone: '2145550100', scheduled_at: '2027-03-03T10:00:00-06:00' },
    });
    await send('invalid values become warnings', {
      body: {
        name: 'Wendy Warn',
        phone: '555-01',
        email: 'not-an-email',
        age: 15,
        state: 'Atlantis',
        gender: 'sometimes',
        status: 'Sold',
        custom_fields: 'not an object',
        appointment_date: '02/30/2027',
        appointment_time: '2:30 PM',
      },
    });
    await send('aliases and folded names', {
      body: {
        'First Name': 'Al',
        lastName: 'Ias',
        cell: '312 555 0199',
        zip: '60601',
        coverage_requested: '10000',
      },
    });
    await send('scheduled_at without an offset', {
      body: { name: 'No Offset', phone: '3125550111', scheduled_at: '2027-05-01T09:00:00' },
    });
    await send('DST gap', {
      body: {
        name: 'Gap Gus',
        phone: '3125550112',
        appointment_date: '2027-03-14',
        appointment_time: '2:30 AM',
        state: 'IL',
      },
    });
    await send('NUL characters removed', { body: { name: 'Nul\u0000 Ned', notes: 'a\u0000b' } });
    await send('form body', {
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      raw: 'name=Form+Fran&phone=3125550113&tags=a&tags=b&custom_fields%5Bjoin_url%5D=https%3A%2F%2Fj.example',
    });
    await send('text/plain JSON', {
      headers: { 'content-type': 'text/plain' },
      body: { name: 'Plain Text' },
    });

    // Idempotency.
    const keyed = { name: 'Kay Key', phone: '3125550120' };
    await send('idempotency key, first', { headers: { 'idempotency-key': 'golden-1' }, body: keyed });
    await send('idempotency key, replay', { headers: { 'idempotency-key': '"golden-1"' }, body: keyed });
    await send('idempotency key in the body, replay', { body: { ...keyed, idempotency_key: 'golden-1' } });
    await send('idempotency key reused for another contact', {
      headers: { 'idempotency-key': 'golden-1' },
      body: { name: 'Other Person', phone: '3125550999' },
    });
    await send('idempotency key too long', { headers: { 'idempotency-key': 'k'.repeat(256) }, body: keyed });
    await send('idempotency key of the wrong type', { body: { ...keyed, idempotency_key: { a: 1 } } });
    await send('appointment with a key, first', {
      headers: { 'idempotency-key': 'golden-2' },
      body: { name: 'Appt Key', phone: '3125550121', scheduled_at: '2027-06-01T15:00:00Z' },
    });
    await send('appointment with a key, replay', {
      headers: { 'idempotency-key': 'golden-2' },
      body: { name: 'Appt Key', phone: '3125550121', scheduled_at: '2027-06-01T15:00:00Z' },
    });

    // Listen mode.
    await send('listen', { body: { name: 'Lis Ten', phone: '3125550130', listen: true } });
    await send('listen as a string', { body: { name: 'Lis Ten', listen: 'true' } });
    await send('listen without a name', { body: { phone: '3125550131', listen: true } });

    // Refusals.
    await send('missing name', { body: { phone: '3125550140' } });
    await send('blank name', { body: { name: '   ' } });
    await send('not JSON', { raw: '{"name":' });
    await send('empty body', { raw: '' });
    await send('an array', { raw: '[1,2]' });
    await send('too deep', { raw: `${'['.repeat(40)}${']'.repeat(40)}` });
    await send('too large', { raw: JSON.stringify({ name: 'Big', notes: 'x'.repeat(262_144) }) });
    await send('missing token', { token: undefined, body: { name: 'No Token' } });
    await send('empty path token', { via: 'path', token: '', body: { name: 'No Token' } });
    await send('malformed token', { token: 'not-a-uuid', body: { name: 'Bad Token' } });
    await send('unknown token', { token: '00000000-0000-4000-8000-000000000000', body: { name: 'Unknown' } });
    await send('header and path tokens differ', {
      via: 'path',
      headers: { 'x-source-token': '00000000-0000-4000-8000-000000000000' },
      body: { name: 'Differ' },
    });
    for (const method of ['GET', 'PUT', 'DELETE', 'HEAD', 'OPTIONS']) {
      await send(`method ${method}`, { method, body: { name: 'Method' } });
    }
    await send('unknown path', { url: `${GATEWAY}/nowhere`, body: { name: 'Lost' } });

    // Booking-scheduler events, each story on a source of its own.
    const story = async (title: string, fixtures: BookingFixture[]) => {
      const s = await seedSource(t.db, `Golden ${title}`, 'America/Chicago');
      for (const [i, fixture] of fixtures.entries()) {
        await rec.run(t, `${title} ${i + 1}: ${fixture}`, {
          token: s.token,
          via: 'path',
          raw: bookingFixtureText(fixture),
        });
      }
    };
    await story('booking', ['invitee-created', 'invitee-created', 'invitee-canceled', 'invitee-canceled']);
    await story('cancel first', ['invitee-canceled', 'invitee-created']);
    await story('reschedule', [
      'invitee-created',
      'invitee-canceled-rescheduled',
      'invitee-created-rescheduled',
    ]);
    await story('reschedule, new booking first', [
      'invitee-created',
      'invitee-created-rescheduled',
      'invitee-canceled-rescheduled',
    ]);
    await story('no-show', [
      'invitee-created-questionnaire',
      'invitee-no-show-created',
      'invitee-no-show-created',
      'invitee-no-show-deleted',
      'invitee-no-show-deleted',
    ]);
    await story('unknown', ['invitee-no-show-created', 'routing-form-submission-created']);
    await story('nested', ['invitee-created-nested']);
    await send('an event name never seen', {
      body: { event: 'invitee.something_new', payload: { any: 'thing' } },
    });
    await send('an event without a name', {
      body: { event: 'invitee.created', payload: { uri: 'https://x.example/i/1' } },
    });
    const listenSrc = await seedSource(t.db, 'Golden listen events', 'America/Chicago');
    for (const fixture of [
      'invitee-created',
      'invitee-no-show-created',
      'routing-form-submission-created',
    ] as const) {
      const event = JSON.parse(bookingFixtureText(fixture)) as Record<string, unknown>;
      await rec.run(t, `listen event ${fixture}`, {
        token: listenSrc.token,
        via: 'path',
        body: { ...event, listen: true },
      });
    }

    // A source with a signing key.
    const signed = await seedSource(t.db, 'Golden signed', 'America/Chicago');
    await t.app.inject({
      method: 'PATCH',
      url: `/v1/admin/sources/${signed.source_id}`,
      headers: { authorization: `Bearer ${ADMIN_KEY}`, 'content-type': 'application/json' },
      payload: JSON.stringify({ signing_key: 'whsec_golden' }),
    });
    const raw = bookingFixtureText('invitee-created');
    await rec.run(t, 'unsigned event to a keyed source', { token: signed.token, via: 'path', raw });
    await rec.run(t, 'wrongly signed event', {
      token: signed.token,
      via: 'path',
      raw,
      headers: {
        'calendly-webhook-signature': signSchedulerPayload(raw, 'whsec_wrong', Math.floor(Date.now() / 1000)),
      },
    });
    await rec.run(t, 'plain lead to a keyed source', { token: signed.token, body: { name: 'Keyed Plain' } });

    // Rate limit: burst 1, so the second at once is refused.
    const l = await seedSource(limited.db, 'Golden limited', 'America/Chicago');
    await rec.run(limited, 'within the rate', { token: l.token, body: { name: 'Rate One' } });
    await rec.run(limited, 'over the rate', { token: l.token, body: { name: 'Rate Two' } });

    // Meta Lead Ads connected directly: the handshake and the signed envelope.
    const meta = await seedSource(t.db, 'Golden meta', 'America/Chicago');
    await t.app.inject({
      method: 'PATCH',
      url: `/v1/admin/sources/${meta.source_id}`,
      headers: { authorization: `Bearer ${ADMIN_KEY}`, 'content-type': 'application/json' },
      payload: JSON.stringify({ meta: { app_secret: 'golden-app-secret', verify_token: 'golden-verify' } }),
    });
    const hub = (query: string) => `${GATEWAY}/v/${meta.token}?hub.mode=subscribe&${query}`;
    await rec.run(t, 'meta handshake', {
      method: 'GET',
      url: hub('hub.verify_token=golden-verify&hub.challenge=4242'),
    });
    await rec.run(t, 'meta handshake, wrong verify token', {
      method: 'GET',
      url: hub('hub.verify_token=nope&hub.challenge=4242'),
    });
    const envelope = JSON.stringify({
      object: 'page',
      entry: [{ id: '1', changes: [{ field: 'leadgen', value: { leadgen_id: '4444', page_id: '1' } }] }],
    });
    await rec.run(t, 'meta envelope, unsigned', { token: meta.token, via: 'path', raw: envelope });
    await rec.run(t, 'meta envelope, signed', {
      token: meta.token,
      via: 'path',
      raw: envelope,
      headers: { 'x-hub-signature-256': signMetaPayload(envelope, 'golden-app-secret') },
    });

    await expect(rec.lines.join('\n')).toMatchFileSnapshot('./golden/delivery-answers.txt');
  });
});
