import type { Queryable } from '../db/index.ts';
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
  lease_until: Date;
  phone: string | null;
  email: string | null;
}

/** Due pending checks for this worker, leased (`FOR UPDATE SKIP LOCKED`, as for webhooks), with the lead's contact. */
export async function claimDueChecks(
  db: Queryable,
  limit: number,
  leaseMs: number,
  now: Date,
): Promise<ClaimedCheck[]> {
  const { rows } = await db.query<ClaimedCheck>(
    `WITH due AS (
       SELECT agent_id, lead_id FROM consent_checks
        WHERE status = 'pending' AND next_at <= $2 AND (lease_until IS NULL OR lease_until < $2)
        ORDER BY next_at LIMIT $1 FOR UPDATE SKIP LOCKED)
     UPDATE consent_checks c SET attempts = c.attempts + 1, lease_until = $2::timestamptz + make_interval(secs => $3)
       FROM due, leads l
      WHERE c.agent_id = due.agent_id AND c.lead_id = due.lead_id AND l.agent_id = c.agent_id AND l.lead_id = c.lead_id
     RETURNING c.agent_id, c.lead_id, c.provider, c.evidence, c.attempts, c.deadline, c.lease_until, l.phone, l.email`,
    [limit, now.toISOString(), leaseMs / 1000],
  );
  return rows.map((r) => ({ ...r, deadline: new Date(r.deadline), lease_until: new Date(r.lease_until) }));
}

export type CheckResult =
  | { status: 'verified'; expires_at: string | null }
  | { status: 'failed'; reason: string }
  | { status: 'pending'; reason: string; next_at: Date };

/**
 * A claimed check's result, written only while this worker's lease holds (a worker whose lease ran
 * out writes nothing): verified or failed, shown on the lead, and on failure the lead's open call
 * tasks blocked (`consent_<reason>`) and its scheduled texts suppressed; or pending, tried again
 * at `next_at`. True when it was written.
 */
export async function finishCheck(
  db: Queryable,
  check: ClaimedCheck,
  result: CheckResult,
  now: Date,
): Promise<boolean> {
  const { rows } = await db.query<{ n: number }>(
    `WITH done AS (
       UPDATE consent_checks c SET status = $3, reason = $4, lease_until = NULL,
              checked_at = CASE WHEN $3 = 'pending' THEN c.checked_at ELSE $5::timestamptz END,
              expires_at = $6::timestamptz, next_at = COALESCE($7::timestamptz, c.next_at)
        WHERE c.agent_id = $1 AND c.lead_id = $2 AND c.status = 'pending' AND c.lease_until = $8::timestamptz
       RETURNING c.*),
     shown AS (${showConsentChecksSql('done', "c.status <> 'pending'")}),
     calls AS (
       UPDATE dial_tasks t SET status = 'blocked', blocked_reason = 'consent_' || c.reason
         FROM done c
        WHERE c.status = 'failed' AND t.agent_id = c.agent_id AND t.lead_id = c.lead_id AND t.status = 'open'
       RETURNING 1),
     texts AS (
       UPDATE sms_messages m SET status = 'suppressed', error = 'consent ' || c.reason, lease_until = NULL
         FROM done c
        WHERE c.status = 'failed' AND m.agent_id = c.agent_id AND m.lead_id = c.lead_id
          AND m.status = 'scheduled' AND m.kind = 'lead'
       RETURNING 1)
     SELECT count(*)::int AS n FROM done`,
    [
      check.agent_id,
      check.lead_id,
      result.status,
      result.status === 'verified' ? null : result.reason,
      now.toISOString(),
      result.status === 'verified' ? result.expires_at : null,
      result.status === 'pending' ? result.next_at.toISOString() : null,
      check.lease_until.toISOString(),
    ],
  );
  return (rows[0]?.n ?? 0) > 0;
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
