import type { Queryable } from '../db/index.ts';
import { run, sql } from '../db/statement.ts';
import { currentSourceSql, currentSourceValues } from '../sources/source-repository.ts';
import type { AnnouncedLead } from './meta-envelope.ts';
import type { SourceClaim } from './source-directory.ts';

// The Meta fetch jobs (migrations/0022-meta-connector.sql): one per leadgen_id and source, queued
// by the envelope's request; the fetcher (src/meta-fetch) claims them from their queue.

const QUEUE = sql<'token_hash' | 'source_id' | 'revision' | 'jobs'>(
  (p) => `WITH src AS (
  SELECT s.agent_id, s.source_id FROM sources s WHERE ${currentSourceSql('s', p)}
), queued AS (
  INSERT INTO meta_leads (agent_id, source_id, leadgen_id, form_id, ad_id, page_id, created_time)
  SELECT src.agent_id, src.source_id, j.leadgen_id, j.form_id, j.ad_id, j.page_id, j.created_time
    FROM src, json_to_recordset(${p('jobs', 'json')})
         AS j (leadgen_id text, form_id text, ad_id text, page_id text, created_time text)
  ON CONFLICT (agent_id, source_id, leadgen_id) DO NOTHING
  RETURNING leadgen_id
)
SELECT (SELECT count(*) FROM src)::int AS authentic, (SELECT count(*) FROM queued)::int AS queued`,
);

/**
 * Queues a job per announced lead, in one statement that also checks the token as every write of a
 * delivery does (`currentSourceSql`); a lead already queued is left as it is, so a repeated
 * envelope queues nothing. Null: the token or the source changed (nothing written); else how many
 * jobs are new.
 */
export async function queueMetaLeads(
  db: Queryable,
  claim: SourceClaim,
  leads: readonly AnnouncedLead[],
): Promise<number | null> {
  const { rows } = await run<{ authentic: number; queued: number }, string>(db, QUEUE, {
    ...currentSourceValues(claim.tokenHash, claim.source),
    jobs: JSON.stringify(leads),
  });
  const row = rows[0];
  return row && row.authentic > 0 ? row.queued : null;
}

/** A new page access token: the source's stopped jobs are due again, with a fresh schedule. */
export async function resumeStoppedMetaLeads(
  db: Queryable,
  agentId: string,
  sourceId: string,
): Promise<void> {
  await db.query(
    `UPDATE meta_leads SET status = 'pending', attempts = 0, next_attempt_at = now(), updated_at = now()
      WHERE agent_id = $1 AND source_id = $2 AND status = 'stopped'`,
    [agentId, sourceId],
  );
}
