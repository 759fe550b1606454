import type { Queryable } from '../db/index.ts';
import { NO_COUNTS, type ReportCounts } from './report-row.ts';

/** Whose purchases a report counts: an agent's, or those of an agency's sources, whoever has the lead. */
export type ReportScope = { agent_id: string } | { agency_id: string };

/**
 * Speed to lead of a lead `c` (agent_id, lead_id, delivered_at): minutes from its delivery to the
 * first text sent and to the first call outcome, null when none came.
 */
export const SPEED_TO_LEAD = `extract(epoch FROM (SELECT min(m.sent_at) FROM sms_messages m
                              WHERE m.agent_id = c.agent_id AND m.lead_id = c.lead_id AND m.status = 'sent'
                                AND m.sent_at >= c.delivered_at) - c.delivered_at) / 60 AS first_text,
         extract(epoch FROM (SELECT min(h.created_at) FROM lead_history h
                              WHERE h.agent_id = c.agent_id AND h.lead_id = c.lead_id
                                AND h.event = 'call_outcome' AND h.created_at >= c.delivered_at)
                 - c.delivered_at) / 60 AS first_call`;

/**
 * The counts of the report, one row per source that delivered in [from, to) and one of the totals
 * (source_id null), in one statement. The period picks the purchases (accepted live deliveries);
 * what became of their leads is counted whenever it happened: a lead counts for each source that
 * delivered it in the period, from its first such delivery (speed to lead is measured from there).
 */
const REPORT_SQL = `
WITH p AS MATERIALIZED (
  SELECT p.agent_id, p.purchase_id, p.lead_id, p.source_id, p.price_cents, p.billable, p.created_at
    FROM lead_purchases p
   WHERE p.created_at >= $2 AND p.created_at < $3
     AND CASE WHEN $4::boolean
              THEN p.source_id IN (SELECT source_id FROM sources WHERE agency_id = $1)
              ELSE p.agent_id = $1 END
),
bought AS (
  SELECT p.source_id, count(*) AS deliveries, count(*) FILTER (WHERE p.billable) AS billable,
         COALESCE(sum(p.price_cents) FILTER (WHERE p.billable), 0) AS billed_cents,
         count(r.return_id) AS returned, count(r.return_id) FILTER (WHERE r.status = 'credited') AS credited,
         COALESCE(sum(r.price_cents) FILTER (WHERE r.status = 'credited'), 0) AS credited_cents
    FROM p LEFT JOIN lead_returns r ON r.agent_id = p.agent_id AND r.purchase_id = p.purchase_id
   GROUP BY GROUPING SETS ((p.source_id), ())
),
cohort AS (
  SELECT source_id, agent_id, lead_id, min(created_at) AS delivered_at FROM p GROUP BY 1, 2, 3
),
became AS (
  SELECT c.source_id,
         EXISTS (SELECT 1 FROM lead_history h
                  WHERE h.agent_id = c.agent_id AND h.lead_id = c.lead_id AND h.event = 'call_outcome'
                    AND h.details ->> 'outcome' = 'reached') AS contacted,
         EXISTS (SELECT 1 FROM appointments a WHERE a.agent_id = c.agent_id AND a.lead_id = c.lead_id)
           AS appointment,
         s.sales, s.premium_cents,
         ${SPEED_TO_LEAD}
    FROM cohort c
    CROSS JOIN LATERAL (SELECT count(*) AS sales, COALESCE(sum(premium_cents), 0) AS premium_cents
                          FROM lead_sales ls WHERE ls.agent_id = c.agent_id AND ls.lead_id = c.lead_id) s
),
outcomes AS (
  SELECT source_id, count(*) FILTER (WHERE contacted) AS contacted,
         count(*) FILTER (WHERE appointment) AS appointments,
         sum(sales) AS sales, sum(premium_cents) AS premium_cents,
         percentile_cont(0.5) WITHIN GROUP (ORDER BY first_text) AS first_text_p50,
         percentile_cont(0.9) WITHIN GROUP (ORDER BY first_text) AS first_text_p90,
         percentile_cont(0.5) WITHIN GROUP (ORDER BY first_call) AS first_call_p50,
         percentile_cont(0.9) WITHIN GROUP (ORDER BY first_call) AS first_call_p90
    FROM became
   GROUP BY GROUPING SETS ((source_id), ())
)
SELECT b.source_id, s.name, b.deliveries::int, b.billable::int, b.billed_cents::bigint, b.returned::int,
       b.credited::int, b.credited_cents::bigint, COALESCE(o.contacted, 0)::int AS contacted,
       COALESCE(o.appointments, 0)::int AS appointments, COALESCE(o.sales, 0)::int AS sales,
       COALESCE(o.premium_cents, 0)::bigint AS premium_cents,
       o.first_text_p50, o.first_text_p90, o.first_call_p50, o.first_call_p90
  FROM bought b
  LEFT JOIN outcomes o ON o.source_id IS NOT DISTINCT FROM b.source_id
  LEFT JOIN sources s ON s.source_id = b.source_id
 ORDER BY b.source_id IS NULL, s.name, b.source_id`;

interface CountsRow {
  source_id: string | null;
  name: string | null;
  deliveries: number;
  billable: number;
  billed_cents: string | number;
  returned: number;
  credited: number;
  credited_cents: string | number;
  contacted: number;
  appointments: number;
  sales: number;
  premium_cents: string | number;
  first_text_p50: number | null;
  first_text_p90: number | null;
  first_call_p50: number | null;
  first_call_p90: number | null;
}

/** The report's counts: the sources' rows, by name, and the totals. */
export async function reportCounts(
  q: Queryable,
  scope: ReportScope,
  range: { from: string; to: string },
): Promise<{ sources: ReportCounts[]; totals: ReportCounts }> {
  const byAgency = 'agency_id' in scope;
  const { rows } = await q.query<CountsRow>(REPORT_SQL, [
    byAgency ? scope.agency_id : scope.agent_id,
    range.from,
    range.to,
    byAgency,
  ]);
  const counts = rows.map(toCounts);
  const totals = counts.find((c) => c.source_id === null) ?? NO_COUNTS;
  return { sources: counts.filter((c) => c.source_id !== null), totals };
}

const num = (value: string | number | null): number | null => (value === null ? null : Number(value));

function toCounts(r: CountsRow): ReportCounts {
  return {
    source_id: r.source_id,
    name: r.name,
    deliveries: r.deliveries,
    billable: r.billable,
    returned: r.returned,
    credited: r.credited,
    billed_cents: Number(r.billed_cents),
    credited_cents: Number(r.credited_cents),
    contacted: r.contacted,
    appointments: r.appointments,
    sales: r.sales,
    premium_cents: Number(r.premium_cents),
    first_text_minutes_p50: num(r.first_text_p50),
    first_text_minutes_p90: num(r.first_text_p90),
    first_call_minutes_p50: num(r.first_call_p50),
    first_call_minutes_p90: num(r.first_call_p90),
  };
}
