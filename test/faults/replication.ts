import { execFileSync } from 'node:child_process';
import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import pg from 'pg';
import { freePort, logTail, serverDir, serverTool } from './cluster.ts';

/** One server of the pair: its port, data directory and name (its `cluster_name`). */
export interface Node {
  name: string;
  port: number;
  data: string;
  url: string;
}

/**
 * A primary and a synchronous standby of the fault suite's own (docs/high-availability.md, "Try
 * it on one machine"): `a` waits at each commit until `b` has it on disk; `b` is a hot standby
 * made with `pg_basebackup -R`. Each on a free port, in one temp directory.
 */
export interface ReplicatedPair {
  a: Node;
  b: Node;
  /** `kill -9` of a's postmaster and every process of it at once: its machine is gone. */
  killA(): void;
  /** `pg_ctl promote -w` of b: resolves once b takes writes. */
  promoteB(): Promise<void>;
  /** a's data thrown away and made again from b with `pg_basebackup -R`: a is b's standby now. */
  rebuildAAsStandby(): Promise<void>;
  stop(): Promise<void>;
}

export async function startReplicatedPair(): Promise<ReplicatedPair> {
  const dir = serverDir('leadgate-faults-ha-');
  const logOf = (node: Node) => join(dir, `${node.name}.log`);
  const node = async (name: string): Promise<Node> => {
    const port = await freePort();
    return { name, port, data: join(dir, name), url: `postgres://postgres@127.0.0.1:${port}/postgres` };
  };
  const a = await node('a');
  const b = await node('b');
  const run = serverTool(() => `${logTail(logOf(a))}\n${logTail(logOf(b))}`);
  const start = (n: Node, settings = '') =>
    run('pg_ctl', [
      'start',
      '-w',
      '-t',
      '60',
      '-D',
      n.data,
      '-l',
      logOf(n),
      '-o',
      `-p ${n.port} -k ${dir} -c listen_addresses=127.0.0.1 -c max_connections=100 -c cluster_name=${n.name} ${settings}`,
    ]);
  /** A standby of `from` in `to`'s directory; it names itself to the primary by its cluster_name. */
  const baseBackup = (from: Node, to: Node) =>
    run('pg_basebackup', [
      '-h',
      '127.0.0.1',
      '-p',
      String(from.port),
      '-U',
      'postgres',
      '-D',
      to.data,
      '-R',
      '-X',
      'stream',
      '-c',
      'fast',
      '-N',
    ]);

  await run('initdb', ['-D', a.data, '-U', 'postgres', '-A', 'trust', '--no-sync', '-E', 'UTF8']);
  await start(a, `-c synchronous_standby_names=${b.name} -c synchronous_commit=on`);
  await baseBackup(a, b);
  await start(b);
  await untilStreaming(a, b.name, 'sync');

  const running = new Set([a, b]);
  return {
    a,
    b,
    killA() {
      const postmaster = Number(readFileSync(join(a.data, 'postmaster.pid'), 'utf8').split('\n')[0]);
      const children = execFileSync('ps', ['-o', 'pid=', '--ppid', String(postmaster)], { encoding: 'utf8' })
        .split('\n')
        .map(Number)
        .filter((pid) => pid > 0);
      for (const pid of [postmaster, ...children]) {
        try {
          process.kill(pid, 'SIGKILL');
        } catch {
          // already gone
        }
      }
      running.delete(a);
    },
    async promoteB() {
      await run('pg_ctl', ['promote', '-w', '-t', '60', '-D', b.data]);
    },
    async rebuildAAsStandby() {
      rmSync(a.data, { recursive: true, force: true });
      await baseBackup(b, a);
      await start(a);
      running.add(a);
      await untilStreaming(b, a.name, 'async');
    },
    async stop() {
      try {
        for (const n of running)
          await run('pg_ctl', ['stop', '-m', 'immediate', '-D', n.data]).catch(() => undefined);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    },
  };
}

/** Waits until `primary` streams to the standby named `name` in the given sync state. */
async function untilStreaming(primary: Node, name: string, state: 'sync' | 'async'): Promise<void> {
  const client = new pg.Client({ connectionString: primary.url });
  await client.connect();
  try {
    const deadline = Date.now() + 60_000;
    for (;;) {
      const { rows } = await client.query<{ sync_state: string }>(
        'SELECT sync_state FROM pg_stat_replication WHERE application_name = $1',
        [name],
      );
      if (rows[0]?.sync_state === state) return;
      if (Date.now() > deadline) throw new Error(`${name} is not streaming from ${primary.name} (${state})`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  } finally {
    await client.end();
  }
}
