import fc from 'fast-check';
import { DateTime } from 'luxon';
import { describe, expect, it } from 'vitest';
import { contactRule, describeCallingHours, nextAllowedInstant } from './contact-window.ts';
import { checkDestinationUrl, isPublicAddress, publicOnlyLookup } from './destination-address.ts';
import { sha256, webhookBody } from './payloads.ts';
import { nextDelay } from '../jobs/retry-schedule.ts';
import { renderText } from './sms-template.ts';
import { planFollowUp, type FollowUpInput } from './speed-to-lead.ts';
import { FEDERAL_RULE, STATE_RULES, type ContactRule } from './tables/calling-hours.ts';

// The calendar way, step by step: today's opening, or tomorrow's once today's has passed.
function byTheCalendar(now: Date, zone: string, rule: ContactRule): Date {
  const local = DateTime.fromJSDate(now, { zone });
  const [h = 0, m = 0] = rule.start.split(':').map(Number);
  const [eh = 0, em = 0] = rule.end.split(':').map(Number);
  const opens = local.set({ hour: h, minute: m, second: 0, millisecond: 0 });
  const closes = local.set({ hour: eh, minute: em, second: 0, millisecond: 0 });
  if (local >= opens && local < closes) return now;
  return (local < opens ? opens : opens.plus({ days: 1 })).toJSDate();
}
describe('nextDelay: the retry schedule', () => {
  const schedule = [0, 5_000, 300_000];
  it.each([
    [0, 0],
    [1, 5_000],
    [2, 300_000],
    [3, null],
  ])('When %i attempts were made, then the next waits %s ms (no jitter)', (attempts, delay) => {
    expect(nextDelay(schedule, attempts, () => 0)).toBe(delay);
  });
  it('When jitter applies, then it adds at most 10 %', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 2 }),
        fc.double({ min: 0, max: 0.999, noNaN: true }),
        (attempts, r) => {
          const base = schedule[attempts] ?? 0;
          const delay = nextDelay(schedule, attempts, () => r) ?? -1;
          expect(delay).toBeGreaterThanOrEqual(base);
          expect(delay).toBeLessThanOrEqual(Math.round(base * 1.1));
        },
      ),
    );
  });
});

describe('calling hours', () => {
  it.each([
    ['inside the window', '2027-01-15T18:00:00Z', 'America/Chicago', null, '2027-01-15T18:00:00.000Z'],
    ['before 8:00', '2027-01-15T12:59:00Z', 'America/Chicago', null, '2027-01-15T14:00:00.000Z'],
    ['at 21:00 (closed)', '2027-01-16T03:00:00Z', 'America/Chicago', null, '2027-01-16T14:00:00.000Z'],
    ['at 20:59 federal', '2027-01-16T02:59:00Z', 'America/Chicago', null, '2027-01-16T02:59:00.000Z'],
    ['at 20:30 in Florida', '2027-01-16T01:30:00Z', 'America/New_York', 'FL', '2027-01-16T13:00:00.000Z'],
    ['at 20:30 in Oklahoma', '2027-01-16T02:30:00Z', 'America/Chicago', 'ok', '2027-01-16T14:00:00.000Z'],
    [
      'on the spring-forward night',
      '2027-03-14T07:30:00Z',
      'America/Chicago',
      null,
      '2027-03-14T13:00:00.000Z',
    ],
  ])(
    'When it is %s, then the first allowed instant is as the table says',
    (_label, now, zone, state, expected) => {
      expect(nextAllowedInstant(new Date(now), zone, contactRule(state)).toISOString()).toBe(expected);
    },
  );

  it('When any instant and zone are given, then the answer is never earlier, within a day, and inside the window there', () => {
    const zones = [
      'America/New_York',
      'America/Chicago',
      'America/Denver',
      'America/Phoenix',
      'America/Los_Angeles',
      'Pacific/Honolulu',
      'America/Anchorage',
    ];
    fc.assert(
      fc.property(
        fc.date({ min: new Date('2026-01-01'), max: new Date('2030-01-01'), noInvalidDate: true }),
        fc.constantFrom(...zones),
        fc.constantFrom(null, 'FL', 'WA', 'TX'),
        (now, zone, state) => {
          const rule = contactRule(state);
          const at = nextAllowedInstant(now, zone, rule);
          expect(at.getTime()).toBeGreaterThanOrEqual(now.getTime());
          expect(at.getTime() - now.getTime()).toBeLessThan(86_400_000);
          const local = new Intl.DateTimeFormat('en-GB', {
            timeZone: zone,
            hour: '2-digit',
            minute: '2-digit',
            hourCycle: 'h23',
          }).format(at);
          expect(local >= rule.start && local < rule.end).toBe(true);
        },
      ),
      { numRuns: 500 },
    );
  });

  it('When any instant and zone are given, then the answer is the one luxon reaches by setting the clock', () => {
    // Around the nights the clocks change, where a day is 23 or 25 hours long.
    const dstNights = [Date.UTC(2027, 2, 14, 0), Date.UTC(2027, 10, 7, 0), Date.UTC(2028, 2, 12, 0)];
    fc.assert(
      fc.property(
        fc.oneof(
          fc.integer({ min: Date.UTC(2026, 0, 1), max: Date.UTC(2030, 0, 1) }),
          fc
            .constantFrom(...dstNights)
            .chain((t) => fc.integer({ min: t - 86_400_000, max: t + 86_400_000 })),
        ),
        fc.constantFrom(
          'America/New_York',
          'America/Chicago',
          'America/Phoenix',
          'Pacific/Honolulu',
          'Europe/London',
        ),
        fc.constantFrom(null, 'FL', 'WA', 'TX'),
        (millis, zone, state) => {
          const now = new Date(millis);
          const rule = contactRule(state);
          expect(nextAllowedInstant(now, zone, rule).toISOString()).toBe(
            byTheCalendar(now, zone, rule).toISOString(),
          );
        },
      ),
      { numRuns: 2000 },
    );
  });

  it('When one instant is asked about in many zones and windows, in any order, then each answer is its own', () => {
    // A dispatcher's round asks for one `now`, lead after lead, and the answers for it are kept.
    fc.assert(
      fc.property(
        fc.integer({ min: Date.UTC(2026, 0, 1), max: Date.UTC(2030, 0, 1) }),
        fc.array(
          fc.tuple(
            fc.constantFrom('America/New_York', 'America/Chicago', 'Pacific/Honolulu', 'Europe/London'),
            fc.constantFrom(null, 'FL', 'WA', 'TX'),
          ),
          { minLength: 2, maxLength: 24 },
        ),
        (millis, asks) => {
          for (const [zone, state] of asks) {
            const now = new Date(millis);
            const rule = contactRule(state);
            const at = nextAllowedInstant(now, zone, rule);
            expect(at.toISOString()).toBe(byTheCalendar(now, zone, rule).toISOString());
            at.setTime(0); // a caller's change to an answer is its own
          }
        },
      ),
      { numRuns: 500 },
    );
  });

  it('When the table is read, then every state rule is at least as strict as the federal one and names its source', () => {
    for (const rule of Object.values(STATE_RULES)) {
      expect(rule.start >= FEDERAL_RULE.start && rule.end <= FEDERAL_RULE.end).toBe(true);
      expect(rule.source.length).toBeGreaterThan(20);
    }
  });
});

describe('calling hours in words', () => {
  it.each([
    ['FL', 'Florida: calls 8 a.m.–8 p.m.'],
    ['wa', 'Washington: calls 8 a.m.–8 p.m.'],
    ['TX', 'Federal rule: calls 8 a.m.–9 p.m. their time'],
    [null, 'Federal rule: calls 8 a.m.–9 p.m. their time'],
  ])('When the prospect’s state is %s, then the hours read “%s”', (state, words) => {
    expect(describeCallingHours(state)).toBe(words);
  });
});

describe('planFollowUp: speed to lead', () => {
  const base: FollowUpInput = {
    topic: 'lead.created',
    status: 'New',
    phone: '3125550100',
    first_name: 'Ann',
    state: 'IL',
    zone: 'America/Chicago',
    sms_consent: true,
    appointment: null,
    opted_out: false,
    texts_last_24h: 0,
    agent_name: 'Agent Ann',
    template: null,
    now: new Date('2027-01-15T18:00:00Z'),
  };
  it.each<[string, Partial<FollowUpInput>, boolean, string | null]>([
    ['a new lead with consent', {}, true, null],
    ['no consent', { sms_consent: false }, true, 'no SMS consent'],
    ['no phone', { phone: null }, false, 'no phone'],
    ['an opted-out number', { opted_out: true }, true, 'opted out'],
    ['a text in the last 24 hours', { texts_last_24h: 1 }, true, 'texted in the last 24 hours'],
    ['a repeat delivery', { topic: 'lead.updated' }, false, null],
    ['a canceled lead', { status: 'Canceled' }, false, 'not a lead to follow up'],
    ['an appointment event', { topic: 'appointment.booked' }, false, 'not a lead to follow up'],
  ])(
    'When it is %s, then the call task and the text are as the table says',
    (_label, change, callTask, skipped) => {
      const plan = planFollowUp({ ...base, ...change });
      expect(plan.callTask).toBe(callTask);
      if (skipped) expect(plan.text).toEqual({ skipped });
      else expect(plan.text).toMatchObject({ send_at: base.now });
    },
  );

  it('When any number of texts were sent in 24 hours, then a text is planned only for none: never past any state’s daily cap', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 10 }),
        fc.constantFrom(...Object.keys(STATE_RULES), null),
        (count, state) => {
          const plan = planFollowUp({ ...base, state, texts_last_24h: count });
          const cap = contactRule(state).maxPer24h ?? Number.POSITIVE_INFINITY;
          expect('send_at' in plan.text).toBe(count === 0);
          if ('send_at' in plan.text) expect(count + 1).toBeLessThanOrEqual(Math.min(1, cap));
        },
      ),
    );
  });
});

describe('texts', () => {
  it('When the template is rendered, then the placeholders are filled and unknown ones left as written', () => {
    const ctx = {
      agent_name: 'Dana',
      first_name: 'Sam',
      appointment: { scheduled_at: '2027-01-15T19:30:00.000Z', zone: 'America/Chicago' },
    };
    expect(renderText('{first_name}: {agent_name} at {appointment_time} {other}', ctx)).toBe(
      'Sam: Dana at Fri, Jan 15, 1:30 PM CST {other}',
    );
    expect(renderText(null, { ...ctx, first_name: null, appointment: null })).toContain(
      'Hi there, this is Dana',
    );
  });
});

describe('webhook bodies', () => {
  const event = {
    topic: 'lead.created',
    created_at: '2027-01-15T18:00:00.000Z',
    payload: { lead_id: 'L', source_id: 'S', status: 'New', name: 'Ann Lee' },
  };
  const lead = {
    lead_id: 'L',
    status: 'New',
    name: 'Ann Lee',
    email: ' Ann@Example.com',
    phone: '3125550100',
    socialclid: 'c1',
    user_agent: 'UA',
  };
  it('When the destination is partner sync, then it gets the event and the whole lead', () => {
    expect(webhookBody('partner_sync', event, lead)).toEqual({
      type: 'lead.created',
      timestamp: event.created_at,
      data: { ...event.payload, lead },
    });
  });
  it('When the destination is analytics, then no name, email or phone is in clear', () => {
    const body = webhookBody('analytics', event, lead);
    expect(JSON.stringify(body)).not.toMatch(/Ann|3125550100/);
    expect(body.data).toMatchObject({
      email_sha256: sha256('ann@example.com'),
      phone_sha256: sha256('+13125550100'),
      attribution: { socialclid: 'c1', user_agent: 'UA' },
    });
  });
});

describe('checkDestinationUrl', () => {
  it.each([
    ['http://127.0.0.1/x', false],
    ['http://10.0.0.1/x', false],
    ['http://172.16.5.4/x', false],
    ['http://192.168.1.1/x', false],
    ['http://169.254.169.254/x', false],
    ['http://100.64.0.1/x', false],
    ['http://[::1]/x', false],
    ['http://[fc00::1]/x', false],
    ['http://[fe80::1]/x', false],
    ['http://[::ffff:10.0.0.1]/x', false],
    ['http://0.0.0.0/x', false],
    ['https://8.8.8.8/hook', true],
    ['https://[2001:4860:4860::8888]/hook', true],
    ['https://user:pw@8.8.8.8/x', false],
    ['not a url', false],
  ])('When the destination is %s, then it may be called: %s', async (url, ok) => {
    expect((await checkDestinationUrl(url, false)).ok).toBe(ok);
  });
  it.each([
    // IPv4-compatible IPv6 (::/96): 127.0.0.1, 169.254.169.254 (cloud metadata), 10.0.0.1.
    ['::127.0.0.1', false],
    ['::7f00:1', false],
    ['::a9fe:a9fe', false],
    ['::a00:1', false],
    ['::8.8.8.8', false],
    // IPv4-mapped, NAT64, 6to4 and Teredo: other ways to an IPv4 host.
    ['::ffff:127.0.0.1', false],
    ['::ffff:7f00:1', false],
    ['::ffff:8.8.8.8', true],
    ['64:ff9b::a00:1', false],
    ['64:ff9b:1::a00:1', false],
    ['2002:a00:1::1', false],
    ['2001:0:4136:e378:8000:63bf:3fff:fdd2', false],
    // Local and special-purpose IPv6.
    ['::', false],
    ['::1', false],
    ['fe80::1', false],
    ['fe80::1%eth0', false],
    ['fc00::1', false],
    ['fd12:3456::1', false],
    ['ff02::1', false],
    ['100::1', false],
    ['2001:db8::1', false],
    ['2001:10::1', false],
    ['4000::1', false],
    // Special-purpose IPv4.
    ['0.0.0.0', false],
    ['255.255.255.255', false],
    ['224.0.0.1', false],
    ['192.0.0.8', false],
    ['198.18.0.1', false],
    ['240.0.0.1', false],
    // Public.
    ['8.8.8.8', true],
    ['2001:4860:4860::8888', true],
    ['2606:4700::1111', true],
    ['not an address', false],
  ])('When the address is %s, then it is public: %s', (address, expected) => {
    expect(isPublicAddress(address)).toBe(expected);
  });
  it.each(['::127.0.0.1', '::7f00:1', '::a9fe:a9fe', '::a00:1'])(
    'When a destination is http://[%s]:8080/x, then it is refused at add time and before a delivery',
    async (address) => {
      expect((await checkDestinationUrl(`http://[${address}]:8080/x`, false)).ok).toBe(false);
      expect((await checkDestinationUrl(`http://[${address}]:8080/x`, false, { resolve: false })).ok).toBe(
        false,
      );
    },
  );
  it('When private destinations are allowed, then a loopback address is accepted', async () => {
    expect(await checkDestinationUrl('http://127.0.0.1:9/x', true)).toEqual({ ok: true });
  });
  it('When a connection looks up a public address, then it gets it in the form it asked for; a private one is refused', async () => {
    const ask = (host: string, all: boolean) =>
      new Promise<unknown>((resolve) => {
        publicOnlyLookup(host, { all }, (err, address, family) => {
          resolve(err ? err.message : { address, family });
        });
      });
    expect(await ask('8.8.8.8', false)).toEqual({ address: '8.8.8.8', family: 4 });
    expect(await ask('8.8.8.8', true)).toEqual({
      address: [{ address: '8.8.8.8', family: 4 }],
      family: undefined,
    });
    expect(await ask('127.0.0.1', false)).toBe(
      'the host resolves to a non-public address (127.0.0.1); to send to a private network (a receiver on this machine, say), start the server with ALLOW_PRIVATE_DESTINATIONS=true',
    );
    expect(await ask('localhost', true)).toMatch(/non-public address/);
  });
  it('When checked before a delivery (no lookup), then an address in the URL is still refused and a host name is left to the connection', async () => {
    expect((await checkDestinationUrl('http://127.0.0.1/x', false, { resolve: false })).ok).toBe(false);
    expect((await checkDestinationUrl('http://[::1]/x', false, { resolve: false })).ok).toBe(false);
    expect((await checkDestinationUrl('http://localhost/x', false, { resolve: false })).ok).toBe(true);
    expect((await checkDestinationUrl('http://localhost/x', false)).ok).toBe(false);
  });
  it('When a destination on this machine is refused, then the reason names the switch that allows it', async () => {
    const refused = await checkDestinationUrl('http://127.0.0.1:9000/hook', false);
    expect(refused).toEqual({
      ok: false,
      reason: expect.stringContaining('ALLOW_PRIVATE_DESTINATIONS=true'),
    });
    expect(await checkDestinationUrl('http://127.0.0.1:9000/hook', true)).toEqual({ ok: true });
  });
});
