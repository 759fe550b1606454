/**
 * Dispatcher throughput: webhook events delivered per second to a local receiver.
 *   npm run bench:dispatcher                 # PGlite only
 *   BENCH_DATABASE_URL=postgres://postgres@127.0.0.1:5432/test npm run bench:dispatcher
 * Env: BENCH_LEADS (default 2000).
 *
 * As an operator would run it: a gateway process with its dispatcher off (`LEADGATE_DISPATCHER=0`)
 * takes BENCH_LEADS new leads (the bench's realistic lead, consenting to texts: each also gets a
 * call task and a speed-to-lead text) for a source with two destinations (partner sync and analytics), so
 * the outbox holds 2 × BENCH_LEADS events to send; then `leadgate worker` processes start and the
 * clock runs from their start-up line until the receiver has every event. On PostgreSQL it runs
 * once with one worker and once with two. The receiver answers 200 at once and counts repeats.
 * No timing is asserted anywhere; this is for the closing note and for spotting regressions.
 */
import { randomBytes } from 'node:crypto';
import { startReceiver } from '../test/support/receiver.ts';
import { lead } from './lead.ts';
import {
  provisionSource,
  startLeadgate,
  stopLeadgate as stop,
  withDataDir,
  withSchema,
} from './leadgate-process.ts';

const LEADS = Number(process.env.BENCH_LEADS ?? 2000);
const PG_URL = process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL;
const BASE_ENV = { LOG_LEVEL: 'info', LEADGATE_DISPATCHER: '0', ALLOW_PRIVATE_DESTINATIONS: 'true' };
const start = (command: 'serve' | 'worker', env: Record<string, string>, ready: RegExp) =>
  startLeadgate([command], { ...BASE_ENV, ...env }, ready);

interface Row {
  database: string;
  workers: number;
  events: number;
  seconds: number;
  'events/s': number;
  repeats: number;
}

/** Fills the outbox: LEADS new leads through a gateway whose dispatcher is off. */
async function fillOutbox(env: Record<string, string>, receiverUrl: string): Promise<void> {
  const { child, match } = await start('serve', env, /listening on (http:\/\/\S+)/);
  const url = match[1] ?? '';
  try {
    const source = await provisionSource(url, {
      partner_sync: `${receiverUrl}/partner_sync`,
      analytics: `${receiverUrl}/analytics`,
    });
    const run = randomBytes(3).toString('hex');
    let next = 0;
    const sender = async () => {
      while (next < LEADS) {
        const i = next++;
        const res = await fetch(`${url}/v1/inbound-lead-gateway`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'x-source-token': source.token },
          body: JSON.stringify(lead(run, i)),
        });
        if (!res.ok) throw new Error(`delivery ${i}: ${res.status} ${await res.text()}`);
      }
    };
    await Promise.all(Array.from({ length: 16 }, sender));
  } finally {
    await stop(child);
  }
}

/** Starts `workers` worker processes and times them until the receiver has every event. */
async function drain(database: string, workers: number, env: Record<string, string>): Promise<Row> {
  const receiver = await startReceiver();
  try {
    await fillOutbox(env, receiver.url);
    const events = LEADS * 2;
    const children = await Promise.all(
      Array.from({ length: workers }, () => start('worker', env, /leadgate worker started/)),
    );
    // The clock runs from the workers' start-up line (not their Node start-up); what arrived
    // before it is not counted.
    const started = performance.now();
    const early = receiver.received.length;
    try {
      const unique = () =>
        new Set(receiver.received.map((r) => `${r.path} ${String(r.headers['webhook-id'])}`));
      const deadline = Date.now() + 600_000;
      while (unique().size < events) {
        if (Date.now() > deadline) throw new Error(`only ${unique().size} of ${events} events arrived`);
        await new Promise((r) => setTimeout(r, 20));
      }
      const seconds = (performance.now() - started) / 1000;
      return {
        database,
        workers,
        events,
        seconds: Math.round(seconds * 100) / 100,
        'events/s': Math.round((events - early) / seconds),
        repeats: receiver.received.length - unique().size,
      };
    } finally {
      await Promise.all(children.map(({ child }) => stop(child)));
    }
  } finally {
    await receiver.close();
  }
}

const rows: Row[] = [];
rows.push(await withDataDir((dir) => drain('PGlite', 1, { DATA_DIR: dir, DATABASE_URL: '' })));
if (PG_URL) {
  for (const workers of [1, 2])
    rows.push(await withSchema(PG_URL, (url) => drain('PostgreSQL', workers, { DATABASE_URL: url })));
}
console.log(`\n${LEADS} leads, two destinations each (partner_sync, analytics), node ${process.version}`);
console.table(rows);
