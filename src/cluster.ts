import cluster, { type Worker } from 'node:cluster';
import { LIMITS } from './limits.ts';
import { type Config } from './config.ts';
import { printBanner } from './banner.ts';
import { prepareDatabase, startServer } from './server.ts';

/** Which worker a process is (0 … N-1): a restarted worker keeps the number of the one it replaces. */
const WORKER_INDEX = 'LEADGATE_WORKER_INDEX';

export class WorkersError extends Error {}

/**
 * `leadgate serve --workers N`: N gateway processes on one port (Node's cluster module hands each
 * new connection to the next worker). The primary process migrates the database, makes the admin
 * key and the demo source, starts the workers and prints the banner once they listen; it restarts
 * a worker that dies and, on SIGTERM or SIGINT, stops them all (each finishes its in-flight
 * requests) and exits 0. Only on PostgreSQL: the embedded database belongs to one process.
 *
 * Every worker is a full gateway, so what holds for several processes holds here: idempotency,
 * dedupe and revocation are decided by the database; the rate limit is per process. The dispatcher
 * runs in worker 0 only (unless LEADGATE_DISPATCHER=0), one poller rather than N.
 */
export async function serveWithWorkers(config: Config, workers: number): Promise<void> {
  if (!config.databaseUrl) {
    throw new WorkersError(
      '--workers needs DATABASE_URL: the embedded database is opened by one process only',
    );
  }
  if (cluster.isWorker) return runWorker(config);

  const { admin, demo } = await prepareDatabase(config);
  const write = (line: string) => process.stdout.write(`${line}\n`);
  let stopping = false;
  const crashes: number[] = [];

  const fork = (index: number): Worker => {
    const worker = cluster.fork({ [WORKER_INDEX]: String(index) });
    worker.once('exit', (code, signal) => {
      if (stopping) return;
      // A worker that keeps dying right away (a bad config, a database refusing logins) is
      // restarted more and more slowly, up to once every LIMITS.workerRestartMaxMs.
      const now = Date.now();
      crashes.push(now);
      while ((crashes[0] ?? now) < now - 60_000) crashes.shift();
      const delay = Math.min(LIMITS.workerRestartMaxMs, 250 * 2 ** (crashes.length - 1));
      write(
        `worker ${index} (pid ${worker.process.pid}) exited (${signal ?? code}); restarting it in ${delay} ms`,
      );
      setTimeout(() => {
        if (!stopping) announce(fork(index), index);
      }, delay);
    });
    return worker;
  };
  const announce = (worker: Worker, index: number) =>
    new Promise<string>((resolve) => {
      worker.on('message', (message: { listening?: string }) => {
        if (typeof message.listening !== 'string') return;
        write(`worker ${index} (pid ${worker.process.pid}) listening`);
        resolve(message.listening);
      });
    });

  const stopAll = async (signal: NodeJS.Signals) => {
    stopping = true;
    write(`${signal}: stopping ${Object.keys(cluster.workers ?? {}).length} workers`);
    const exits = Object.values(cluster.workers ?? {}).map(
      (worker) =>
        new Promise<number | null>((resolve) => {
          if (!worker || worker.isDead()) return resolve(0);
          worker.once('exit', (code) => resolve(code));
          worker.process.kill('SIGTERM');
        }),
    );
    const codes = await Promise.all(exits);
    process.exit(codes.every((code) => code === 0) ? 0 : 1);
  };
  for (const signal of ['SIGTERM', 'SIGINT'] as const) {
    process.on(signal, () => {
      if (!stopping) void stopAll(signal);
      else if (signal === 'SIGINT') process.exit(130);
    });
  }

  const urls = await Promise.all(Array.from({ length: workers }, (_, index) => announce(fork(index), index)));
  printBanner(config, urls[0] ?? '', admin, demo);
  write(
    `${workers} workers, pids ${Object.values(cluster.workers ?? {})
      .map((w) => w?.process.pid)
      .join(', ')}`,
  );
}

/** One worker: a gateway without banner or demo, which tells the primary where it listens. */
async function runWorker(config: Config): Promise<void> {
  const index = Number(process.env[WORKER_INDEX] ?? 0);
  const server = await startServer(
    {
      ...config,
      createDemo: false,
      automations: {
        ...config.automations,
        dispatcherInServe: config.automations.dispatcherInServe && index === 0,
      },
    },
    { banner: false },
  );
  process.send?.({ listening: server.url });
  // The primary gone (killed, say): nobody would restart or stop this worker, so it stops itself.
  process.once('disconnect', () => {
    void server.stop().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  });
}
