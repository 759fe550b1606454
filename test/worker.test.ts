import { rmSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDb, migratedDataDir, TEST_DATABASE_URL, type TestDb } from './support/db.ts';
import { GATEWAY } from './support/deliver.ts';
import { startGatewayProcess, startWorkerProcess, type GatewayProcess } from './support/processes.ts';
import { startReceiver } from './support/receiver.ts';
import { signMetaPayload } from '../src/gateway/meta-envelope.ts';
import { leadgenEnvelope, startFakeGraph } from './support/fake-graph.ts';

/**
 * Where the dispatcher runs, as an operator runs it: inside `leadgate serve` by default, switched
 * off there with LEADGATE_DISPATCHER=0, and then run by `leadgate worker`. Real processes, on the
 * embedded database (one process at a time) or on PostgreSQL (a schema of its own).
 */
describe('the dispatcher in serve, switched off, and as a worker process', () => {
  let receiver: Awaited<ReturnType<typeof startReceiver>>;
  let testDb: TestDb | undefined;
  let dataDir: string | undefined;
  let env: Record<string, string>;
  const running: GatewayProcess[] = [];

  beforeAll(async () => {
    receiver = await startReceiver();
    if (TEST_DATABASE_URL) testDb = await createTestDb();
    else dataDir = migratedDataDir('leadgate-worker-');
    env = {
      ...(testDb ? { DATABASE_URL: testDb.url ?? '' } : { DATA_DIR: dataDir ?? '', DATABASE_URL: '' }),
      ADMIN_API_KEY: 'worker-test',
      LEADGATE_DEMO: '0',
      ALLOW_PRIVATE_DESTINATIONS: 'true',
      LOG_LEVEL: 'info',
    };
  });
  afterAll(async () => {
    await Promise.all(running.map((p) => p.stop()));
    await receiver.close();
    await testDb?.cleanup();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });

  const start = async (kind: 'serve' | 'worker', extra: Record<string, string> = {}) => {
    const p = await (kind === 'serve' ? startGatewayProcess : startWorkerProcess)({ ...env, ...extra });
    running.push(p);
    return p;
  };
  const stop = async (p: GatewayProcess) => {
    expect(await p.stop()).toBe(0);
    running.splice(running.indexOf(p), 1);
  };
  // As a sender does: a 503 (the process just started, busy) is tried again after its Retry-After.
  const post = async (url: string, path: string, body: object, headers: Record<string, string>) => {
    let res: Response;
    for (let tries = 1; ; tries++) {
      res = await fetch(`${url}${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...headers },
        body: JSON.stringify(body),
      });
      if (res.status !== 503 || tries === 5) break;
      await new Promise((resolve) => setTimeout(resolve, Number(res.headers.get('retry-after') ?? 1) * 1000));
    }
    expect(res.status, await res.clone().text()).toBeLessThan(300);
    return (await res.json()) as Record<string, string>;
  };
  const admin = (url: string, path: string, body: object) =>
    post(url, `/v1/admin${path}`, body, { authorization: 'Bearer worker-test' });
  const leadIds = () =>
    receiver.received.map((r) => (JSON.parse(r.body) as { data: { lead_id: string } }).data.lead_id);
  const until = async (check: () => boolean, what: string) => {
    const deadline = Date.now() + 20_000;
    while (!check()) {
      if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  };

  it('When serve runs with LEADGATE_DISPATCHER=0, then nothing is sent until `leadgate worker` runs; a serve with the default sends by itself', async () => {
    const quiet = await start('serve', { LEADGATE_DISPATCHER: '0' });
    const agent = await admin(quiet.url, '/agents', { name: 'Worker Agent' });
    const source = await admin(quiet.url, `/agents/${agent.agent_id}/sources`, { name: 'Worker Source' });
    await admin(quiet.url, `/sources/${source.source_id}/destinations`, {
      kind: 'partner_sync',
      url: `${receiver.url}/worker`,
    });
    const token = { 'x-source-token': source.token ?? '' };
    const first = await post(quiet.url, GATEWAY, { name: 'Quiet Quinn', phone: '2145550901' }, token);
    await new Promise((resolve) => setTimeout(resolve, 1_000)); // four idle polls of a dispatcher
    expect(receiver.received).toHaveLength(0);
    // The embedded database belongs to one process: the worker takes over from the server.
    if (!TEST_DATABASE_URL) await stop(quiet);

    const worker = await start('worker');
    await until(() => leadIds().includes(first.lead_id ?? ''), 'the worker to send the first lead');
    expect(receiver.received[0]?.headers['webhook-id']).toMatch(/^[0-9a-f-]{36}$/);
    await stop(worker);
    if (TEST_DATABASE_URL) await stop(quiet);

    const serve = await start('serve');
    const second = await post(serve.url, GATEWAY, { name: 'Busy Bea', phone: '2145550902' }, token);
    await until(() => leadIds().includes(second.lead_id ?? ''), 'serve to send the second lead');
    expect(leadIds()).toEqual([first.lead_id, second.lead_id]);
  }, 90_000);

  it('When an envelope reaches a serve with LEADGATE_DISPATCHER=0, then `leadgate worker` fetches it (with the same SECRETS_KEY); a serve with the default fetches by itself', async () => {
    // The embedded database belongs to one process: the first test's server goes first.
    await Promise.all(running.splice(0).map((p) => p.stop()));
    const graph = await startFakeGraph();
    const meta = { META_GRAPH_URL: graph.url, SECRETS_KEY: 'worker-test-secrets-key-0123456789abcdef' };
    try {
      const quiet = await start('serve', { ...meta, LEADGATE_DISPATCHER: '0' });
      const agent = await admin(quiet.url, '/agents', { name: 'Meta Worker Agent' });
      const source = await admin(quiet.url, `/agents/${agent.agent_id}/sources`, {
        name: 'Meta Worker Source',
      });
      const patched = await fetch(`${quiet.url}/v1/admin/sources/${source.source_id}`, {
        method: 'PATCH',
        headers: { authorization: 'Bearer worker-test', 'content-type': 'application/json' },
        body: JSON.stringify({ meta: { page_access_token: 'EAAG-worker', app_secret: 'worker-app-secret' } }),
      });
      expect(patched.status).toBe(200);
      const envelope = async (url: string, id: string) => {
        const body = leadgenEnvelope([id]);
        const res = await fetch(`${url}${GATEWAY}/v/${source.token}`, {
          method: 'POST',
          headers: {
            'content-type': 'application/json',
            'x-hub-signature-256': signMetaPayload(body, 'worker-app-secret'),
          },
          body,
        });
        expect(res.status).toBe(200);
      };
      await envelope(quiet.url, '700000000001');
      await new Promise((resolve) => setTimeout(resolve, 1_000));
      expect(graph.requests).toHaveLength(0);
      if (!TEST_DATABASE_URL) await stop(quiet);

      const worker = await start('worker', meta);
      await until(() => graph.requests.length === 1, 'the worker to fetch the lead');
      expect(graph.requests[0]?.accessToken).toBe('EAAG-worker');
      await stop(worker);
      if (TEST_DATABASE_URL) await stop(quiet);

      const serve = await start('serve', meta);
      await envelope(serve.url, '700000000002');
      await until(() => graph.requests.length === 2, 'serve to fetch the second lead');
      const leadNames = async () => {
        const res = await fetch(`${serve.url}/v1/admin/agents/${agent.agent_id}/leads`, {
          headers: { authorization: 'Bearer worker-test' },
        });
        return ((await res.json()) as { leads: Array<{ name: string }> }).leads.map((l) => l.name);
      };
      let names = await leadNames();
      for (const deadline = Date.now() + 20_000; names.length < 2 && Date.now() < deadline;) {
        await new Promise((resolve) => setTimeout(resolve, 50));
        names = await leadNames();
      }
      expect(names.sort()).toEqual(['Meta Lead 700000000001', 'Meta Lead 700000000002']);
    } finally {
      await graph.close();
    }
  }, 90_000);
});
