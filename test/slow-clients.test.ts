import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LIMITS } from '../src/limits.ts';
import { createTestApp, seedSource, type TestApp } from './support/app.ts';
import { GATEWAY } from './support/deliver.ts';

// A client that sends part of a request and stops must not hold its connection forever: every
// request has LIMITS.requestTimeoutMs to arrive whole (here shortened), then it is answered 408
// REQUEST_TIMEOUT in the error shape and the connection is closed.

const TIMEOUT_MS = 600;
let t: TestApp;
let port: number;
let token: string;

beforeAll(async () => {
  t = await createTestApp({ requestTimeoutMs: TIMEOUT_MS });
  const url = new URL(await t.app.listen({ port: 0, host: '127.0.0.1' }));
  port = Number(url.port);
  token = (await seedSource(t.db, 'Slow Sender')).token;
});
afterAll(() => t.close());

/** Writes `parts` with `gapMs` between them, then waits for the server to answer and close; resolves with what it read and when. */
function slowRequest(parts: string[], gapMs: number) {
  return new Promise<{ text: string; closedAfterMs: number }>((resolve, reject) => {
    const started = Date.now();
    const socket = connect(port, '127.0.0.1');
    let text = '';
    socket.on('data', (d) => (text += d.toString()));
    socket.on('close', () => resolve({ text, closedAfterMs: Date.now() - started }));
    socket.on('error', reject);
    socket.setTimeout(10_000, () => socket.destroy(new Error(`still open after 10 s: ${text}`)));
    parts.forEach((part, i) => setTimeout(() => socket.write(part), i * gapMs));
  });
}

const head = (length: number) =>
  `POST ${GATEWAY} HTTP/1.1\r\nHost: x\r\nConnection: close\r\nContent-Type: application/json\r\n` +
  `x-source-token: ${token}\r\n` +
  `Content-Length: ${length}\r\n\r\n`;

describe('slow and stalled clients', () => {
  it('When a sender with a valid token sends 13 bytes of a 1,000-byte body and stops, then it is answered 408 REQUEST_TIMEOUT and closed', async () => {
    const { text, closedAfterMs } = await slowRequest([head(1000) + '{"name":"Sto'], 0);
    expect(text).toMatch(/^HTTP\/1\.1 408 /);
    expect(text).toContain('"error_code":"REQUEST_TIMEOUT"');
    expect(closedAfterMs).toBeGreaterThanOrEqual(TIMEOUT_MS - 50);
    expect(closedAfterMs).toBeLessThan(TIMEOUT_MS * 4);
  });

  it('When a client sends half its headers and stops, then it is answered 408 and closed', async () => {
    const { text } = await slowRequest([`POST ${GATEWAY} HTTP/1.1\r\nHost: x\r\nx-source`], 0);
    expect(text).toMatch(/^HTTP\/1\.1 408 /);
    expect(text).toContain('"error_code":"REQUEST_TIMEOUT"');
  });

  it('When many uploads stall at once, then every connection is closed', async () => {
    const stalled = await Promise.all(
      Array.from({ length: 50 }, () => slowRequest([head(1000) + '{"name":"Sto'], 0)),
    );
    expect(stalled.every((s) => s.text.startsWith('HTTP/1.1 408 '))).toBe(true);
  });

  it('When headers are over 16 KiB or the bytes are not HTTP, then the answer is in the error shape too', async () => {
    const big = await slowRequest(
      [`GET /healthz HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`],
      0,
    );
    expect(big.text).toMatch(/^HTTP\/1\.1 431 /);
    expect(big.text).toContain('"error_code":"HEADERS_TOO_LARGE"');
    const garbage = await slowRequest(['\u0000\u0001 nonsense\r\n\r\n'], 0);
    expect(garbage.text).toMatch(/^HTTP\/1\.1 400 /);
    expect(garbage.text).toContain('"error_code":"VALIDATION_ERROR"');
  });

  it('When the server runs with its own settings, then every request has LIMITS.requestTimeoutMs to arrive', async () => {
    const own = await createTestApp({ testDb: t.testDb });
    try {
      expect(own.app.server.requestTimeout).toBe(LIMITS.requestTimeoutMs);
      expect(LIMITS.requestTimeoutMs).toBe(30_000);
    } finally {
      await own.close();
    }
  });

  it('When a slow sender trickles its whole body in within the time, then the lead is created', async () => {
    const body = JSON.stringify({ name: 'Slow But Sure', phone: '2145550199' });
    const parts = [head(Buffer.byteLength(body)), ...(body.match(/.{1,12}/g) ?? [])];
    const { text } = await slowRequest(parts, TIMEOUT_MS / (parts.length * 2));
    expect(text).toMatch(/^HTTP\/1\.1 200 /);
    expect(text).toContain('"message":"Lead created"');
  });
});
