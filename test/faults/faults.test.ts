import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createDb } from '../../src/db/index.ts';
import { startReceiver } from '../support/receiver.ts';
import { startCluster, type Cluster } from './cluster.ts';
import { Gateway } from './gateways.ts';
import { newStats, runJobs } from './senders.ts';
import { createSource, eventVerdict, failuresOf, loadJobs, verdict } from './verdicts.ts';

/**
 * The fault suite (`npm run test:faults`): real senders against real gateway processes while the
 * processes are killed with `kill -9` and PostgreSQL is crashed and restarted, then every answer
 * the senders got is checked against the database, and every event handed on (and every lead's
 * `lead.created`) against what a webhook receiver got from the processes' dispatchers. Prints one
 * summary line.
 */
const CONTACTS = Number(process.env.FAULT_CONTACTS ?? 2_000);
const EMBEDDED_CONTACTS = Number(process.env.FAULT_EMBEDDED_CONTACTS ?? 600);
const summary: string[] = [];

afterAll(() => {
  process.stdout.write(`\nfault suite: ${summary.join(' | ')}\n\n`);
});

describe('faults: two gateway processes on PostgreSQL, killed and the database crashed under load', () => {
  let cluster: Cluster | undefined;
  const gateways: Gateway[] = [];
  let receiver: Awaited<ReturnType<typeof startReceiver>> | undefined;

  afterAll(async () => {
    await Promise.all(gateways.map((g) => g.kill()));
    await cluster?.stop();
    await receiver?.close();
  });

  it('When each process is killed with kill -9 and PostgreSQL is stopped immediately, twice, then no lead is lost, duplicated or mismatched, no process dies by itself, each is ready within 5 s of the database, and every event reaches the webhook receiver in each lead’s order', async () => {
    cluster = await startCluster();
    receiver = await startReceiver();
    const restarts: number[] = [];
    for (const name of ['gateway-a', 'gateway-b']) {
      const { gateway, readyMs } = await Gateway.start(name, {
        DATABASE_URL: cluster.url,
        // Both processes run the dispatcher (the default), so kills land mid-delivery too.
        ALLOW_PRIVATE_DESTINATIONS: 'true',
        DELIVERY_RETRY_SCHEDULE: '0,200ms,500ms,1s,1s,1s,1s,1s,1s,1s',
      });
      gateways.push(gateway);
      restarts.push(readyMs);
    }
    const { agent_id, token } = await createSource(gateways[0]?.url ?? '', `${receiver.url}/partner`);
    const stats = newStats();
    for (const g of gateways) g.onSelfExit = () => (stats.stopped = true);
    const urls = () => gateways.map((g) => g.url);

    const readyAfterDb: number[] = [];
    const restartCluster = async () => {
      await cluster?.restartImmediate();
      const back = performance.now();
      readyAfterDb.push(Math.max(...(await Promise.all(gateways.map((g) => g.untilReady(back))))));
    };
    const chaos: Array<[number, () => Promise<unknown>]> = [
      [0.15, async () => restarts.push(await (gateways[0] as Gateway).killAndRestart())],
      [0.35, async () => restarts.push(await (gateways[1] as Gateway).killAndRestart())],
      [0.55, restartCluster],
      [0.75, restartCluster],
    ];
    const running: Array<Promise<unknown>> = [];
    const jobs = loadJobs(stats, urls, token, CONTACTS);
    const started = performance.now();
    await runJobs(jobs, 16, (done, total) => {
      while (chaos[0] && done / total >= chaos[0][0])
        running.push((chaos.shift() as [number, () => Promise<unknown>])[1]());
    });
    const chaosFailures = failuresOf(await Promise.allSettled(running));
    const seconds = (performance.now() - started) / 1000;

    const db = await createDb({ databaseUrl: cluster.url });
    try {
      const v = await verdict(db, agent_id, stats.acks);
      // A process killed mid-delivery holds its claims for the 30-second lease: wait past it.
      const e = await eventVerdict(db, agent_id, () => receiver?.received ?? [], 90_000);
      const selfExits = gateways.reduce((n, g) => n + g.selfExits, 0);
      summary.push(
        `postgres contacts=${CONTACTS} acked=${v.acked} lost=${v.lost} duplicated=${v.duplicated} mismatched=${v.mismatched} ` +
          `refused=${stats.refused.length} gave-up=${stats.gaveUp} transient-answers=${stats.transient} self-exits=${selfExits} ` +
          `kills=${restarts.length - gateways.length} db-restarts=${readyAfterDb.length} ready-after-db-max=${readyAfterDb.length ? `${Math.round(Math.max(...readyAfterDb))}ms` : 'n/a'} ` +
          `restart-to-ready-max=${Math.round(Math.max(...restarts))}ms load=${seconds.toFixed(1)}s ` +
          `events=${e.events} undelivered=${e.undelivered} repeats=${e.repeats} out-of-order=${e.outOfOrder} ` +
          `leads-without-created=${e.withoutCreated} not-handed-on=${e.notHandedOn}`,
      );
      // Every kill, restart and crash of the database happened, and none failed.
      expect(chaosFailures).toEqual([]);
      expect(chaos).toHaveLength(0);
      expect(restarts).toHaveLength(gateways.length + 2);
      expect(selfExits, gateways.map((g) => g.log).join('\n')).toBe(0);
      expect(stats.refused, JSON.stringify(stats.refused.slice(0, 3))).toEqual([]);
      expect(v).toMatchObject({ lost: 0, duplicated: 0, mismatched: 0 });
      expect(e.events).toBeGreaterThanOrEqual(CONTACTS);
      expect(e).toMatchObject({ undelivered: 0, outOfOrder: 0, withoutCreated: 0, notHandedOn: 0 });
      expect(stats.gaveUp).toBe(0);
      expect(readyAfterDb).toHaveLength(2);
      for (const ms of readyAfterDb) expect(ms).toBeLessThan(5_000);
    } finally {
      await db.close();
    }
  }, 240_000);
});

describe('faults: a server on the embedded database killed with kill -9 under load', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'leadgate-faults-embedded-'));
  let gateway: Gateway | undefined;

  afterAll(async () => {
    await gateway?.kill();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('When the process is killed mid-load and started again, then every acknowledged lead is there, once', async () => {
    const started = await Gateway.start('embedded', { DATA_DIR: dataDir, DATABASE_URL: '' });
    gateway = started.gateway;
    const { agent_id, token } = await createSource(gateway.url);
    const stats = newStats();
    gateway.onSelfExit = () => (stats.stopped = true);
    let restartMs = 0;
    let killed = false;
    const running: Array<Promise<unknown>> = [];
    await runJobs(
      loadJobs(stats, () => [gateway?.url ?? ''], token, EMBEDDED_CONTACTS),
      8,
      (done, total) => {
        if (killed || done / total < 0.4) return;
        killed = true;
        running.push((gateway as Gateway).killAndRestart().then((ms) => (restartMs = ms)));
      },
    );
    const chaosFailures = failuresOf(await Promise.allSettled(running));
    await gateway.kill('SIGTERM'); // PGlite is one process's: read it after the server is gone
    const selfExits = gateway.selfExits;

    const db = await createDb({ pgliteDir: join(dataDir, 'pgdata') });
    try {
      const v = await verdict(db, agent_id, stats.acks);
      summary.push(
        `embedded contacts=${EMBEDDED_CONTACTS} acked=${v.acked} missing=${v.lost} duplicated=${v.duplicated} ` +
          `mismatched=${v.mismatched} self-exits=${selfExits} restart-to-ready=${Math.round(restartMs)}ms`,
      );
      expect(chaosFailures).toEqual([]);
      expect(killed).toBe(true);
      expect(restartMs).toBeGreaterThan(0);
      expect(selfExits, gateway.log).toBe(0);
      expect(stats.refused).toEqual([]);
      expect(v).toMatchObject({ lost: 0, duplicated: 0, mismatched: 0 });
      expect(stats.gaveUp).toBe(0);
    } finally {
      await db.close();
    }
  }, 240_000);
});
