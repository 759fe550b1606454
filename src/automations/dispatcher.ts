import type { AutomationConfig } from '../config.ts';
import { LIMITS } from '../limits.ts';
import { isTransientDbError } from '../db/database.ts';
import type { Database } from '../db/index.ts';
import type { Metrics } from '../metrics/metrics.ts';
import { reassignUnclaimed } from './claim-timer.ts';
import { fanOut } from './fan-out.ts';
import { fromHand, sendDueTexts, type TextRound } from './send-texts.ts';
import { sendDueWebhooks, type WebhookRound } from './send-webhooks.ts';
import { createSmsProvider, type SmsProvider } from './sms-providers.ts';
import { releaseTexts, type HandedText } from './sms-repository.ts';
import { verifyDueConsent, type ConsentRound } from './verify-consent.ts';

export interface DispatchRound extends WebhookRound {
  dispatched: number;
  /** Leads of an agency the claim timer moved on. */
  reassigned: number;
  texts: TextRound;
  /** Consent checks answered by their providers this round. */
  consent: ConsentRound;
}

interface Log {
  info(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
}

export interface Dispatcher {
  /** One round: hand new outbox messages on, move unclaimed leads on, send due webhooks, send due texts. */
  runOnce(): Promise<DispatchRound>;
  /**
   * Rounds until stopped, in four loops (hand on and the claim timer; send webhooks; send texts;
   * verify consent evidence),
   * each at once after a full round and every LIMITS.dispatcherPollMs otherwise.
   */
  start(): void;
  /** Stops after the round in progress; texts handed to it and not sent go back to the queue. */
  stop(): Promise<void>;
}

/**
 * The dispatcher: the worker side of the transactional outbox. Any number of them may run on one
 * PostgreSQL (inside `leadgate serve`, or as `leadgate worker`): fan-out takes turns under an
 * advisory lock, and deliveries and texts are claimed with `FOR UPDATE SKIP LOCKED` and a lease,
 * so none is sent by two at once, and one whose worker died is taken over when its lease ends.
 */
export function createDispatcher(
  db: Database,
  config: AutomationConfig,
  log: Log,
  opts: { now?: () => Date; sms?: SmsProvider; leaseMs?: number; metrics?: Metrics } = {},
): Dispatcher {
  const now = opts.now ?? (() => new Date());
  const sms = opts.sms ?? createSmsProvider({ ...config.sms, timeoutMs: LIMITS.outboundTimeoutMs });
  const webhooks = {
    retrySchedule: config.retrySchedule,
    allowPrivateDestinations: config.allowPrivateDestinations,
    timeoutMs: LIMITS.outboundTimeoutMs,
    leaseMs: opts.leaseMs ?? LIMITS.dispatchLeaseMs,
    disableAfterMs: LIMITS.destinationDisableAfterMs,
    batch: LIMITS.dispatcherBatch,
  };
  // Texts the fan-out wrote already claimed for this worker, waiting for its text loop; at most
  // two rounds' worth (more are written scheduled, for any worker's claim), so a slow provider
  // cannot make them pile up in memory.
  const handed: HandedText[] = [];
  const handOn = async (at: Date) => {
    const room = 2 * LIMITS.dispatcherBatch - handed.length;
    const round = await fanOut(db, LIMITS.dispatcherBatch, at, { texts: room, leaseMs: webhooks.leaseMs });
    handed.push(...round.texts);
    return round.dispatched;
  };
  const sendWebhooks = async (): Promise<WebhookRound> => {
    const sent = await sendDueWebhooks(db, webhooks);
    for (const outcome of ['delivered', 'failed', 'dead', 'gone'] as const)
      opts.metrics?.webhooks.inc({ outcome }, sent[outcome]);
    return sent;
  };
  const sendTexts = async (at: Date): Promise<TextRound> => {
    const texts = await sendDueTexts(db, sms, {
      now: at,
      batch: LIMITS.dispatcherBatch,
      leaseMs: webhooks.leaseMs,
      concurrency: LIMITS.textConcurrency,
      handed: handed.splice(0, fromHand(LIMITS.dispatcherBatch)),
    });
    for (const outcome of ['sent', 'failed', 'suppressed', 'deferred'] as const)
      opts.metrics?.texts.inc({ outcome }, texts[outcome]);
    return texts;
  };
  const verifyConsent = (at: Date): Promise<ConsentRound> =>
    verifyDueConsent(db, config.consent ?? {}, {
      now: at,
      batch: LIMITS.consentCheckBatch,
      leaseMs: webhooks.leaseMs,
      timeoutMs: LIMITS.outboundTimeoutMs,
      retryBaseMs: LIMITS.consentRetryBaseMs,
    });
  /** Logs what a round did; returns how much work it found (a full round: go again at once). */
  const progress = (round: Partial<DispatchRound>): number => {
    const {
      dispatched = 0,
      reassigned = 0,
      delivered = 0,
      failed = 0,
      dead = 0,
      gone = 0,
      texts,
      consent,
    } = round;
    const checked = consent ? consent.verified + consent.failed + consent.retried : 0;
    const found = dispatched + reassigned + delivered + failed + dead + gone + (texts?.sent ?? 0) + checked;
    if (found > 0 || (texts?.failed ?? 0) > 0) log.info({ dispatcher: round }, 'dispatcher round');
    return found;
  };

  const runOnce = async (): Promise<DispatchRound> => {
    const at = now();
    const dispatched = await handOn(at);
    const reassigned = await reassignUnclaimed(db, at, LIMITS.dispatcherBatch);
    const sent = await sendWebhooks();
    const consent = await verifyConsent(at);
    const texts = await sendTexts(at);
    const round = { dispatched, reassigned, ...sent, texts, consent };
    progress(round);
    return round;
  };

  // Four loops, so none waits for another: handing on new messages, sending webhooks, texting, and
  // verifying consent evidence
  // (a text provider answers in hundreds of ms; a round of texts in the hand-on loop held back
  // every webhook behind it). Each goes again at once after a full round (a backlog), and after
  // LIMITS.dispatcherPollMs otherwise: under a steady stream of leads a round then takes all that
  // came in meanwhile for the same handful of statements, where going again at once after any
  // work made rounds of one or two messages (a third of the embedded database's time).
  const pause = (found: number) => (found >= LIMITS.dispatcherBatch ? 0 : LIMITS.dispatcherPollMs);
  const loops: Array<() => Promise<number>> = [
    async () => {
      const at = now();
      const dispatched = await handOn(at);
      return progress({ dispatched, reassigned: await reassignUnclaimed(db, at, LIMITS.dispatcherBatch) });
    },
    async () => progress(await sendWebhooks()),
    async () => progress({ texts: await sendTexts(now()) }),
    async () => progress({ consent: await verifyConsent(now()) }),
  ];
  let stopped = true;
  const running = new Set<Promise<void>>();
  const timers = new Set<NodeJS.Timeout>();
  const run = (step: () => Promise<number>) => {
    const turn = (async () => {
      let found = 0;
      try {
        found = await step();
      } catch (err) {
        log.warn({ err, transient: isTransientDbError(err) }, 'dispatcher round failed; trying again');
      }
      if (stopped) return;
      const timer = setTimeout(() => {
        timers.delete(timer);
        run(step);
      }, pause(found));
      timers.add(timer);
    })();
    running.add(turn);
    void turn.finally(() => running.delete(turn));
  };

  return {
    runOnce,
    start() {
      if (!stopped) return;
      stopped = false;
      for (const step of loops) run(step);
    },
    async stop() {
      stopped = true;
      for (const timer of timers) clearTimeout(timer);
      timers.clear();
      await Promise.all(running);
      try {
        await releaseTexts(db, handed.splice(0));
      } catch (err) {
        // Their lease runs out instead, and any worker claims them then.
        log.warn({ err }, 'dispatcher: texts handed to it not released');
      }
    },
  };
}
