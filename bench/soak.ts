/**
 * `npm run bench:soak`: does the server hold steady? One gateway process (PostgreSQL with
 * DATABASE_URL, BENCH_DATABASE_URL or TEST_DATABASE_URL, else the embedded database) with its
 * dispatcher delivering every event to a local webhook receiver (two destinations: partner sync and
 * analytics). First BENCH_SOAK_PROBE_SECONDS (default 10) of new leads at full speed find the
 * maximum rate; then new leads at half of it (or BENCH_SOAK_RATE req/s) for BENCH_SOAK_SECONDS
 * (default 600), the server's resident memory sampled every 5 s. Reports the memory after the
 * first minute, at the end and at its highest, whether it stayed within 10 % of the first-minute
 * figure, and whether the receiver got every event. Writes bench/results/soak.json. No timing is
 * asserted anywhere.
 */
import { randomBytes } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import autocannon from 'autocannon';
import { lead } from './lead.ts';
import {
  provisionSource,
  serverFigures,
  startLeadgate,
  stopLeadgate,
  withDataDir,
  withSchema,
} from './leadgate-process.ts';
import { rssMb } from './proc.ts';

const PG_URL = process.env.DATABASE_URL || process.env.BENCH_DATABASE_URL || process.env.TEST_DATABASE_URL;
const PROBE_SECONDS = Number(process.env.BENCH_SOAK_PROBE_SECONDS ?? 10);
const SOAK_SECONDS = Number(process.env.BENCH_SOAK_SECONDS ?? 600);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 50);
const GATEWAY = '/v1/inbound-lead-gateway';

/** A webhook receiver that answers 200 at once and only counts (a soak sends millions). */
async function countingReceiver() {
  let count = 0;
  const server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      count++;
      res.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    count: () => count,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

async function load(url: string, token: string, run: string, seconds: number, rate?: number) {
  let n = 0;
  return autocannon({
    url,
    connections: CONNECTIONS,
    duration: seconds,
    ...(rate ? { overallRate: rate } : {}),
    requests: [
      {
        setupRequest: (req) => {
          n += 1;
          return {
            ...req,
            method: 'POST',
            path: GATEWAY,
            headers: {
              'content-type': 'application/json',
              'x-source-token': token,
              'idempotency-key': `${run}-${n}`,
            },
            body: JSON.stringify(lead(run, n)),
          };
        },
      },
    ],
  });
}

async function soak(database: string, env: Record<string, string>) {
  const receiver = await countingReceiver();
  const { child, match } = await startLeadgate(
    ['serve'],
    { LOG_LEVEL: 'warn', ALLOW_PRIVATE_DESTINATIONS: 'true', ...env },
    /listening on (http:\/\/\S+)/,
  );
  const url = match[1] ?? '';
  try {
    const source = await provisionSource(url, {
      partner_sync: `${receiver.url}/partner_sync`,
      analytics: `${receiver.url}/analytics`,
    });
    const run = randomBytes(3).toString('hex');

    const probe = await load(url, source.token, `${run}p`, PROBE_SECONDS);
    const max = Math.round(probe.requests.average);
    const rate = Number(process.env.BENCH_SOAK_RATE ?? Math.round(max / 2));
    const probeStatuses = Object.values(probe.statusCodeStats ?? {}).reduce(
      (sum, s) => sum + (s.count ?? 0),
      0,
    );
    // The probe's follow-ups are sent first, so the soak starts from an empty outbox.
    await drain(url, receiver, 2 * probeStatuses);
    const before = receiver.count();

    const samples: Array<{ s: number; rss: number | null; heap: number; external: number; outbox: number }> =
      [];
    const t0 = Date.now();
    const sampler = setInterval(() => {
      void serverFigures(url).then((figures) =>
        samples.push({ s: Math.round((Date.now() - t0) / 1000), rss: rssMb([child.pid]), ...figures }),
      );
    }, 5_000);
    const result = await load(url, source.token, run, SOAK_SECONDS, rate);
    clearInterval(sampler);
    const ok = result.statusCodeStats?.['200']?.count ?? 0;
    const drainSeconds = await drain(url, receiver, before + 2 * ok);

    const rss = samples.map((s) => s.rss ?? 0);
    const afterFirstMinute = samples.filter((s) => s.s >= 60).map((s) => s.rss ?? 0);
    const baseline = afterFirstMinute[0] ?? rss[0] ?? 0;
    const end = rss.at(-1) ?? 0;
    const highest = Math.max(...afterFirstMinute, 0);
    // One sample can fall between two collections: the minutes' medians say whether it grew.
    const secondMinute = median(samples.filter((s) => s.s >= 60 && s.s < 120).map((s) => s.rss ?? 0));
    const lastMinute = median(samples.filter((s) => s.s > SOAK_SECONDS - 60).map((s) => s.rss ?? 0));
    return {
      database,
      'max req/s (probe)': max,
      'target req/s': rate,
      'req/s': Math.round(result.requests.average),
      'p99 ms': result.latency.p99,
      errors: result.errors + result.timeouts + result.non2xx,
      'RSS at 1 min MB': baseline,
      'RSS at end MB': end,
      'highest RSS after 1 min MB': highest,
      'flat within 10 %': highest <= baseline * 1.1,
      'median RSS, 2nd minute MB': secondMinute,
      'median RSS, last minute MB': lastMinute,
      'largest outbox': Math.max(...samples.map((s) => s.outbox), 0),
      'events expected': 2 * ok,
      'events received': receiver.count() - before,
      'drain after s': drainSeconds,
      samples,
    };
  } finally {
    await stopLeadgate(child);
    await receiver.close();
  }
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? 0;
}

/** Waits (at most 10 min) until the receiver has `events`; returns the seconds it took, or null. */
async function drain(url: string, receiver: { count(): number }, events: number): Promise<number | null> {
  const t0 = Date.now();
  while (Date.now() - t0 < 600_000) {
    if (receiver.count() >= events && (await serverFigures(url)).outbox === 0)
      return Math.round((Date.now() - t0) / 1000);
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  return null;
}

const report =
  PG_URL && process.env.BENCH_SOAK_DATABASE !== 'embedded'
    ? await withSchema(PG_URL, (url) => soak('PostgreSQL', { DATABASE_URL: url }))
    : await withDataDir((dir) => soak('embedded', { DATA_DIR: dir, DATABASE_URL: '' }));
const { samples, ...summary } = report;
console.log(`\nsoak: ${SOAK_SECONDS} s, ${CONNECTIONS} connections, node ${process.version}`);
console.table(samples.filter((_, i) => i % 12 === 0 || i === samples.length - 1));
console.table(Object.entries(summary).map(([figure, value]) => ({ figure, value })));
mkdirSync('bench/results', { recursive: true });
writeFileSync(
  'bench/results/soak.json',
  `${JSON.stringify({ at: new Date().toISOString(), seconds: SOAK_SECONDS, connections: CONNECTIONS, node: process.version, ...report }, null, 2)}\n`,
);
console.log('written: bench/results/soak.json');
