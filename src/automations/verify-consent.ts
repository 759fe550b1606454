import type { ConsentProviders } from '../config.ts';
import type { Database } from '../db/index.ts';
import { consentRequest, readConsentAnswer, type ConsentOutcome } from './consent-evidence.ts';
import { claimDueChecks, finishCheck, type CheckResult, type ClaimedCheck } from './consent-repository.ts';
import { post } from './post.ts';

export interface ConsentRound {
  verified: number;
  failed: number;
  retried: number;
}

/**
 * Verifies the consent checks whose time has come, with their providers (consent-evidence.ts),
 * all of a round at once: claimed under a lease, so no two workers ask for one check, and written
 * only while the lease holds. No answer, a 5xx or a 429 is asked again after `retryBaseMs`, twice
 * that, … until the check's deadline; at the deadline it has failed (`timeout`).
 */
export async function verifyDueConsent(
  db: Database,
  providers: ConsentProviders,
  opts: { now: Date; batch: number; leaseMs: number; timeoutMs: number; retryBaseMs: number },
): Promise<ConsentRound> {
  const round: ConsentRound = { verified: 0, failed: 0, retried: 0 };
  const claimed = await claimDueChecks(db, opts.batch, opts.leaseMs, opts.now);
  await Promise.all(
    claimed.map(async (check) => {
      const result = toResult(check, await ask(check, providers, opts), opts);
      if (await finishCheck(db, check, result, opts.now))
        round[result.status === 'pending' ? 'retried' : result.status]++;
    }),
  );
  return round;
}

async function ask(
  check: ClaimedCheck,
  providers: ConsentProviders,
  opts: { now: Date; timeoutMs: number },
): Promise<ConsentOutcome> {
  if (check.deadline.getTime() <= opts.now.getTime()) return { status: 'failed', reason: 'timeout' };
  const request = consentRequest(check.provider, check.evidence, check, providers);
  if ('refused' in request) return { status: 'failed', reason: request.refused };
  // Never more time than the deadline leaves: a slow provider cannot hold contact past it.
  const timeoutMs = Math.max(1, Math.min(opts.timeoutMs, check.deadline.getTime() - opts.now.getTime()));
  try {
    const answer = await post(request.url, {
      headers: request.headers,
      body: request.body,
      timeoutMs,
      readBody: true,
    });
    return readConsentAnswer(check.provider, answer.status, answer.body);
  } catch {
    return { status: 'retry', reason: 'no_answer' };
  }
}

function toResult(
  check: ClaimedCheck,
  outcome: ConsentOutcome,
  opts: { now: Date; retryBaseMs: number },
): CheckResult {
  if (outcome.status !== 'retry') return outcome;
  // The last try is at the deadline itself, where `ask` fails it as `timeout`.
  const next = opts.now.getTime() + opts.retryBaseMs * 2 ** Math.min(check.attempts - 1, 10);
  return {
    status: 'pending',
    reason: outcome.reason,
    next_at: new Date(Math.min(next, check.deadline.getTime())),
  };
}
