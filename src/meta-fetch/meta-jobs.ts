import type { Queryable } from '../db/index.ts';
import type { AnnouncedLead } from '../gateway/meta-envelope.ts';
import { jobQueue } from '../jobs/queue.ts';

/** A job a fetcher has taken: it alone fetches it until its lease runs out. */
export interface MetaLeadJob extends AnnouncedLead {
  agent_id: string;
  source_id: string;
  /** Attempts made, this one included. */
  attempts: number;
}

/** The Meta fetch jobs' queue (src/jobs): a job is due at its `next_attempt_at`. */
export const metaJobs = jobQueue<MetaLeadJob>({
  table: 'meta_leads',
  key: [
    ['agent_id', 'uuid'],
    ['source_id', 'uuid'],
    ['leadgen_id', 'text'],
  ],
  waiting: 'pending',
  running: 'fetching',
  dueAt: 'next_attempt_at',
  error: 'last_error',
  updatedAt: true,
  returning:
    'j.agent_id, j.source_id, j.leadgen_id, j.form_id, j.ad_id, j.page_id, j.created_time, j.attempts',
});

/** How a job ended: a lead (created, merged or replayed), a Listen sample, or a refusal to keep. */
export type FinalOutcome =
  { status: 'done'; leadId: string } | { status: 'sampled' } | { status: 'refused'; error: string };

const settleMetaLeads = metaJobs.settler<{ lead_id: string | null }>({ also: { lead_id: 'uuid' } });

export async function finishMetaLead(db: Queryable, job: MetaLeadJob, outcome: FinalOutcome): Promise<void> {
  await settleMetaLeads(db, [
    {
      job,
      status: outcome.status,
      lead_id: outcome.status === 'done' ? outcome.leadId : null,
      error: outcome.status === 'refused' ? outcome.error : null,
    },
  ]);
}

/** A failed attempt: tried again after `retryInMs`, or dead when the schedule is spent (null). */
export async function failMetaLead(
  db: Queryable,
  job: MetaLeadJob,
  failure: { error: string; retryInMs: number | null },
): Promise<void> {
  await metaJobs.settle(db, [
    {
      job,
      status: failure.retryInMs === null ? 'dead' : 'pending',
      error: failure.error,
      due: failure.retryInMs ?? undefined,
    },
  ]);
}

/** The job, still this fetcher's claim: fetching, with the attempt count it took. */
const CLAIMED = `agent_id = $1 AND source_id = $2 AND leadgen_id = $3 AND status = 'fetching' AND attempts = $4`;
const keyOf = (job: MetaLeadJob) => [job.agent_id, job.source_id, job.leadgen_id, job.attempts];

/**
 * The page access token the attempt used (`sealedToken`, as stored; null: none was set) is no good:
 * the job stops until the agent sets a new one, and the source says so (`meta_reconnect_since`).
 * When the token was replaced meanwhile, the job is simply due again.
 */
export async function stopMetaLead(
  db: Queryable,
  job: MetaLeadJob,
  sealedToken: string | null,
  error: string,
): Promise<void> {
  await db.query(
    `WITH src AS (
       SELECT agent_id, source_id, meta_reconnect_since FROM sources
        WHERE agent_id = $1 AND source_id = $2 AND meta_page_access_token IS NOT DISTINCT FROM $6::text
     ), job AS (
       UPDATE meta_leads SET status = CASE WHEN EXISTS (SELECT FROM src) THEN 'stopped' ELSE 'pending' END,
              last_error = $5, lease_until = NULL, updated_at = now()
        WHERE ${CLAIMED}
       RETURNING agent_id
     )
     UPDATE sources s SET meta_reconnect_since = now()
       FROM src
      WHERE s.agent_id = src.agent_id AND s.source_id = src.source_id AND src.meta_reconnect_since IS NULL
        AND EXISTS (SELECT FROM job)`,
    [...keyOf(job), error.slice(0, 500), sealedToken],
  );
}
