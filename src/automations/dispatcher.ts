import type { AutomationConfig } from '../config.ts';
import { LIMITS } from '../config.ts';
import { isTransientDbError } from '../db/database.ts';
import type { Database } from '../db/index.ts';
import type { Metrics } from '../metrics/metrics.ts';
import { fanOut } from './fan-out.ts';
import { sendDueTexts, type TextRound } from './send-texts.ts';
import { sendDueWebhooks, type WebhookRound } from './send-webhooks.ts';
import { createSmsProvider, type SmsProvider } from './sms-providers.ts';

export interface DispatchRound extends WebhookRound {
  dispatched: number;
  texts: TextRound;
}

interface Log {
  info(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
}

export interface Dispatcher {
  /** One round: hand new outbox messages on, send due webhooks, send due texts. */
  runOnce(): Promise<DispatchRound>;
  /** Rounds until stopped: at once while there is work, every LIMITS.dispatcherPollMs when idle. */
  start(): void;
  /** Stops after the round in progress. */
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
  let running: Promise<unknown> = Promise.resolve();
  let stopped = true;
  let timer: NodeJS.Timeout | undefined;

  const runOnce = async (): Promise<DispatchRound> => {
    const at = now();
    const dispatched = await fanOut(db, LIMITS.dispatcherBatch, at);
    const sent = await sendDueWebhooks(db, webhooks);
    const texts = await sendDueTexts(db, sms, {
      now: at,
      batch: LIMITS.dispatcherBatch,
      leaseMs: webhooks.leaseMs,
    });
    const round = { dispatched, ...sent, texts };
    for (const outcome of ['delivered', 'failed', 'dead', 'gone'] as const)
      opts.metrics?.webhooks.inc({ outcome }, sent[outcome]);
    for (const outcome of ['sent', 'failed', 'suppressed', 'deferred'] as const)
      opts.metrics?.texts.inc({ outcome }, texts[outcome]);
    if (dispatched + sent.delivered + sent.failed + sent.dead + sent.gone + texts.sent + texts.failed > 0) {
      log.info({ dispatcher: round }, 'dispatcher round');
    }
    return round;
  };

  const loop = async () => {
    let busy = false;
    try {
      const r = await runOnce();
      busy = r.dispatched > 0 || r.delivered + r.failed + r.dead + r.gone > 0 || r.texts.sent > 0;
    } catch (err) {
      log.warn({ err, transient: isTransientDbError(err) }, 'dispatcher round failed; trying again');
    }
    if (!stopped) timer = setTimeout(() => (running = loop()), busy ? 0 : LIMITS.dispatcherPollMs);
  };

  return {
    runOnce,
    start() {
      if (!stopped) return;
      stopped = false;
      running = loop();
    },
    async stop() {
      stopped = true;
      if (timer) clearTimeout(timer);
      await running;
    },
  };
}
