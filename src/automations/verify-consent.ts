import type { ConsentProviders } from '../config.ts';
import type { JobKind } from '../jobs/runner.ts';
import { consentRequest, readConsentAnswer, type ConsentOutcome } from './consent-evidence.ts';
import { consentJobs, finishCheck, type CheckResult, type ClaimedCheck } from './consent-repository.ts';
import { post } from './post.ts';

export interface ConsentRound {
  verified: number;
  failed: number;
  retried: number;
}

export interface ConsentSettings {
  batch: number;
  timeoutMs: number;
  retryBaseMs: number;
}

/**
 * Consent checks as a kind of job: the checks whose time has come are asked of their providers
 * (consent-evidence.ts), all of a round at once. No answer, a 5xx or a 429 is asked again after
 * `retryBaseMs`, twice that, … until the check's deadline; at the deadline it has failed (`timeout`).
 */
export function consentKind(
  providers: ConsentProviders,
  settings: ConsentSettings,
): JobKind<ClaimedCheck, ConsentRound> {
  return {
    name: 'consent',
    queue: consentJobs,
    batch: settings.batch,
    async handle(db, claimed, at) {
      const now = at ?? new Date();
      const round: ConsentRound = { verified: 0, failed: 0, retried: 0 };
      await Promise.all(
        claimed.map(async (row) => {
          const check = { ...row, deadline: new Date(row.deadline) };
          const opts = { ...settings, now };
          const result = toResult(check, await ask(check, providers, opts), opts);
          if (await finishCheck(db, check, result, at))
            round[result.status === 'pending' ? 'retried' : result.status]++;
        }),
      );
      return round;
    },
  };
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
