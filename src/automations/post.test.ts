import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { post } from './post.ts';

const servers: http.Server[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => new Promise((r) => s.close(r))));
});

async function serve(handler: http.RequestListener): Promise<string> {
  const server = http.createServer(handler);
  servers.push(server);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

const send = (url: string, extra: { timeoutMs?: number; readBody?: boolean; publicOnly?: boolean } = {}) =>
  post(url, { headers: { 'content-type': 'application/json' }, body: '{"é":1}', timeoutMs: 2_000, ...extra });

describe('post: the dispatcher’s outbound POST', () => {
  it('When a receiver answers, then its status comes back, the body was sent whole with its length, and connections are reused', async () => {
    const seen: Array<{ body: string; length: string | undefined; port: number | undefined }> = [];
    const url = await serve((req, res) => {
      let body = '';
      req.on('data', (c: Buffer) => (body += c.toString('utf8')));
      req.on('end', () => {
        seen.push({ body, length: req.headers['content-length'], port: req.socket.remotePort });
        res.writeHead(202).end('{"ok":true}');
      });
    });
    expect(await send(`${url}/a`)).toEqual({ status: 202, body: '' });
    expect(await send(`${url}/b`, { readBody: true })).toEqual({ status: 202, body: '{"ok":true}' });
    expect(seen.map((s) => [s.body, s.length])).toEqual([
      ['{"é":1}', '8'],
      ['{"é":1}', '8'],
    ]);
    expect(seen[1]?.port).toBe(seen[0]?.port);
  });

  it('When a receiver redirects, then the redirect is the answer and is not followed', async () => {
    let followed = 0;
    const target = await serve((_req, res) => {
      followed++;
      res.end();
    });
    const url = await serve((_req, res) => res.writeHead(302, { location: target }).end());
    expect((await send(url)).status).toBe(302);
    expect(followed).toBe(0);
  });

  it('When a receiver never answers, or stops half-way through its answer, then the POST fails within its time limit', async () => {
    const silent = await serve(() => undefined);
    await expect(send(silent, { timeoutMs: 200 })).rejects.toThrow(/no answer within 200 ms/);
    const halfway = await serve((_req, res) => {
      res.writeHead(200, { 'content-length': '100' });
      res.write('{"partial":');
      setTimeout(() => res.destroy(), 20);
    });
    await expect(send(halfway, { readBody: true })).rejects.toThrow();
  });

  it('When the address is unusable or nobody listens there, then the POST fails with a reason, not a crash', async () => {
    await expect(send('not a url')).rejects.toThrow(/invalid URL/);
    // Never quoted: the error is kept where agents see it, and a URL may carry a password.
    await expect(send('https://u:secret@sms.example.com:99999/x')).rejects.toThrow(/^invalid URL$/);
    await expect(send('ftp://127.0.0.1/x')).rejects.toThrow(/unsupported protocol/);
    await expect(send('http://127.0.0.1:1/')).rejects.toThrow(/ECONNREFUSED/);
  });
});

describe('post: public destinations only', () => {
  it('When the host resolves to a private address, then no connection is made and the reason is the error', async () => {
    let reached = false;
    const url = await serve((_req, res) => {
      reached = true;
      res.end();
    });
    const byName = url.replace('127.0.0.1', 'localhost');
    await expect(send(byName, { publicOnly: true })).rejects.toThrow(
      /non-public address \((127\.0\.0\.1|::1)\)/,
    );
    expect(reached).toBe(false);
    expect((await send(byName)).status).toBe(200); // the same host, private destinations allowed
  });
});
