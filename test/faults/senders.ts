/**
 * Lead senders that behave as the contract tells them (docs/sender-contract.md, "Errors"): a
 * transient answer (429, 5xx) or a broken connection is retried with exponential backoff and the
 * same idempotency key — here on the next gateway process, as a load balancer would — and a
 * permanent refusal is never retried. The backoff is the contract's 1, 2, 4, 8, 16 s scaled down
 * twenty times, so a test run takes seconds.
 */
export interface Ack {
  contact: number;
  key: string;
  lead_id: string;
  replay: boolean;
  /** performance.now() when the answer came. */
  at: number;
}

export interface SenderStats {
  acks: Ack[];
  /** Deliveries never acknowledged within the retry budget. */
  gaveUp: number;
  /** Answers that must not happen to a well-formed delivery (4xx other than 429). */
  refused: Array<{ status: number; body: string }>;
  attempts: number;
  transient: number;
  /** How many answers had each status (0: the connection broke). */
  statuses: Record<number, number>;
  /** 503 answers that did not say when to retry (`Retry-After`). */
  withoutRetryAfter: number;
  /** Set when the run is lost anyway (a process died by itself): senders stop at once. */
  stopped: boolean;
}

const GATEWAY = '/v1/inbound-lead-gateway';
const BACKOFF_MS = [50, 100, 200, 400, 800];
const BUDGET_MS = 45_000;

export function newStats(): SenderStats {
  return {
    acks: [],
    gaveUp: 0,
    refused: [],
    attempts: 0,
    transient: 0,
    statuses: {},
    withoutRetryAfter: 0,
    stopped: false,
  };
}

export function contactBody(contact: number, round: string): object {
  return {
    name: `Fault Contact ${contact}`,
    phone: `${312 + (contact % 3)}55${String(contact).padStart(5, '0')}`.slice(0, 10),
    email: `contact${contact}@faults.example`,
    notes: `round ${round}`,
    ...(contact % 4 === 0 ? { scheduled_at: `2027-0${1 + (contact % 9)}-15T15:00:00Z` } : {}),
  };
}

/** One delivery until it is acknowledged, refused, or the retry budget runs out. */
export async function deliver(
  stats: SenderStats,
  urls: readonly string[],
  token: string,
  contact: number,
  key: string,
  round: string,
  first: number,
): Promise<Ack | null> {
  const started = Date.now();
  for (let attempt = 0; ; attempt++) {
    if (stats.stopped) return null;
    const url = urls[(first + attempt) % urls.length];
    stats.attempts++;
    let status = 0;
    let text = '';
    try {
      const res = await fetch(`${url}${GATEWAY}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-source-token': token, 'idempotency-key': key },
        body: JSON.stringify(contactBody(contact, round)),
        signal: AbortSignal.timeout(15_000),
      });
      status = res.status;
      text = await res.text();
      if (status === 503 && !res.headers.get('retry-after')) stats.withoutRetryAfter++;
    } catch {
      status = 0; // the connection broke: the process died, or is restarting
    }
    stats.statuses[status] = (stats.statuses[status] ?? 0) + 1;
    if (status === 200) {
      const body = JSON.parse(text) as { lead_id: string; idempotent_replay?: boolean };
      const ack = {
        contact,
        key,
        lead_id: body.lead_id,
        replay: body.idempotent_replay === true,
        at: performance.now(),
      };
      stats.acks.push(ack);
      return ack;
    }
    if (status >= 400 && status < 500 && status !== 429) {
      stats.refused.push({ status, body: text });
      return null;
    }
    stats.transient++;
    if (Date.now() - started > BUDGET_MS) {
      stats.gaveUp++;
      return null;
    }
    const wait = BACKOFF_MS[Math.min(attempt, BACKOFF_MS.length - 1)] ?? 800;
    await new Promise((resolve) => setTimeout(resolve, wait + Math.random() * wait * 0.2));
  }
}

/** Runs `jobs` with `concurrency` workers; `onProgress` sees the share done after each job. */
export async function runJobs(
  jobs: Array<() => Promise<unknown>>,
  concurrency: number,
  onProgress: (done: number, total: number) => void,
): Promise<void> {
  let next = 0;
  let done = 0;
  const total = jobs.length;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      for (let job = jobs[next++]; job; job = jobs[next++]) {
        await job();
        onProgress(++done, total);
      }
    }),
  );
}
