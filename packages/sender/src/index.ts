import type { LeadFields } from './fields.ts';
import {
  DEFAULT_RETRY,
  isTransientStatus,
  parseRetryAfter,
  retryDelayMs,
  type RetryPolicy,
} from './retry.ts';

export type { LeadFields } from './fields.ts';
export * from './retry.ts';

/**
 * A lead as a sender builds it: the gateway's canonical fields, typed, plus anything else the
 * sender has (its own names go through the gateway's alias table; unknown ones land in the lead's
 * custom fields).
 */
export type Lead = LeadFields & {
  custom_fields?: Record<string, string | number | boolean | null>;
  [other: string]: unknown;
};

/** The gateway's answer to a delivery it took (docs/sender-contract.md, "Answers"). */
export interface DeliveryAnswer {
  success: true;
  message: string;
  listen?: boolean;
  lead_id?: string;
  agent_id?: string;
  status?: string;
  scheduled_at?: string;
  appointment_timezone?: string;
  schedule_type?: string;
  auto_sync_enabled?: boolean;
  resubmit?: true;
  idempotent_replay?: true;
  ignored?: true;
  warnings?: Array<{ field: string; code: string; message: string }>;
}

/** What became of one lead. Never thrown: every outcome is a value. */
export type SendResult =
  | {
      ok: true;
      /** created a lead; merged into an existing contact; replayed the first answer to this key; listened (Listen mode: stored as a sample only); ignored (a scheduler event the gateway does not act on). */
      outcome: 'created' | 'merged' | 'replayed' | 'listened' | 'ignored';
      leadId: string | null;
      key: string;
      attempts: number;
      answer: DeliveryAnswer;
    }
  | {
      ok: false;
      /** rejected: a permanent error (fix the lead); gave_up: still failing after every try; aborted: the caller's signal. */
      reason: 'rejected' | 'gave_up' | 'aborted';
      /** The last HTTP status; null when the last try got no answer (a dropped connection, a timeout). */
      status: number | null;
      errorCode: string | null;
      message: string;
      /** What the gateway said was wrong, in plain words (its `details`), when it said. */
      details: string | null;
      key: string;
      attempts: number;
    };

/** One try, for logging: what was sent and what came back, and the wait before the next. */
export interface AttemptEvent {
  attempt: number;
  key: string;
  status: number | null;
  errorCode: string | null;
  error: string | null;
  /** The wait before the next try; null when there is none. */
  retryInMs: number | null;
}

export interface SenderOptions {
  /** The gateway's base, e.g. `https://leads.example.com` (the `/v1/inbound-lead-gateway` path is added). */
  url: string;
  /** The lead source's token. */
  token: string;
  /** `header` (x-source-token, the default) or `path` (`…/v/<token>`, for senders that cannot set headers). */
  tokenIn?: 'header' | 'path';
  /** Each try's time limit (default 10,000 ms). */
  timeoutMs?: number;
  retry?: Partial<RetryPolicy>;
  /** Called after every try (log it; never pass the token on). */
  onAttempt?: (event: AttemptEvent) => void;
  /** For tests and unusual runtimes: the fetch to use, and the clock to wait with. */
  fetch?: typeof fetch;
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
  now?: () => number;
}

export interface SendOptions {
  /** The delivery's idempotency key, kept on every retry; one is made when absent. */
  key?: string;
  /** Listen mode: the gateway maps and stores a sample, and creates nothing. */
  listen?: boolean;
  signal?: AbortSignal;
  /** Called after every try of this send, after the client's own `onAttempt` (never given the token). */
  onAttempt?: (event: AttemptEvent) => void;
}

export interface Sender {
  send(lead: Lead, options?: SendOptions): Promise<SendResult>;
}

const GATEWAY_PATH = '/v1/inbound-lead-gateway';

/**
 * Waits, or stops early when the signal aborts: the client's own wait, for code that paces its
 * sends beside the client (the CLI's importer does).
 */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(done, ms);
    function done() {
      clearTimeout(timer);
      signal?.removeEventListener('abort', done);
      resolve();
    }
    signal?.addEventListener('abort', done, { once: true });
  });
}

/**
 * A client for one lead source. Works wherever `fetch`, `AbortSignal` and `crypto.randomUUID` exist:
 * Node 20, browsers, edge runtimes.
 */
export function createSender(options: SenderOptions): Sender {
  const policy: RetryPolicy = { ...DEFAULT_RETRY, ...options.retry };
  const doFetch = options.fetch ?? globalThis.fetch.bind(globalThis);
  const wait = options.sleep ?? sleep;
  const now = options.now ?? Date.now;
  const base = options.url.replace(/\/+$/, '');
  const byPath = options.tokenIn === 'path';
  const target = byPath
    ? `${base}${GATEWAY_PATH}/v/${encodeURIComponent(options.token)}`
    : `${base}${GATEWAY_PATH}`;
  const timeoutMs = options.timeoutMs ?? 10_000;

  async function send(lead: Lead, opts: SendOptions = {}): Promise<SendResult> {
    const key = opts.key ?? crypto.randomUUID();
    const body = JSON.stringify(opts.listen ? { ...lead, listen: true } : lead);
    const headers: Record<string, string> = { 'content-type': 'application/json', 'idempotency-key': key };
    if (!byPath) headers['x-source-token'] = options.token;
    let last: { status: number | null; errorCode: string | null; message: string; details: string | null } = {
      status: null,
      errorCode: null,
      message: 'not sent',
      details: null,
    };
    const onAttempt = (event: AttemptEvent) => {
      options.onAttempt?.(event);
      opts.onAttempt?.(event);
    };
    for (let attempt = 1; attempt <= policy.maxAttempts; attempt++) {
      if (opts.signal?.aborted)
        return { ok: false, reason: 'aborted', ...last, message: 'aborted', key, attempts: attempt - 1 };
      const signals = [AbortSignal.timeout(timeoutMs), ...(opts.signal ? [opts.signal] : [])];
      let retryAfterMs: number | null = null;
      try {
        const res = await doFetch(target, {
          method: 'POST',
          headers,
          body,
          signal: AbortSignal.any(signals),
        });
        const answer = (await res.json().catch(() => null)) as Record<string, unknown> | null;
        if (res.ok && answer?.success === true) {
          const a = answer as unknown as DeliveryAnswer;
          onAttempt({
            attempt,
            key,
            status: res.status,
            errorCode: null,
            error: null,
            retryInMs: null,
          });
          return {
            ok: true,
            outcome: outcomeOf(a),
            leadId: a.lead_id ?? null,
            key,
            attempts: attempt,
            answer: a,
          };
        }
        last = {
          status: res.status,
          errorCode: typeof answer?.error_code === 'string' ? answer.error_code : null,
          message: typeof answer?.error === 'string' ? answer.error : `HTTP ${res.status}`,
          details: typeof answer?.details === 'string' ? answer.details : null,
        };
        if (!isTransientStatus(res.status)) {
          onAttempt({
            attempt,
            key,
            status: res.status,
            errorCode: last.errorCode,
            error: last.message,
            retryInMs: null,
          });
          return { ok: false, reason: 'rejected', ...last, key, attempts: attempt };
        }
        retryAfterMs = parseRetryAfter(res.headers.get('retry-after'), now());
      } catch (err) {
        if (opts.signal?.aborted)
          return { ok: false, reason: 'aborted', ...last, message: 'aborted', key, attempts: attempt };
        last = {
          status: null,
          errorCode: null,
          message: err instanceof Error ? err.message : String(err),
          details: null,
        };
      }
      const retryInMs = attempt < policy.maxAttempts ? retryDelayMs(attempt, policy, retryAfterMs) : null;
      onAttempt({
        attempt,
        key,
        status: last.status,
        errorCode: last.errorCode,
        error: last.message,
        retryInMs,
      });
      if (retryInMs === null) break;
      await wait(retryInMs, opts.signal);
    }
    if (opts.signal?.aborted)
      return { ok: false, reason: 'aborted', ...last, message: 'aborted', key, attempts: policy.maxAttempts };
    return { ok: false, reason: 'gave_up', ...last, key, attempts: policy.maxAttempts };
  }

  return { send };
}

function outcomeOf(a: DeliveryAnswer): 'created' | 'merged' | 'replayed' | 'listened' | 'ignored' {
  if (a.listen) return 'listened';
  if (a.ignored) return 'ignored';
  if (a.idempotent_replay) return 'replayed';
  if (a.resubmit) return 'merged';
  return 'created';
}
