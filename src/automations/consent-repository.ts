import type { Queryable } from '../db/index.ts';
import { jobQueue } from '../jobs/queue.ts';
import { showConsentChecksSql } from '../leads/lead-changes.ts';
import type { ConsentProvider } from './consent-evidence.ts';

/**
 * The consent checks of new leads whose source asks for one, made in the fan-out's round after its
 * call tasks (the statements of a round run in order): `verified` sources get a pending check of
 * the lead's certificate (or LeadiD token), `present` ones a check that is `present` at once; a lead
 * with neither has failed (`no_consent_evidence`) and its call task is blocked. The lead shows it.
 */
export const CREATE_CONSENT_CHECKS = `WITH asked AS (
  SELECT l.agent_id, l.lead_id, s.consent,
         NULLIF(COALESCE(l.consent ->> 'consent_cert_url', l.fields ->> 'consent_cert_url'), '') AS cert,
         NULLIF(COALESCE(l.consent ->> 'consent_token', l.fields ->> 'consent_token'), '') AS token
    FROM unnest($1::uuid[], $2::uuid[]) AS x (agent_id, lead_id)
    JOIN leads l ON l.agent_id = x.agent_id AND l.lead_id = x.lead_id
    JOIN sources s ON s.source_id = l.source_id
   WHERE s.consent <> 'none'),
made AS (
  INSERT INTO consent_checks AS c (agent_id, lead_id, provider, evidence, status, reason, next_at, deadline, checked_at)
  SELECT agent_id, lead_id,
         CASE WHEN cert IS NOT NULL THEN 'trustedform' WHEN token IS NOT NULL THEN 'jornaya' ELSE 'none' END,
         COALESCE(cert, token, ''),
         CASE WHEN cert IS NULL AND token IS NULL THEN 'failed' WHEN consent = 'present' THEN 'present' ELSE 'pending' END,
         CASE WHEN cert IS NULL AND token IS NULL THEN 'no_consent_evidence' END,
         $3::timestamptz, $3::timestamptz + make_interval(secs => $4),
         CASE WHEN (cert IS NULL AND token IS NULL) OR consent = 'present' THEN $3::timestamptz END
    FROM asked
  ON CONFLICT (agent_id, lead_id) DO NOTHING
  RETURNING c.*),
shown AS (${showConsentChecksSql('made')})
UPDATE dial_tasks t SET status = 'blocked', blocked_reason = 'consent_' || c.reason
  FROM made c
 WHERE c.status = 'failed' AND t.agent_id = c.agent_id AND t.lead_id = c.lead_id AND t.status = 'open'`;

/** The checks of these new leads (CREATE_CONSENT_CHECKS), in the caller's transaction. */
export async function createConsentChecks(
  tx: Queryable,
  leads: ReadonlyArray<{ agent_id: string; lead_id: string }>,
  now: Date,
  deadlineMs: number,
): Promise<void> {
  if (leads.length === 0) return;
  await tx.query(CREATE_CONSENT_CHECKS, [
    leads.map((l) => l.agent_id),
    leads.map((l) => l.lead_id),
    now.toISOString(),
    deadlineMs / 1000,
  ]);
}

export interface ClaimedCheck {
  agent_id: string;
  lead_id: string;
  provider: ConsentProvider;
  evidence: string;
  attempts: number;
  deadline: Date;
  phone: string | null;
  email: string | null;
}

/**
 * The consent checks' queue (src/jobs): a check is due at its `next_at`; a claim returns the lead's
 * contact with it. A check being asked keeps its status `pending`, as the lead shows it.
 */
export const consentJobs = jobQueue<ClaimedCheck>({
  table: 'consent_checks',
  key: [
    ['agent_id', 'uuid'],
    ['lead_id', 'uuid'],
  ],
  waiting: 'pending',
  running: 'pending',
  dueAt: 'next_at',
  error: 'reason',
  claimWith: { from: 'leads l', on: 'l.agent_id = j.agent_id AND l.lead_id = j.lead_id' },
  returning: 'j.agent_id, j.lead_id, j.provider, j.evidence, j.attempts, j.deadline, l.phone, l.email',
});

export type CheckResult =
  | { status: 'verified'; expires_at: string | null }
  | { status: 'failed'; reason: string }
  | { status: 'pending'; reason: string; next_at: Date };

/**
 * Claimed checks' results, over their claims: verified or failed, shown on the lead, and on failure
 * the lead's open call tasks blocked (`consent_<reason>`) and its scheduled texts suppressed; or
 * pending, tried again at `next_at`.
 */
const settleChecks = consentJobs.settler<{ expires_at: string | null }>({
  also: { expires_at: 'timestamptz' },
  set: (clock) => `checked_at = CASE WHEN x.status = 'pending' THEN j.checked_at ELSE ${clock} END`,
  returning: 'j.*',
  then: () => `,
shown AS (${showConsentChecksSql('settled', "c.status <> 'pending'")}),
calls AS (
  UPDATE dial_tasks t SET status = 'blocked', blocked_reason = 'consent_' || c.reason
    FROM settled c
   WHERE c.status = 'failed' AND t.agent_id = c.agent_id AND t.lead_id = c.lead_id AND t.status = 'open'
  RETURNING 1),
texts AS (
  UPDATE sms_messages m SET status = 'suppressed', error = 'consent ' || c.reason, lease_until = NULL
    FROM settled c
   WHERE c.status = 'failed' AND m.agent_id = c.agent_id AND m.lead_id = c.lead_id
     AND m.status = 'scheduled' AND m.kind = 'lead'
  RETURNING 1)
SELECT count(*)::int AS n FROM settled`,
});

/** A claimed check's result (settleChecks); false when its claim was no longer this worker's. */
export async function finishCheck(
  db: Queryable,
  check: ClaimedCheck,
  result: CheckResult,
  now: Date | undefined,
): Promise<boolean> {
  const written = await settleChecks(
    db,
    [
      {
        job: check,
        status: result.status,
        error: result.status === 'verified' ? null : result.reason,
        due: result.status === 'pending' ? result.next_at : undefined,
        expires_at: result.status === 'verified' ? result.expires_at : null,
      },
    ],
    {},
    now,
  );
  return written > 0;
}

/** What holds a lead's automatic contact: its check pending (until when), or failed (why). */
export type ConsentHold = { wait_until: Date } | { failed: string };

/** Of these leads, those whose consent check holds their contact, in one query, by `agent lead`. */
export async function consentHolds(
  db: Queryable,
  leads: ReadonlyArray<{ agent_id: string; lead_id: string }>,
  now: Date,
): Promise<Map<string, ConsentHold>> {
  if (leads.length === 0) return new Map();
  const { rows } = await db.query<{
    agent_id: string;
    lead_id: string;
    status: string;
    reason: string | null;
    next_at: Date;
    deadline: Date;
  }>(
    `SELECT c.agent_id, c.lead_id, c.status, c.reason, c.next_at, c.deadline
       FROM unnest($1::uuid[], $2::uuid[]) AS x (agent_id, lead_id)
       JOIN consent_checks c ON c.agent_id = x.agent_id AND c.lead_id = x.lead_id
      WHERE c.status IN ('pending', 'failed')`,
    [leads.map((l) => l.agent_id), leads.map((l) => l.lead_id)],
  );
  return new Map(
    rows.map((r) => {
      const deadline = new Date(r.deadline);
      const hold: ConsentHold =
        r.status === 'failed'
          ? { failed: r.reason ?? 'failed' }
          : deadline.getTime() <= now.getTime()
            ? { failed: 'timeout' }
            : {
                wait_until: new Date(
                  Math.min(
                    Math.max(new Date(r.next_at).getTime(), now.getTime() + 1_000),
                    deadline.getTime(),
                  ),
                ),
              };
      return [`${r.agent_id} ${r.lead_id}`, hold];
    }),
  );
}

/** Whether a call task's lead waits on its consent check or failed it, as an SQL expression of two others. */
export const consentHeldSql = (agent: string, lead: string): string =>
  `EXISTS (SELECT FROM consent_checks c WHERE c.agent_id = ${agent} AND c.lead_id = ${lead} AND c.status IN ('pending', 'failed'))`;
