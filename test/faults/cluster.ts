import { execFileSync, spawn } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * A throwaway PostgreSQL cluster of the fault suite's own, in a temp directory on a free port, so
 * it can be killed and restarted without touching the machine's shared server. Built with the
 * machine's `initdb` and `pg_ctl`; as the `postgres` user when the tests run as root (PostgreSQL
 * refuses to run as root).
 */
export interface Cluster {
  url: string;
  port: number;
  /** `pg_ctl stop -m immediate` (a crash: no checkpoint, recovery on start), then start. */
  restartImmediate(): Promise<void>;
  stop(): Promise<void>;
}

export function postgresBinDir(): string {
  if (process.env.PG_BIN) return process.env.PG_BIN;
  try {
    const dir = execFileSync('pg_config', ['--bindir'], { encoding: 'utf8' }).trim();
    if (existsSync(join(dir, 'initdb'))) return dir;
  } catch {
    // no pg_config on the PATH: look where Debian puts the server binaries
  }
  const root = '/usr/lib/postgresql';
  const versions = existsSync(root) ? readdirSync(root).sort((a, b) => Number(b) - Number(a)) : [];
  for (const version of versions) {
    if (existsSync(join(root, version, 'bin', 'initdb'))) return join(root, version, 'bin');
  }
  throw new Error('PostgreSQL server binaries not found: set PG_BIN to the directory of initdb and pg_ctl');
}

export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/** A new temp directory the server's user owns (as root: the `postgres` user's). */
export function serverDir(prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  if (process.getuid?.() === 0) {
    const uid = Number(execFileSync('id', ['-u', 'postgres'], { encoding: 'utf8' }).trim());
    const gid = Number(execFileSync('id', ['-g', 'postgres'], { encoding: 'utf8' }).trim());
    chownSync(dir, uid, gid);
  }
  return dir;
}

/**
 * Runs one of the server's tools (initdb, pg_ctl, pg_basebackup) as the server's user, without
 * blocking: the senders in this process go on sending while PostgreSQL is down. A failure says
 * what the tool printed and `context()` (the server's log).
 */
export function serverTool(context: () => string) {
  const bin = postgresBinDir();
  const asRoot = process.getuid?.() === 0;
  return (tool: string, args: string[]) =>
    new Promise<void>((resolve, reject) => {
      const [command, argv] = asRoot
        ? ['runuser', ['-u', 'postgres', '--', join(bin, tool), ...args]]
        : [join(bin, tool), args];
      const child = spawn(command, argv as string[], { stdio: ['ignore', 'pipe', 'pipe'] });
      let output = '';
      child.stdout.on('data', (d: Buffer) => (output += d.toString()));
      child.stderr.on('data', (d: Buffer) => (output += d.toString()));
      child.once('error', reject);
      child.once('exit', (code) =>
        code === 0
          ? resolve()
          : reject(new Error(`${tool} ${args.join(' ')} failed (${code}):\n${output}\n${context()}`)),
      );
    });
}

/**
 * The last lines of a server's log but the refusals of connections while it starts: for a tool's
 * failure (why the server was not there to stop).
 */
export function logTail(file: string): string {
  try {
    const lines = readFileSync(file, 'utf8')
      .split('\n')
      .filter(
        (l) => !/the database system is (starting up|not yet accepting)|Consistent recovery state/.test(l),
      );
    return `${file}, last lines:\n${lines.slice(-40).join('\n')}`;
  } catch {
    return `no ${file}`;
  }
}

export async function startCluster(): Promise<Cluster> {
  const dir = serverDir('leadgate-faults-pg-');
  const data = join(dir, 'data');
  const run = serverTool(() => logTail(join(dir, 'postgres.log')));
  await run('initdb', ['-D', data, '-U', 'postgres', '-A', 'trust', '--no-sync', '-E', 'UTF8']);
  const port = await freePort();
  const options = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c max_connections=100`;
  const start = () =>
    run('pg_ctl', ['start', '-w', '-t', '60', '-D', data, '-l', join(dir, 'postgres.log'), '-o', options]);
  await start();
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    port,
    async restartImmediate() {
      await run('pg_ctl', ['stop', '-m', 'immediate', '-D', data]);
      await start();
    },
    async stop() {
      try {
        await run('pg_ctl', ['stop', '-m', 'fast', '-D', data]);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    },
  };
}
