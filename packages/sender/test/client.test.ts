import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import {
  createSender,
  parseRetryAfter,
  retryDelayMs,
  DEFAULT_RETRY,
  type AttemptEvent,
} from '../src/index.ts';

/**
 * The client against a real HTTP server whose answers the test scripts, one per request, and a
 * fake clock: waits are recorded, never slept.
 */
type Answer = (req: IncomingMessage, res: ServerResponse) => void;
interface Seen {
  key: string | undefined;
  token: string | undefined;
  url: string | undefined;
  body: Record<string, unknown>;
}

const servers: Server[] = [];
afterEach(async () => {
  await Promise.all(
    servers.splice(0).map((s) => {
      const closed = new Promise((r) => s.close(r));
      s.closeAllConnections(); // kept-alive sockets would hold close() for 5 s
      return closed;
    }),
  );
});

async function gateway(answers: Answer[]) {
  const seen: Seen[] = [];
  const server = createServer((req, res) => {
    let raw = '';
    req.on('data', (c: Buffer) => (raw += c.toString('utf8')));
    req.on('end', () => {
      seen.push({
        key: req.headers['idempotency-key'] as string | undefined,
        token: req.headers['x-source-token'] as string | undefined,
        url: req.url,
        body: JSON.parse(raw) as Record<string, unknown>,
      });
      const answer = answers[seen.length - 1] ?? answers[answers.length - 1];
      answer?.(req, res);
    });
  });
  servers.push(server);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, seen };
}

const json =
  (status: number, body: object, headers: Record<string, string> = {}): Answer =>
  (_req, res) =>
    res.writeHead(status, { 'content-type': 'application/json', ...headers }).end(JSON.stringify(body));
const created = json(200, {
  success: true,
  message: 'Lead created',
  listen: false,
  lead_id: 'L1',
  status: 'New',
});
const dropped: Answer = (req) => req.socket.destroy();

function fakeClock() {
  const waits: number[] = [];
  return {
    waits,
    sleep: async (ms: number) => {
      waits.push(ms);
    },
    now: () => Date.parse('2027-01-15T12:00:00Z'),
  };
}

const LEAD = { name: 'Jane Doe', phone: '(214) 555-0123', age: 64, smoker: false, tags: ['fb'] };

describe('the sender client', () => {
  it('When the gateway answers 500 twice then 200, then it tries three times with the same key, waiting 1 s then 2 s', async () => {
    const gw = await gateway([json(500, { error: 'x', error_code: 'SERVER_ERROR' }), json(500, {}), created]);
    const clock = fakeClock();
    const events: AttemptEvent[] = [];
    const result = await createSender({
      url: gw.url,
      token: 'tok',
      ...clock,
      onAttempt: (e) => events.push(e),
    }).send(LEAD);
    expect(result).toMatchObject({ ok: true, outcome: 'created', leadId: 'L1', attempts: 3 });
    expect(gw.seen.map((s) => s.key)).toEqual([result.key, result.key, result.key]);
    expect(result.key).toMatch(/^[0-9a-f-]{36}$/);
    expect(clock.waits).toEqual([1000, 2000]);
    expect(events.map((e) => [e.attempt, e.status, e.retryInMs])).toEqual([
      [1, 500, 1000],
      [2, 500, 2000],
      [3, 200, null],
    ]);
    expect(gw.seen[0]?.token).toBe('tok');
    expect(gw.seen[0]?.body).toEqual(LEAD);
  });

  it('When onAttempt is given to send(), then it hears every try of that send (after the client’s own), and other sends do not call it', async () => {
    const gw = await gateway([json(503, {}), created, created]);
    const clock = fakeClock();
    const order: string[] = [];
    const mine: AttemptEvent[] = [];
    const sender = createSender({
      url: gw.url,
      token: 'tok',
      ...clock,
      onAttempt: (e) => order.push(`client ${e.attempt}`),
    });
    await sender.send(LEAD, {
      onAttempt: (e) => {
        order.push(`send ${e.attempt}`);
        mine.push(e);
      },
    });
    await sender.send(LEAD);
    expect(mine.map((e) => [e.attempt, e.status])).toEqual([
      [1, 503],
      [2, 200],
    ]);
    expect(order).toEqual(['client 1', 'send 1', 'client 2', 'send 2', 'client 1']);
    expect(JSON.stringify(mine)).not.toContain('tok');
  });

  it('When the gateway refuses with details, then the result carries them', async () => {
    const gw = await gateway([
      json(400, {
        error: 'Missing required field: name is required',
        error_code: 'MISSING_NAME',
        details: 'name or first_name will do',
      }),
    ]);
    const result = await createSender({ url: gw.url, token: 'tok', ...fakeClock() }).send({
      email: 'x@example.com',
    });
    expect(result).toMatchObject({
      ok: false,
      reason: 'rejected',
      errorCode: 'MISSING_NAME',
      details: 'name or first_name will do',
    });
  });

  it('When the gateway answers 429 with Retry-After, then the wait is never shorter than it asks, even beyond the 30 s cap', async () => {
    const gw = await gateway([
      json(429, { error_code: 'RATE_LIMITED' }, { 'retry-after': '7' }),
      json(503, { error_code: 'SERVICE_UNAVAILABLE' }, { 'retry-after': '45' }),
      created,
    ]);
    const clock = fakeClock();
    const result = await createSender({ url: gw.url, token: 'tok', ...clock }).send(LEAD, { key: 'lead-42' });
    expect(result).toMatchObject({ ok: true, attempts: 3, key: 'lead-42' });
    expect(clock.waits).toEqual([7000, 45000]);
    expect(gw.seen.map((s) => s.key)).toEqual(['lead-42', 'lead-42', 'lead-42']);
  });

  it('When the connection drops, then it is retried like a 5xx', async () => {
    const gw = await gateway([dropped, created]);
    const clock = fakeClock();
    const result = await createSender({ url: gw.url, token: 'tok', ...clock }).send(LEAD);
    expect(result).toMatchObject({ ok: true, attempts: 2 });
    expect(clock.waits).toEqual([1000]);
  });

  it.each([400, 401, 405, 413, 422])(
    'When the gateway answers %i, then it is not retried: the result says rejected with the code',
    async (status) => {
      const gw = await gateway([json(status, { error: 'Nope', error_code: 'SOME_CODE' })]);
      const clock = fakeClock();
      const result = await createSender({ url: gw.url, token: 'tok', ...clock }).send(LEAD);
      expect(result).toMatchObject({
        ok: false,
        reason: 'rejected',
        status,
        errorCode: 'SOME_CODE',
        message: 'Nope',
        attempts: 1,
      });
      expect(gw.seen).toHaveLength(1);
      expect(clock.waits).toEqual([]);
    },
  );

  it('When every try fails, then it gives up after the policy’s tries with waits 1, 2, 4, 8, 16 s', async () => {
    const gw = await gateway([json(503, { error: 'busy', error_code: 'SERVICE_UNAVAILABLE' })]);
    const clock = fakeClock();
    const result = await createSender({ url: gw.url, token: 'tok', ...clock }).send(LEAD);
    expect(result).toMatchObject({
      ok: false,
      reason: 'gave_up',
      status: 503,
      errorCode: 'SERVICE_UNAVAILABLE',
      attempts: 6,
    });
    expect(clock.waits).toEqual([1000, 2000, 4000, 8000, 16000]);
    expect(new Set(gw.seen.map((s) => s.key)).size).toBe(1);
  });

  it('When the caller aborts during a wait, then it stops with reason aborted and sends nothing more', async () => {
    const gw = await gateway([json(503, {})]);
    const controller = new AbortController();
    const sender = createSender({
      url: gw.url,
      token: 'tok',
      sleep: async () => controller.abort(),
    });
    const result = await sender.send(LEAD, { signal: controller.signal });
    expect(result).toMatchObject({ ok: false, reason: 'aborted' });
    expect(gw.seen).toHaveLength(1);
  });

  it('When a try takes longer than its time limit, then that try fails and the next one goes', async () => {
    const gw = await gateway([() => undefined, created]); // the first never answers
    const clock = fakeClock();
    const result = await createSender({ url: gw.url, token: 'tok', timeoutMs: 100, ...clock }).send(LEAD);
    expect(result).toMatchObject({ ok: true, attempts: 2 });
  });

  it('When the token goes in the path, or Listen mode is asked, then the request says so', async () => {
    const gw = await gateway([json(200, { success: true, listen: true, message: 'Sample received' })]);
    const result = await createSender({ url: `${gw.url}/`, token: 'a b', tokenIn: 'path' }).send(LEAD, {
      listen: true,
    });
    expect(result).toMatchObject({ ok: true, outcome: 'listened', leadId: null });
    expect(gw.seen[0]).toMatchObject({
      url: '/v1/inbound-lead-gateway/v/a%20b',
      token: undefined,
      body: { ...LEAD, listen: true },
    });
  });

  it('When answers are merges or replays, then the outcome says which', async () => {
    const gw = await gateway([
      json(200, { success: true, message: 'Lead updated', lead_id: 'L1', resubmit: true }),
      json(200, { success: true, message: 'Lead created', lead_id: 'L1', idempotent_replay: true }),
    ]);
    const sender = createSender({ url: gw.url, token: 'tok' });
    expect(await sender.send(LEAD)).toMatchObject({ outcome: 'merged' });
    expect(await sender.send(LEAD)).toMatchObject({ outcome: 'replayed' });
  });
});

describe('the retry policy', () => {
  it('When Retry-After is seconds, an HTTP date or nonsense, then it reads as milliseconds, the time until then, or nothing', () => {
    const now = Date.parse('2027-01-15T12:00:00Z');
    expect(parseRetryAfter('3', now)).toBe(3000);
    expect(parseRetryAfter('Fri, 15 Jan 2027 12:00:10 GMT', now)).toBe(10_000);
    expect(parseRetryAfter('soon', now)).toBeNull();
    expect(parseRetryAfter(null, now)).toBeNull();
  });

  it('When retries go on, then the waits double up to 30 s', () => {
    expect([1, 2, 3, 4, 5, 6, 7].map((n) => retryDelayMs(n, DEFAULT_RETRY, null))).toEqual([
      1000, 2000, 4000, 8000, 16000, 30000, 30000,
    ]);
  });
});
