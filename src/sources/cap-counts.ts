import type { Queryable } from '../db/index.ts';
import { run, sql } from '../db/statement.ts';
import type { CapPeriods } from './cap-periods.ts';
import type { Caps } from './terms.ts';

/** Which cap a delivery found full; null: it took its place under every cap. */
export type FullCap = 'daily' | 'monthly' | null;

// One row per capped period, day before month (every delivery locks them in the same order). A row
// at its cap is left as it is and not returned; the caller then rolls the whole delivery back, so
// the other period's count goes too.
const TAKE = sql(
  (p) => `INSERT INTO source_cap_counts AS c (agent_id, source_id, period, period_start, used)
  SELECT ${p('agent_id', 'uuid')}, ${p('source_id', 'uuid')}, v.period, v.period_start, 1
    FROM (VALUES ('day', ${p('day', 'date')}, ${p('daily', 'integer')}),
                 ('month', ${p('month', 'date')}, ${p('monthly', 'integer')})) AS v (period, period_start, cap)
   WHERE v.cap IS NOT NULL
   ORDER BY v.period
  ON CONFLICT (agent_id, source_id, period, period_start) DO UPDATE SET used = c.used + 1
   WHERE c.used < CASE c.period WHEN 'day' THEN ${p('daily', 'integer')} ELSE ${p('monthly', 'integer')} END
  RETURNING c.period`,
);

/**
 * Counts one accepted delivery under the source's caps, inside the delivery's transaction: the
 * conditional upsert row-locks each period's count, so concurrent deliveries on any number of
 * processes take the places one by one. A full cap is returned with nothing counted that the
 * transaction's rollback does not undo.
 */
export async function takeCapPlace(
  tx: Queryable,
  source: { agent_id: string; source_id: string },
  caps: Caps,
  periods: CapPeriods,
): Promise<FullCap> {
  const { rows } = await run<{ period: string }, string>(tx, TAKE, {
    agent_id: source.agent_id,
    source_id: source.source_id,
    day: periods.day,
    month: periods.month,
    daily: caps.daily ?? null,
    monthly: caps.monthly ?? null,
  });
  const counted = new Set(rows.map((r) => r.period));
  if (caps.daily !== undefined && !counted.has('day')) return 'daily';
  if (caps.monthly !== undefined && !counted.has('month')) return 'monthly';
  return null;
}
