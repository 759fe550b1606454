import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createDb, type Database } from '../../src/db/index.ts';
import { startReceiver } from '../support/receiver.ts';
import { startCluster, type Cluster } from './cluster.ts';
import { Gateway } from './gateways.ts';
import { deliver, newStats, runJobs, type Ack, type SenderStats } from './senders.ts';

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

/** Why each of the chaos steps that failed failed (a kill, a restart, a crash of the database). */
const failuresOf = (settled: PromiseSettledResult<unknown>[]) =>
  settled.flatMap((r) => (r.status === 'rejected' ? [String(r.reason)] : []));

afterAll(() => {
  process.stdout.write(`\nfault suite: ${summary.join(' | ')}\n\n`);
});

interface Verdict {
  acked: number;
  lost: number;
  duplicated: number;
  mismatched: number;
}

/** Every 200 has its lead, one lead per contact, and every answer about a contact names that lead. */
async function verdict(db: Database, agentId: string, acks: Ack[]): Promise<Verdict> {
  const { rows } = await db.query<{ lead_id: string; name: string }>(
    'SELECT lead_id, name FROM leads WHERE agent_id = $1',
    [agentId],
  );
  const leadIds = new Set(rows.map((r) => r.lead_id));
  const perName = new Map<string, number>();
  for (const r of rows) perName.set(r.name, (perName.get(r.name) ?? 0) + 1);
  const idsByContact = new Map<number, Set<string>>();
  for (const ack of acks)
    idsByContact.set(ack.contact, (idsByContact.get(ack.contact) ?? new Set()).add(ack.lead_id));
  return {
    acked: acks.length,
    lost: acks.filter((a) => !leadIds.has(a.lead_id)).length,
    duplicated: [...perName.values()].filter((n) => n > 1).length,
    mismatched: [...idsByContact.values()].filter((ids) => ids.size > 1).length,
  };
}

/** The jobs of one load: most contacts once; some to both processes at once with one key; some again later with a new key. */
function loadJobs(stats: SenderStats, urls: () => string[], token: string, contacts: number) {
  const jobs: Array<() => Promise<unknown>> = [];
  const later: Array<[number, () => Promise<unknown>]> = [];
  for (let c = 1; c <= contacts; c++) {
    const key = `contact-${c}-first`;
    const both = urls().length > 1 && c % 10 === 7;
    jobs.push(() =>
      both
        ? Promise.all([0, 1].map((first) => deliver(stats, urls(), token, c, key, 'first', first)))
        : deliver(stats, urls(), token, c, key, 'first', c),
    );
    if (c % 10 === 9) {
      later.push([c + 150, () => deliver(stats, urls(), token, c, `contact-${c}-again`, 'again', c + 1)]);
    }
  }
  for (const [at, job] of later.reverse()) jobs.splice(Math.min(at, jobs.length), 0, job);
  return jobs;
}

async function createSource(
  url: string,
  destinationUrl?: string,
): Promise<{ agent_id: string; token: string }> {
  const post = async (path: string, body: object) => {
    const res = await fetch(`${url}/v1/admin${path}`, {
      method: 'POST',
      headers: { authorization: 'Bearer fault-suite', 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    if (res.status !== 201) throw new Error(`${path}: ${res.status} ${await res.text()}`);
    return (await res.json()) as Record<string, string>;
  };
  const agent = await post('/agents', { name: 'Fault Agent', timezone: 'America/Chicago' });
  const source = await post(`/agents/${agent.agent_id}/sources`, { name: 'Fault Source' });
  if (destinationUrl)
    await post(`/sources/${source.source_id}/destinations`, { kind: 'partner_sync', url: destinationUrl });
  return { agent_id: agent.agent_id ?? '', token: source.token ?? '' };
}

interface EventVerdict {
  events: number;
  undelivered: number;
  repeats: number;
  outOfOrder: number;
  withoutCreated: number;
  notHandedOn: number;
}

/**
 * Waits (up to `timeoutMs`) until every outbox message of the agent is handed on and the receiver
 * got every event, then: how many never arrived, how many arrived more than once (allowed: at least
 * once), how many leads' events first arrived out of their order, how many leads have no
 * `lead.created` event, and how many messages were still not handed on. A message is deleted as it
 * is handed on, in the transaction that writes its webhook delivery (one destination: one delivery
 * a message, with its id, lead and order), so the events are read from the deliveries, and a lead
 * without its `lead.created` delivery is an event lost before it was handed on.
 */
async function eventVerdict(
  db: Database,
  agentId: string,
  received: () => Array<{ headers: Record<string, unknown> }>,
  timeoutMs: number,
): Promise<EventVerdict> {
  const deadline = Date.now() + timeoutMs;
  const pending = async () =>
    (await db.query<{ n: number }>('SELECT count(*)::int AS n FROM outbox WHERE agent_id = $1', [agentId]))
      .rows[0]?.n ?? 0;
  while ((await pending()) > 0 && Date.now() < deadline)
    await new Promise((resolve) => setTimeout(resolve, 250));
  const notHandedOn = await pending();
  const { rows } = await db.query<{ message_id: string; lead_id: string; seq: string }>(
    'SELECT message_id, lead_id, seq FROM webhook_deliveries WHERE agent_id = $1',
    [agentId],
  );
  const { rows: uncreated } = await db.query(
    `SELECT 1 FROM leads l WHERE l.agent_id = $1 AND NOT EXISTS (
       SELECT 1 FROM webhook_deliveries d WHERE d.agent_id = l.agent_id AND d.lead_id = l.lead_id AND d.topic = 'lead.created')`,
    [agentId],
  );
  const ids = () => received().map((r) => String(r.headers['webhook-id']));
  let missing = rows.length;
  for (;;) {
    const got = new Set(ids());
    missing = rows.filter((m) => !got.has(m.message_id)).length;
    if (missing === 0 || Date.now() > deadline) break;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  const all = ids();
  const message = new Map(rows.map((m) => [m.message_id, m]));
  const lastSeq = new Map<string, number>();
  let outOfOrder = 0;
  for (const id of new Set(all)) {
    const m = message.get(id);
    if (!m) continue;
    if (Number(m.seq) < (lastSeq.get(m.lead_id) ?? -1)) outOfOrder++;
    lastSeq.set(m.lead_id, Math.max(Number(m.seq), lastSeq.get(m.lead_id) ?? -1));
  }
  return {
    events: rows.length,
    undelivered: missing,
    repeats: all.length - new Set(all).size,
    outOfOrder,
    withoutCreated: uncreated.length,
    notHandedOn,
  };
}

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
