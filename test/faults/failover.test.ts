import { afterAll, describe, expect, it } from 'vitest';
import { createDb, type Database } from '../../src/db/index.ts';
import { startReceiver } from '../support/receiver.ts';
import { Gateway } from './gateways.ts';
import { startReplicatedPair, type ReplicatedPair } from './replication.ts';
import { newStats, runJobs, type SenderStats } from './senders.ts';
import { adminPost, createSource, eventVerdict, failuresOf, loadJobs, verdict } from './verdicts.ts';

/**
 * Failover (docs/high-availability.md): two gateway processes on a primary and its synchronous
 * standby, named together in DATABASE_URL with target_session_attrs=read-write. The primary is
 * killed with kill -9 under load and the standby promoted while senders go on sending as the
 * contract tells them; then every acknowledged delivery must be on the new primary exactly once,
 * no answer a 500, and the first delivery must succeed within 5 s of the promotion. Then the old
 * primary comes back as a standby, and gateways started afresh with it first in the list write
 * only to the new primary. Prints one line: `failover: acked=… lost=… duplicated=… first_success_ms=…`.
 */
const CONTACTS = Number(process.env.FAULT_FAILOVER_CONTACTS ?? 1_200);
const AFTER_CONTACTS = 300;
const APP = 'leadgate-failover';
const lines: string[] = [];

afterAll(() => {
  process.stdout.write(`\n${lines.join('\n')}\n\n`);
});

const deliverOnce = (url: string, token: string, phone: string) =>
  fetch(`${url}/v1/inbound-lead-gateway`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-source-token': token },
    body: JSON.stringify({ name: `Token Check ${phone}`, phone }),
  }).then((res) => res.status);

const readyz = (url: string) =>
  fetch(`${url}/readyz`, { signal: AbortSignal.timeout(2_000) }).then(
    (res) => res.status,
    () => 0,
  );

describe('failover: the primary killed under load, its synchronous standby promoted', () => {
  let pair: ReplicatedPair | undefined;
  const gateways: Gateway[] = [];
  let receiver: Awaited<ReturnType<typeof startReceiver>> | undefined;
  let source: { agent_id: string; token: string } | undefined;
  let stats: SenderStats | undefined;

  afterAll(async () => {
    await Promise.all(gateways.map((g) => g.kill()));
    await pair?.stop();
    await receiver?.close();
  });

  it('When the primary is killed with kill -9 mid-load and the standby promoted, then every acknowledged delivery is on the new primary once, no answer is a 500, the first delivery succeeds within 5 s of the promotion, and a token regenerated just before is refused', async () => {
    pair = await startReplicatedPair();
    receiver = await startReceiver();
    const url = `postgres://postgres@127.0.0.1:${pair.a.port},127.0.0.1:${pair.b.port}/postgres?target_session_attrs=read-write&application_name=${APP}`;
    for (const name of ['gateway-a', 'gateway-b']) {
      const { gateway } = await Gateway.start(name, {
        DATABASE_URL: url,
        ALLOW_PRIVATE_DESTINATIONS: 'true',
        DELIVERY_RETRY_SCHEDULE: '0,200ms,500ms,1s,1s,1s,1s,1s,1s,1s',
      });
      gateways.push(gateway);
    }
    const urls = () => gateways.map((g) => g.url);
    source = await createSource(urls()[0] ?? '', `${receiver.url}/partner`);
    // Another agent's source, whose token each process has in memory when it is regenerated.
    const doomed = await createSource(urls()[0] ?? '');
    for (const [i, u] of urls().entries())
      expect(await deliverOnce(u, doomed.token, `31255510${i}0`)).toBe(200);

    stats = newStats();
    let newToken = '';
    let promotedAt = 0;
    const gapReadiness: number[] = [];
    const failover = async () => {
      newToken =
        (await adminPost(urls()[0] ?? '', `/sources/${doomed.source_id}/regenerate`, {}, 200)).token ?? '';
      pair?.killA();
      await new Promise((resolve) => setTimeout(resolve, 1_000)); // no primary for a second
      gapReadiness.push(...(await Promise.all(urls().map(readyz))));
      await pair?.promoteB();
      promotedAt = performance.now();
    };
    const running: Array<Promise<unknown>> = [];
    const jobs = loadJobs(stats, urls, source.token, CONTACTS);
    await runJobs(jobs, 16, (done, total) => {
      if (running.length === 0 && done / total >= 0.4) running.push(failover());
    });
    const chaosFailures = failuresOf(await Promise.allSettled(running));

    // The memory of tokens is re-checked on the new primary: the old token is dead, the new one lands.
    const tokenAnswers = await Promise.all(
      urls().flatMap((u, i) => [
        deliverOnce(u, doomed.token, `31255511${i}0`),
        deliverOnce(u, newToken, `31255512${i}0`),
      ]),
    );

    const db = await createDb({ databaseUrl: pair.b.url });
    try {
      const v = await verdict(db, source.agent_id, stats.acks);
      const e = await eventVerdict(db, source.agent_id, () => receiver?.received ?? [], 90_000);
      const firstSuccessMs =
        Math.min(...stats.acks.filter((a) => a.at > promotedAt).map((a) => a.at)) - promotedAt;
      const selfExits = gateways.reduce((n, g) => n + g.selfExits, 0);
      lines.push(
        `failover: acked=${v.acked} lost=${v.lost} duplicated=${v.duplicated} mismatched=${v.mismatched} ` +
          `first_success_ms=${Math.round(firstSuccessMs)} answers=${JSON.stringify(stats.statuses)} ` +
          `gave-up=${stats.gaveUp} ready-in-gap=${JSON.stringify(gapReadiness)} events=${e.events} ` +
          `undelivered=${e.undelivered} repeats=${e.repeats} out-of-order=${e.outOfOrder} self-exits=${selfExits}`,
      );
      expect(chaosFailures).toEqual([]);
      expect(selfExits, gateways.map((g) => g.log).join('\n')).toBe(0);
      expect(gapReadiness).toEqual([503, 503]);
      expect(stats.statuses[500] ?? 0).toBe(0);
      expect(stats.withoutRetryAfter).toBe(0);
      expect(stats.refused, JSON.stringify(stats.refused.slice(0, 3))).toEqual([]);
      expect(stats.gaveUp).toBe(0);
      expect(v).toMatchObject({ lost: 0, duplicated: 0, mismatched: 0 });
      expect(firstSuccessMs).toBeLessThan(5_000);
      expect(tokenAnswers).toEqual([401, 200, 401, 200]);
      expect(e.events).toBeGreaterThanOrEqual(CONTACTS);
      expect(e).toMatchObject({ undelivered: 0, outOfOrder: 0, withoutCreated: 0, notHandedOn: 0 });
    } finally {
      await db.close();
    }
  }, 240_000);

  it('When the old primary comes back as a standby and the processes start again with it first in the list, then they write only to the new primary', async () => {
    if (!pair || !source || !stats) throw new Error('the failover case did not run');
    await pair.rebuildAAsStandby();
    for (const g of gateways) await g.killAndRestart();
    const urls = () => gateways.map((g) => g.url);
    const after = newStats();
    // New contacts and repeats of the first load's, under keys of their own.
    const jobs = loadJobs(after, urls, source.token, CONTACTS + AFTER_CONTACTS).slice(-AFTER_CONTACTS);
    await runJobs(jobs, 8, () => undefined);

    const onB = await createDb({ databaseUrl: pair.b.url });
    const onA = await createDb({ databaseUrl: pair.a.url });
    try {
      const v = await verdict(onB, source.agent_id, [...stats.acks, ...after.acks]);
      const a = await standbyState(onA);
      lines.push(
        `failover, old primary back as a standby: acked=${after.acks.length} lost=${v.lost} duplicated=${v.duplicated} ` +
          `answers=${JSON.stringify(after.statuses)} old-primary-in-recovery=${a.inRecovery} gateway-sessions-on-it=${a.sessions}`,
      );
      expect(after.gaveUp).toBe(0);
      expect(after.refused).toEqual([]);
      expect(after.acks.length).toBeGreaterThanOrEqual(jobs.length);
      expect(after.statuses[500] ?? 0).toBe(0);
      expect(v).toMatchObject({ lost: 0, duplicated: 0, mismatched: 0 });
      expect(a).toEqual({ inRecovery: true, sessions: 0 });
    } finally {
      await onA.close();
      await onB.close();
    }
  }, 240_000);
});

/** Whether the old primary is a standby, and how many of the gateways' sessions it holds. */
async function standbyState(db: Database): Promise<{ inRecovery: boolean; sessions: number }> {
  const { rows } = await db.query<{ in_recovery: boolean; sessions: number }>(
    `SELECT pg_is_in_recovery() AS in_recovery,
            (SELECT count(*)::int FROM pg_stat_activity WHERE application_name = $1) AS sessions`,
    [APP],
  );
  return { inRecovery: rows[0]?.in_recovery === true, sessions: rows[0]?.sessions ?? -1 };
}
