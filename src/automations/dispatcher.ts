import type { AutomationConfig } from '../config.ts';
import { LIMITS } from '../limits.ts';
import type { Database } from '../db/index.ts';
import { createRunner, didSomething, jobStep, type Step } from '../jobs/runner.ts';
import type { Metrics } from '../metrics/metrics.ts';
import { cadenceKind, type StepRound } from './cadence-steps.ts';
import { reassignUnclaimed } from './claim-timer.ts';
import { fanOut } from './fan-out.ts';
import { reminderKind, type ReminderRound } from './reminder-steps.ts';
import { textKind, type TextRound } from './send-texts.ts';
import { webhookKind, type WebhookRound } from './send-webhooks.ts';
import { createSmsProvider, type SmsProvider } from './sms-providers.ts';
import { textJobs, type HandedText } from './sms-repository.ts';
import { consentKind, type ConsentRound } from './verify-consent.ts';

export interface DispatchRound extends WebhookRound {
  dispatched: number;
  /** Leads of an agency the claim timer moved on. */
  reassigned: number;
  texts: TextRound;
  /** Consent checks answered by their providers this round. */
  consent: ConsentRound;
  /** Cadence steps that fell due: call tasks and texts made, skipped, moved later, plans stopped. */
  cadences: StepRound;
  /** Appointment reminders that fell due: texts made, skipped, moved later. */
  reminders: ReminderRound;
}

interface Log {
  info(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
}

export interface Dispatcher {
  /** One round: hand new outbox messages on, move unclaimed leads on, send due webhooks, send due texts. */
  runOnce(): Promise<DispatchRound>;
  /**
   * Rounds until stopped, in six loops (hand on and the claim timer; cadence steps; appointment
   * reminders; send webhooks; send texts; verify consent evidence), each at once after a full round
   * and every LIMITS.dispatcherPollMs otherwise (src/jobs' runner).
   */
  start(): void;
  /** Stops after the round in progress; texts handed to it and not sent go back to the queue. */
  stop(): Promise<void>;
}

/**
 * The dispatcher: the worker side of the transactional outbox. Any number of them may run on one
 * PostgreSQL (inside `leadgate serve`, or as `leadgate worker`): fan-out takes turns under an
 * advisory lock, and webhooks, texts and consent checks are kinds of job (src/jobs), claimed with
 * `FOR UPDATE SKIP LOCKED` and a lease, so none is sent by two at once, and one whose worker died
 * is taken over when its lease ends.
 */
export function createDispatcher(
  db: Database,
  config: AutomationConfig,
  log: Log,
  opts: { now?: () => Date; sms?: SmsProvider; leaseMs?: number; metrics?: Metrics } = {},
): Dispatcher {
  const sms = opts.sms ?? createSmsProvider({ ...config.sms, timeoutMs: LIMITS.outboundTimeoutMs });
  const jobs = { leaseMs: opts.leaseMs ?? LIMITS.dispatchLeaseMs, now: opts.now };
  // Texts the fan-out wrote already claimed for this worker, waiting for its text loop; at most
  // two rounds' worth (more are written scheduled, for any worker's claim), so a slow provider
  // cannot make them pile up in memory.
  const hand: HandedText[] = [];
  const counted = <R extends object>(step: Step<R>, metric: (r: R) => void): Step<R> => ({
    name: step.name,
    async round() {
      const round = await step.round();
      metric(round.result);
      return round;
    },
  });
  const webhooks = counted(
    jobStep(
      db,
      webhookKind({
        retrySchedule: config.retrySchedule,
        allowPrivateDestinations: config.allowPrivateDestinations,
        timeoutMs: LIMITS.outboundTimeoutMs,
        disableAfterMs: LIMITS.destinationDisableAfterMs,
        batch: LIMITS.dispatcherBatch,
      }),
      jobs,
    ),
    (sent) => {
      for (const outcome of ['delivered', 'failed', 'dead', 'gone'] as const)
        opts.metrics?.webhooks.inc({ outcome }, sent[outcome]);
    },
  );
  const texts = counted(
    jobStep(
      db,
      textKind(
        sms,
        { batch: LIMITS.dispatcherBatch, leaseMs: jobs.leaseMs, concurrency: LIMITS.textConcurrency },
        hand,
      ),
      jobs,
    ),
    (round) => {
      for (const outcome of ['sent', 'failed', 'suppressed', 'deferred'] as const)
        opts.metrics?.texts.inc({ outcome }, round[outcome]);
    },
  );
  const consent = jobStep(
    db,
    consentKind(config.consent ?? {}, {
      batch: LIMITS.consentCheckBatch,
      timeoutMs: LIMITS.outboundTimeoutMs,
      retryBaseMs: LIMITS.consentRetryBaseMs,
    }),
    jobs,
  );
  const cadences = jobStep(db, cadenceKind({ batch: LIMITS.dispatcherBatch }), jobs);
  const reminders = jobStep(db, reminderKind({ batch: LIMITS.dispatcherBatch }), jobs);
  const handOn: Step<{ dispatched: number; reassigned: number }> = {
    name: 'fan-out',
    async round() {
      const at = opts.now?.() ?? new Date();
      const room = 2 * LIMITS.dispatcherBatch - hand.length;
      const fanned = await fanOut(db, LIMITS.dispatcherBatch, at, { texts: room, leaseMs: jobs.leaseMs });
      hand.push(...fanned.texts);
      const reassigned = await reassignUnclaimed(db, at, LIMITS.dispatcherBatch);
      const found = fanned.dispatched + reassigned;
      return { result: { dispatched: fanned.dispatched, reassigned }, full: found >= LIMITS.dispatcherBatch };
    },
  };
  const runner = createRunner([handOn, cadences, reminders, webhooks, texts, consent], {
    pollMs: LIMITS.dispatcherPollMs,
    log,
    label: 'dispatcher',
  });

  return {
    async runOnce() {
      const { result: fanned } = await handOn.round();
      const { result: stepped } = await cadences.round();
      const { result: reminded } = await reminders.round();
      const { result: sent } = await webhooks.round();
      const { result: checked } = await consent.round();
      const { result: texted } = await texts.round();
      const round = {
        ...fanned,
        ...sent,
        texts: texted,
        consent: checked,
        cadences: stepped,
        reminders: reminded,
      };
      if (didSomething(round)) log.info({ dispatcher: round }, 'dispatcher round');
      return round;
    },
    start: () => runner.start(),
    async stop() {
      await runner.stop();
      try {
        await textJobs.release(db, hand.splice(0));
      } catch (err) {
        // Their lease runs out instead, and any worker claims them then.
        log.warn({ err }, 'dispatcher: texts handed to it not released');
      }
    },
  };
}
