import { rmSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDb, migratedDataDir, TEST_DATABASE_URL, type TestDb } from './support/db.ts';
import { GATEWAY } from './support/deliver.ts';
import { startGatewayProcess, startWorkerProcess, type GatewayProcess } from './support/processes.ts';
import { startReceiver } from './support/receiver.ts';

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
  const post = async (url: string, path: string, body: object, headers: Record<string, string>) => {
    const res = await fetch(`${url}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      body: JSON.stringify(body),
    });
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
});
