import { spawn, type ChildProcess } from 'node:child_process';
import { createServer, type AddressInfo, type Server, type Socket, connect } from 'node:net';
import { fileURLToPath } from 'node:url';

/** How long a process may take to say it is ready. */
export const PROCESS_START_MS = 60_000;

// One process, TypeScript loaded in it: the tsx CLI would run the entry in a child of its own and
// relay signals, and under load it has relayed a SIGTERM as a kill (exit 143) before the child's
// own shutdown ran.
const TSX = ['--import', 'tsx'];
const ENTRY = fileURLToPath(new URL('./serve-process.ts', import.meta.url));
const WORKER_ENTRY = fileURLToPath(new URL('./worker-process.ts', import.meta.url));
const CLI_ENTRY = fileURLToPath(new URL('../../src/cli/main.ts', import.meta.url));
const BIN = fileURLToPath(new URL('../../bin/leadgate.js', import.meta.url));

export interface GatewayProcess {
  url: string;
  child: ChildProcess;
  output: () => string;
  stop(signal?: NodeJS.Signals): Promise<number | null>;
}

/** Starts a real gateway process and resolves once it listens (PORT=0: it picks a free port). */
export function startGatewayProcess(env: Record<string, string>): Promise<GatewayProcess> {
  return startProcess(ENTRY, env, /LISTENING (\S+)/);
}

/** Starts a real `leadgate worker` (the dispatcher alone) and resolves once it runs; `url` is empty. */
export function startWorkerProcess(env: Record<string, string>): Promise<GatewayProcess> {
  return startProcess(WORKER_ENTRY, env, /WORKER STARTED()/);
}

/** Starts `leadgate ARGS…` from the sources and resolves once its output matches `ready` (group 1: the URL). */
export function startCliProcess(
  args: string[],
  env: Record<string, string>,
  ready: RegExp,
): Promise<GatewayProcess> {
  return startProcess(CLI_ENTRY, env, ready, args);
}

/**
 * Starts `leadgate ARGS…` as `npm start` runs it (bin/leadgate.js: the compiled server in dist/,
 * built first if older than src/), for what a loader in the process would change.
 */
export function startBinProcess(
  args: string[],
  env: Record<string, string>,
  ready: RegExp,
): Promise<GatewayProcess> {
  return startProcess(BIN, env, ready, args, []);
}

async function startProcess(
  entry: string,
  env: Record<string, string>,
  ready: RegExp,
  args: string[] = [],
  nodeArgs: string[] = TSX,
): Promise<GatewayProcess> {
  const child = spawn(process.execPath, [...nodeArgs, entry, ...args], {
    // No shedding on event-loop delay, as in the in-process test app: a process started beside a
    // whole suite on two cores is slow to run, not saturated by its own work (test/overload.test.ts).
    env: {
      ...process.env,
      PORT: '0',
      HOST: '127.0.0.1',
      LOG_LEVEL: 'warn',
      RATE_LIMIT_RPS: '0',
      MAX_EVENT_LOOP_DELAY_MS: '0',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout?.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr?.on('data', (d: Buffer) => (out += d.toString()));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const url = await new Promise<string>((resolve, reject) => {
    // A first start on the embedded database (initdb, every migration) beside a whole suite on two
    // cores can take half a minute: the tests are about what it does, not how fast.
    const timer = setTimeout(() => {
      child.kill('SIGKILL'); // a process that did not start must not outlive the test
      reject(new Error(`process did not start:\n${out}`));
    }, PROCESS_START_MS);
    child.stdout?.on('data', () => {
      const m = ready.exec(out);
      if (m) {
        clearTimeout(timer);
        resolve(m[1] ?? '');
      }
    });
    void exited.then((code) => {
      clearTimeout(timer);
      reject(new Error(`process exited with ${code}:\n${out}`));
    });
  });
  return {
    url,
    child,
    output: () => out,
    async stop(signal = 'SIGTERM') {
      if (child.exitCode === null) child.kill(signal);
      return exited;
    },
  };
}

/** Runs a process to its end and returns its exit code and output. */
export function runProcess(env: Record<string, string>): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [...TSX, ENTRY], {
      env: { ...process.env, PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'warn', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (d: Buffer) => (output += d.toString()));
    child.stderr.on('data', (d: Buffer) => (output += d.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), 30_000);
    child.once('exit', (code) => {
      clearTimeout(timer);
      resolve({ code, output });
    });
  });
}

/**
 * A TCP proxy in front of PostgreSQL that a test can cut: `down()` drops every connection and
 * refuses new ones, like a database outage; `up()` lets connections through again.
 */
export async function startTcpProxy(targetPort: number, targetHost = '127.0.0.1') {
  const sockets = new Set<Socket>();
  let isDown = false;
  const server: Server = createServer((client) => {
    if (isDown) return client.destroy();
    const upstream = connect(targetPort, targetHost);
    sockets.add(client).add(upstream);
    const drop = () => {
      client.destroy();
      upstream.destroy();
      sockets.delete(client);
      sockets.delete(upstream);
    };
    client.on('error', drop).on('close', drop);
    upstream.on('error', drop).on('close', drop);
    client.pipe(upstream).pipe(client);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as AddressInfo).port,
    down() {
      isDown = true;
      for (const s of sockets) s.destroy();
      sockets.clear();
    },
    up() {
      isDown = false;
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}
