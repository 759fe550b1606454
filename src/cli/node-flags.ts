import { spawn } from 'node:child_process';
import { constants } from 'node:os';
import type { Config } from '../config.ts';

/**
 * The V8 heap settings a server wants (docs/decisions/0053-v8-heap-flags-at-start.md): its heap
 * may grow HEAP_GROWTH_PERCENT past what the last full collection kept, and an embedded server's
 * young generation stays within SEMI_SPACE_MB. V8 reads both only as node starts.
 */
export function serverNodeFlags(config: Pick<Config, 'heapGrowthPercent' | 'semiSpaceMb'>): string[] {
  const flags: string[] = [];
  if (config.heapGrowthPercent > 0) flags.push(`--heap-growing-percent=${config.heapGrowthPercent}`);
  if (config.semiSpaceMb > 0) flags.push(`--max-semi-space-size=${config.semiSpaceMb}`);
  return flags;
}

const SIGNALS: NodeJS.Signals[] = ['SIGINT', 'SIGTERM', 'SIGHUP'];
/** The launcher's pid, as the node it starts is told it. */
const LAUNCHER = 'LEADGATE_LAUNCHER_PID';

/** The node flags `serverNodeFlags` decides: any other a process was started with is left alone. */
const managed = (arg: string) =>
  arg.startsWith('--heap-growing-percent=') || arg.startsWith('--max-semi-space-size=');

/**
 * Runs this same command again, once, in a node started with `flags` (node 20 cannot replace its
 * own process), unless this one was started with exactly them (as `npm start` starts an embedded
 * server): resolves null then, for the caller to go on. Otherwise the child gets the arguments,
 * environment and standard streams, and every signal this process receives; this process ends as
 * the child ends, with its exit code.
 */
export async function relaunchWith(flags: readonly string[]): Promise<null> {
  const current = process.execArgv.filter(managed);
  if (current.length === flags.length && flags.every((flag) => current.includes(flag))) {
    // Started by a launcher: the two are one process to whoever started it. A launcher killed
    // (SIGKILL, which it cannot pass on) takes the server with it.
    if (process.channel && process.env[LAUNCHER] === String(process.ppid)) {
      process.channel.unref();
      process.once('disconnect', () => process.kill(process.pid, 'SIGKILL'));
    }
    return null;
  }
  const others = process.execArgv.filter((arg) => !managed(arg));
  const child = spawn(process.execPath, [...others, ...flags, ...process.argv.slice(1)], {
    stdio: ['inherit', 'inherit', 'inherit', 'ipc'],
    env: { ...process.env, [LAUNCHER]: String(process.pid) },
  });
  const forward = (signal: NodeJS.Signals) => child.kill(signal);
  for (const signal of SIGNALS) process.on(signal, forward);
  const [code, signal] = await new Promise<[number | null, NodeJS.Signals | null]>((resolve) =>
    child.once('exit', (c, s) => resolve([c, s])),
  );
  // A child ended by a signal ends this one as a shell reports it: 128 + the signal's number.
  process.exit(signal ? 128 + constants.signals[signal] : (code ?? 1));
}
