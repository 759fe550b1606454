import { request } from 'node:http';
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TEST_DATABASE_URL } from './support/db.ts';
import { GATEWAY } from './support/deliver.ts';
import { runProcess, startGatewayProcess, type GatewayProcess } from './support/processes.ts';

// The embedded-database start-up path (what `npm start` runs); the PostgreSQL pass skips it.
describe.skipIf(TEST_DATABASE_URL)('a server on the embedded database', () => {
  let dataDir: string;
  let gw: GatewayProcess;

  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'leadgate-'));
    gw = await startGatewayProcess({ DATA_DIR: dataDir, DATABASE_URL: '', ADMIN_API_KEY: '' });
  }, 90_000);
  afterAll(async () => {
    await gw.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('when started the first time, then it prints the admin key, a demo token, both webhook URLs and a curl line that works', async () => {
    const out = gw.output();
    const key = readFileSync(join(dataDir, 'admin.key'), 'utf8').trim();
    expect(out).toContain(`Admin API key: ${key}`);
    expect(statSync(join(dataDir, 'admin.key')).mode & 0o777).toBe(0o600);
    // The key the sources' Meta secrets are sealed with: beside the database, never in it.
    expect(readFileSync(join(dataDir, 'secrets.key'), 'utf8').trim()).toMatch(/^[\w-]{43}$/);
    expect(statSync(join(dataDir, 'secrets.key')).mode & 0o777).toBe(0o600);
    const token = /Demo source token \(shown once\): (\S+)/.exec(out)?.[1] ?? '';
    expect(token).toHaveLength(36);
    expect(out).toContain(`${GATEWAY.slice(3)}/v/${token}`);
    const curl =
      /curl -s -X POST (\S+) -H 'content-type: application\/json' \\\n\s+-H 'x-source-token: (\S+)' \\\n\s+-d '(.+)'/.exec(
        out,
      );
    expect(curl?.[2]).toBe(token);
    const res = await fetch(gw.url + new URL(curl?.[1] ?? '').pathname, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-source-token': token },
      body: curl?.[3] ?? '',
    });
    expect(res.status).toBe(200);
    expect(((await res.json()) as { status: string }).status).toBe('New');
  });

  it('when a second server is started on the same DATA_DIR, then it stops with a clear error', async () => {
    const second = await runProcess({ DATA_DIR: dataDir, DATABASE_URL: '', ADMIN_API_KEY: '' });
    expect(second.code).not.toBe(0);
    expect(second.output).toMatch(/DATA_DIR .* is in use by another leadgate process \(pid \d+\)/);
    expect((await fetch(`${gw.url}/healthz`)).status).toBe(200);
  });

  it('when SIGTERM arrives during a delivery, then it is not ready at once, new requests get 503 with Retry-After, the delivery is finished and the process exits 0', async () => {
    const token = /Demo source token \(shown once\): (\S+)/.exec(gw.output())?.[1] ?? '';
    const { hostname, port } = new URL(gw.url);
    const body = JSON.stringify({ name: 'In Flight', phone: '2145550990' });
    let duringShutdown:
      | { ready: number; readyBody: unknown; post: number; retryAfter: string | null; postBody: unknown }
      | undefined;
    const answered = new Promise<{ status: number; body: string }>((resolve, reject) => {
      const req = request(
        {
          host: hostname,
          port,
          method: 'POST',
          path: GATEWAY,
          headers: {
            'content-type': 'application/json',
            'x-source-token': token,
            'content-length': body.length,
          },
        },
        (res) => {
          let text = '';
          res.on('data', (d: Buffer) => (text += d.toString()));
          res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text }));
        },
      );
      req.on('error', reject);
      // Half the body now, the rest after the signal: the request is in flight when it arrives.
      req.write(body.slice(0, 10));
      setTimeout(() => {
        gw.child.kill('SIGTERM');
        setTimeout(async () => {
          const ready = await fetch(`${gw.url}/readyz`);
          const post = await fetch(`${gw.url}${GATEWAY}`, {
            method: 'POST',
            headers: { 'content-type': 'application/json', 'x-source-token': token },
            body: JSON.stringify({ name: 'Too Late', phone: '2145550991' }),
          });
          duringShutdown = {
            ready: ready.status,
            readyBody: await ready.json(),
            post: post.status,
            retryAfter: post.headers.get('retry-after'),
            postBody: await post.json(),
          };
          req.end(body.slice(10));
        }, 100);
      }, 300);
    });
    const res = await answered;
    expect(res.status).toBe(200);
    expect(JSON.parse(res.body)).toMatchObject({ success: true, status: 'New' });
    expect(duringShutdown).toEqual({
      ready: 503,
      readyBody: { status: 'closing', database: 'pglite' },
      post: 503,
      retryAfter: '1',
      postBody: expect.objectContaining({ error_code: 'SERVICE_UNAVAILABLE' }),
    });
    expect(await gw.stop()).toBe(0);
  });

  it('when started again after the SIGTERM, then it finds its data and has no demo token to show', async () => {
    gw = await startGatewayProcess({ DATA_DIR: dataDir, DATABASE_URL: '', ADMIN_API_KEY: '' });
    expect(gw.output()).not.toContain('shown once');
    expect(gw.output()).toMatch(
      /Demo agent [0-9a-f-]{36}, lead source \S+ \(its token was shown on first start\)/,
    );
    expect(gw.output()).toMatch(/Agent console: http:\/\/127\.0\.0\.1:\d+\/console/);
  }, 90_000);
});
