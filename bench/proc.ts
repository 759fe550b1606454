import { readdirSync, readFileSync, writeFileSync } from 'node:fs';

// What the bench reads about processes, from Linux's /proc; elsewhere every figure is null or 0.
// A server is a process tree: `serve --workers N` is a primary and its N workers, counted together.

function pids(): number[] {
  try {
    return readdirSync('/proc')
      .filter((d) => /^\d+$/.test(d))
      .map(Number);
  } catch {
    return [];
  }
}

function read(pid: number, file: string): string {
  try {
    return readFileSync(`/proc/${pid}/${file}`, 'utf8');
  } catch {
    return '';
  }
}

/** `pid` and every process below it. */
export function processTree(pid: number | undefined): number[] {
  if (pid === undefined) return [];
  const parent = new Map<number, number>();
  for (const p of pids()) parent.set(p, Number(read(p, 'stat').split(') ')[1]?.split(' ')[1]));
  const tree = [pid];
  for (let grew = true; grew;) {
    grew = false;
    for (const [p, ppid] of parent) {
      if (!tree.includes(p) && tree.includes(ppid)) {
        tree.push(p);
        grew = true;
      }
    }
  }
  return tree;
}

/** A server's processes: each of `pids` (its processes started apart) and every process below them. */
type Server = Array<number | undefined>;

/** The summed `field` (VmRSS now, VmHWM the peak since the last reset) of a server's processes, in MB. */
function memoryMb(server: Server, field: 'VmRSS' | 'VmHWM'): number | null {
  let kb = 0;
  for (const p of server.flatMap(processTree))
    kb += Number(new RegExp(`${field}:\\s+(\\d+)`).exec(read(p, 'status'))?.[1] ?? 0);
  return kb > 0 ? Math.round(kb / 1024) : null;
}

/** The server's peak resident memory since `resetPeakRss`, in MB (its processes' peaks, summed). */
export const peakRssMb = (server: Server) => memoryMb(server, 'VmHWM');
/** The server's resident memory now, in MB. */
export const rssMb = (server: Server) => memoryMb(server, 'VmRSS');

export function resetPeakRss(server: Server): void {
  for (const p of server.flatMap(processTree)) {
    try {
      writeFileSync(`/proc/${p}/clear_refs`, '5');
    } catch {
      // Not Linux, or not allowed: the peak then runs from the start of the process.
    }
  }
}

/** CPU seconds used so far by each of the processes `of` (clock ticks of 1/100 s). */
function cpuSeconds(of: number[]): Map<number, number> {
  const used = new Map<number, number>();
  for (const pid of of) {
    const fields = read(pid, 'stat').split(') ')[1]?.split(' ') ?? [];
    if (fields.length > 12) used.set(pid, (Number(fields[11]) + Number(fields[12])) / 100);
  }
  return used;
}

const postgresPids = () => pids().filter((p) => read(p, 'comm').trim() === 'postgres');

/**
 * Runs `fn`, and says how busy the server (its processes' trees), PostgreSQL and this process (the
 * load generator: near 100 %, it and not the server may be what limits the figure) were meanwhile, in %
 * of one core, and the CPU seconds the server and PostgreSQL used. A process that ended meanwhile
 * counts for nothing: a little is missed, never doubled.
 */
export async function withCpu<T>(serverPids: Server, fn: () => Promise<T>) {
  const server = serverPids.flatMap(processTree);
  const before = cpuSeconds([...server, ...postgresPids()]);
  const t0 = Date.now();
  const self0 = process.cpuUsage();
  const value = await fn();
  const self = process.cpuUsage(self0);
  const seconds = (Date.now() - t0) / 1000;
  const after = cpuSeconds([...server, ...postgresPids()]);
  let serverUsed = 0;
  let postgresUsed = 0;
  for (const [pid, end] of after) {
    const used = end - (before.get(pid) ?? 0);
    if (server.includes(pid)) serverUsed += used;
    else postgresUsed += used;
  }
  const pct = (s: number) => Math.round((s / seconds) * 100);
  const client = (self.user + self.system) / 1e6;
  return {
    value,
    server: pct(serverUsed),
    postgres: pct(postgresUsed),
    client: pct(client),
    used: { server: serverUsed, postgres: postgresUsed },
  };
}
