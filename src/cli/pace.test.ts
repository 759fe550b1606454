import { describe, expect, it } from 'vitest';
import { createSender } from '@leadgate/sender';
import { createPace, type Clock } from './pace.ts';

/**
 * The importer's pace (pace.ts) with a scripted gateway and a fake clock: waits are recorded and
 * the clock moved on, never slept.
 */
function fakeClock() {
  let now = 1_000_000;
  const waits: number[] = [];
  const clock: Clock = {
    now: () => now,
    sleep: (ms) => {
      waits.push(ms);
      now += ms;
      return Promise.resolve();
    },
  };
  return { clock, waits, advance: (ms: number) => (now += ms) };
}

const ok = () =>
  new Response(JSON.stringify({ success: true, lead_id: 'l1', status: 'New', message: 'Lead created' }), {
    status: 200,
    headers: { 'content-type': 'application/json' },
  });
const busy = (retryAfter: string | null = '2') =>
  new Response(JSON.stringify({ error: 'Too many requests', error_code: 'RATE_LIMITED' }), {
    status: 429,
    headers: {
      'content-type': 'application/json',
      ...(retryAfter === null ? {} : { 'retry-after': retryAfter }),
    },
  });

/** A gateway answering each request with the next of `answers` (then the last), recording bodies. */
function scripted(answers: (() => Response)[]) {
  const sent: string[] = [];
  const fetch = ((_input: unknown, init?: RequestInit) => {
    sent.push(String(init?.body));
    return Promise.resolve((answers[sent.length - 1] ?? answers[answers.length - 1] ?? ok)());
  }) as typeof globalThis.fetch;
  return { fetch, sent };
}

describe('an import’s pace', () => {
  it('When the gateway answers 429, then the same request goes again after its Retry-After, and the sender sees one attempt', async () => {
    const { clock, waits } = fakeClock();
    const gateway = scripted([() => busy('2'), ok]);
    const pace = createPace(4, gateway.fetch, clock);
    const sender = createSender({ url: 'http://gateway', token: 't', fetch: pace.fetch });
    const result = await pace.run(() => sender.send({ name: 'Ann Lee', phone: '5125550100' }, { key: 'k1' }));
    expect(result).toMatchObject({ ok: true, outcome: 'created', attempts: 1 });
    expect(waits).toEqual([2_000]);
    expect(gateway.sent).toHaveLength(2);
    expect(gateway.sent[1]).toBe(gateway.sent[0]);
  });

  it('When the source stays busy for more 429s than the sender has attempts, then the row is still delivered', async () => {
    const { clock } = fakeClock();
    const gateway = scripted([...Array.from({ length: 9 }, () => () => busy('1')), ok]);
    const pace = createPace(4, gateway.fetch, clock);
    const sender = createSender({
      url: 'http://gateway',
      token: 't',
      fetch: pace.fetch,
      retry: { maxAttempts: 6 },
    });
    const result = await pace.run(() => sender.send({ name: 'Ann Lee' }, { key: 'k1' }));
    expect(result).toMatchObject({ ok: true, attempts: 1 });
    expect(gateway.sent).toHaveLength(10);
  });

  it('When a 429 has no Retry-After, then the rows hold for a second', async () => {
    const { clock, waits } = fakeClock();
    const pace = createPace(1, scripted([() => busy(null), ok]).fetch, clock);
    expect((await pace.fetch('http://gateway', { method: 'POST', body: '{}' })).status).toBe(200);
    expect(waits).toEqual([1_000]);
  });

  it('When a row is sent during a hold, then it waits for the hold to end before it goes', async () => {
    const { clock, waits, advance } = fakeClock();
    const pace = createPace(4, scripted([() => busy('3'), ok]).fetch, clock);
    // The first request is refused and held; the hold ends 3 s on. Another row, 1 s into it, waits 2 s.
    const first = pace.fetch('http://gateway', { method: 'POST', body: 'a' });
    await first;
    expect(waits).toEqual([3_000]);
    advance(-2_000); // back to 1 s after the 429
    await pace.fetch('http://gateway', { method: 'POST', body: 'b' });
    expect(waits).toEqual([3_000, 2_000]);
  });

  it('When a burst of rows is refused, then the rows in flight are halved once, and grow back with answers', async () => {
    const { clock } = fakeClock();
    // Eight requests sent together, all refused: one halving, not eight.
    let release: () => void = () => undefined;
    const gate = new Promise<void>((r) => (release = r));
    let calls = 0;
    const fetch = (async () => {
      calls++;
      if (calls <= 8) {
        await gate;
        return busy('1');
      }
      return ok();
    }) as typeof globalThis.fetch;
    const pace = createPace(8, fetch, clock);
    const sends = Array.from({ length: 8 }, (_, i) =>
      pace.run(() => pace.fetch('http://gateway', { method: 'POST', body: String(i) })),
    );
    await new Promise((r) => setImmediate(r));
    expect(calls).toBe(8);
    release();
    await Promise.all(sends);
    // Halved once to 4, then eight answers grew it by 1/4 + 1/4.25 + … to 5.69 (halved at each
    // 429, it would have fallen to 1 and grown to 4.34).
    expect(pace.window).toBeCloseTo(5.69, 2);
  });

  it('When the window is smaller than the rows waiting, then only that many are in flight at once', async () => {
    const { clock } = fakeClock();
    let inFlight = 0;
    let most = 0;
    let n = 0;
    const fetch = (async () => {
      n++;
      inFlight++;
      most = Math.max(most, inFlight);
      await new Promise((r) => setImmediate(r));
      inFlight--;
      return n === 1 ? busy('1') : ok();
    }) as typeof globalThis.fetch;
    const pace = createPace(8, fetch, clock);
    // One row first, refused: the window is halved to 4 before the others start.
    await pace.run(() => pace.fetch('http://gateway', { method: 'POST', body: 'first' }));
    most = 0;
    await Promise.all(
      Array.from({ length: 8 }, (_, i) =>
        pace.run(() => pace.fetch('http://gateway', { method: 'POST', body: String(i) })),
      ),
    );
    // Eight rows that could all have gone at once: at most the window (4, grown by the answers).
    expect(most).toBeGreaterThanOrEqual(4);
    expect(most).toBeLessThanOrEqual(Math.floor(pace.window));
    expect(most).toBeLessThan(8);
  });
});
