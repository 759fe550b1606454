import { isTransientDbError } from '../db/database.ts';
import type { Database } from '../db/index.ts';
import type { Claimed, JobQueue } from './queue.ts';

/**
 * A kind of job: its queue and what a worker does with the jobs it claims. Registering a kind with
 * a runner (`jobStep`) is all it takes for it to run wherever the worker runs.
 */
export interface JobKind<J extends Claimed, R extends object = object> {
  name: string;
  queue: JobQueue<J>;
  /** The most a round claims. */
  batch: number | (() => number);
  /**
   * Does the claimed jobs' work and writes each one's outcome (`queue.settle`); what came of them,
   * by outcome (logged when anything happened).
   */
  handle(db: Database, jobs: J[], at: Date | undefined): Promise<R>;
  /** Whether this worker holds a round's worth of its jobs in memory (texts the fan-out handed it): go again at once. */
  backlog?(): boolean;
}

/** One loop of a runner: a round, what it did, and whether it found a full batch (go again at once). */
export interface Step<R extends object = object> {
  name: string;
  round(): Promise<{ result: R; full: boolean }>;
}

export interface JobSettings {
  leaseMs: number;
  /** The moment a test names in place of the database's clock. */
  now?: () => Date;
}

/** A kind's loop: claim due jobs under a lease, hand them to the kind. */
export function jobStep<J extends Claimed, R extends object>(
  db: Database,
  kind: JobKind<J, R>,
  settings: JobSettings,
): Step<R> {
  return {
    name: kind.name,
    async round() {
      const at = settings.now?.();
      const batch = typeof kind.batch === 'number' ? kind.batch : kind.batch();
      const jobs = await kind.queue.claim(db, batch, settings.leaseMs, at);
      const result = await kind.handle(db, jobs, at);
      return { result, full: (batch > 0 && jobs.length >= batch) || (kind.backlog?.() ?? false) };
    },
  };
}

interface Log {
  info(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
}

export interface Runner {
  start(): void;
  /** Something is due for this step now: its next round starts at once rather than at the poll. */
  wake(name: string): void;
  /** Stops after the rounds in progress. */
  stop(): Promise<void>;
}

/**
 * Runs each step in a loop of its own, so none waits for another (a text provider answers in
 * hundreds of ms; a webhook must not wait for it). A loop goes again at once after a full round (a
 * backlog), and after `pollMs` otherwise: under a steady stream a round then takes all that came in
 * meanwhile for the same few statements. A round that throws is logged and tried at the next turn;
 * while the database is unavailable a step is paused (logged once) and resumes (logged) on its first
 * round that goes through.
 */
export function createRunner(
  steps: readonly Step<object>[],
  opts: { pollMs: number; log: Log; label: string },
): Runner {
  let stopped = true;
  const running = new Map<string, Promise<void>>();
  const timers = new Map<string, NodeJS.Timeout>();
  const again = new Set<string>();
  /** Steps whose rounds fail because the database is unavailable, and since when. */
  const pausedSince = new Map<string, number>();
  const turn = (step: Step<object>) => {
    if (stopped) return;
    if (running.has(step.name)) {
      again.add(step.name);
      return;
    }
    clearTimeout(timers.get(step.name));
    const going = (async () => {
      let full = false;
      try {
        const round = await step.round();
        full = round.full;
        if (didSomething(round.result))
          opts.log.info({ [opts.label]: { step: step.name, ...round.result } }, `${opts.label} round`);
        const since = pausedSince.get(step.name);
        if (since !== undefined) {
          pausedSince.delete(step.name);
          opts.log.info(
            { [opts.label]: { step: step.name, paused_ms: Date.now() - since } },
            `${opts.label} resumed: the database answers again`,
          );
        }
      } catch (err) {
        // One line for an outage (a restart, a failover), not one a round until it ends.
        if (!isTransientDbError(err)) opts.log.warn({ err }, `${opts.label} round failed; trying again`);
        else if (!pausedSince.has(step.name)) {
          pausedSince.set(step.name, Date.now());
          opts.log.warn({ err }, `${opts.label} paused: the database is unavailable`);
        }
      }
      running.delete(step.name);
      if (stopped) return;
      const now = full || again.delete(step.name);
      timers.set(
        step.name,
        setTimeout(() => turn(step), now ? 0 : opts.pollMs),
      );
    })();
    running.set(step.name, going);
  };
  return {
    start() {
      if (!stopped) return;
      stopped = false;
      for (const step of steps) turn(step);
    },
    wake(name) {
      const step = steps.find((s) => s.name === name);
      if (step) turn(step);
    },
    async stop() {
      stopped = true;
      for (const timer of timers.values()) clearTimeout(timer);
      timers.clear();
      await Promise.all(running.values());
    },
  };
}

/** Whether a round did anything worth a line in the log. */
export const didSomething = (tally: object): boolean =>
  Object.values(tally).some((v) =>
    typeof v === 'number' ? v > 0 : v !== null && typeof v === 'object' && didSomething(v),
  );
