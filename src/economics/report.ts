import type { Queryable } from '../db/index.ts';
import { reportCounts, SPEED_TO_LEAD, type ReportScope } from './report-query.ts';
import { reportRow, minutes, type ReportRow } from './report-row.ts';

export type { ReportScope } from './report-query.ts';

export interface LeadReport {
  from: string;
  to: string;
  sources: ReportRow[];
  totals: ReportRow;
}

/** What each source's leads cost and earned in [from, to): the database counts, the rows divide. */
export async function leadReport(
  q: Queryable,
  scope: ReportScope,
  range: { from: string; to: string },
): Promise<LeadReport> {
  const counts = await reportCounts(q, scope, range);
  return {
    from: range.from,
    to: range.to,
    sources: counts.sources.map(reportRow),
    totals: reportRow(counts.totals),
  };
}

/** Speed to lead in one week of deliveries (from Monday 00:00 in the agent's zone), for the console's chart. */
export interface WeekSpeed {
  week: string;
  leads: number;
  first_text_minutes_p50: number | null;
  first_call_minutes_p50: number | null;
}

const WEEKLY_SQL = `
WITH cohort AS (
  SELECT agent_id, lead_id, min(created_at) AS delivered_at FROM lead_purchases p
   WHERE created_at >= $2 AND created_at < $3
     AND CASE WHEN $4::boolean
              THEN source_id IN (SELECT source_id FROM sources WHERE agency_id = $1)
              ELSE agent_id = $1 END
   GROUP BY 1, 2
), speed AS (
  SELECT date_trunc('week', c.delivered_at AT TIME ZONE $5) AS week,
         ${SPEED_TO_LEAD}
    FROM cohort c
)
SELECT to_char(week, 'YYYY-MM-DD') AS week, count(*)::int AS leads,
       percentile_cont(0.5) WITHIN GROUP (ORDER BY first_text) AS first_text,
       percentile_cont(0.5) WITHIN GROUP (ORDER BY first_call) AS first_call
  FROM speed GROUP BY week ORDER BY week`;

/**
 * The median speed to lead of each week of the period that had deliveries, oldest first; weeks
 * begin on Monday in `zone` (the agent's), as the period's days do.
 */
export async function weeklySpeed(
  q: Queryable,
  scope: ReportScope,
  range: { from: string; to: string },
  zone: string,
): Promise<WeekSpeed[]> {
  const byAgency = 'agency_id' in scope;
  const { rows } = await q.query<{
    week: string;
    leads: number;
    first_text: number | null;
    first_call: number | null;
  }>(WEEKLY_SQL, [byAgency ? scope.agency_id : scope.agent_id, range.from, range.to, byAgency, zone]);
  return rows.map((r) => ({
    week: r.week,
    leads: r.leads,
    first_text_minutes_p50: minutes(r.first_text === null ? null : Number(r.first_text)),
    first_call_minutes_p50: minutes(r.first_call === null ? null : Number(r.first_call)),
  }));
}
