/**
 * The arithmetic of the per-source report (docs/economics.md), pure: what the database counted for
 * a source, or for all of them, made into the row the agent reads. A cost or a rate with nothing to
 * divide by is null, never 0 or infinity.
 */

/** What the report's query counts for one source (or the totals), before any division. */
export interface ReportCounts {
  source_id: string | null;
  name: string | null;
  deliveries: number;
  billable: number;
  returned: number;
  credited: number;
  /** The prices of the billable deliveries. */
  billed_cents: number;
  /** The prices of the credited returns. */
  credited_cents: number;
  contacted: number;
  appointments: number;
  sales: number;
  premium_cents: number;
  first_text_minutes_p50: number | null;
  first_text_minutes_p90: number | null;
  first_call_minutes_p50: number | null;
  first_call_minutes_p90: number | null;
}

/** A source's row (or the totals) as the agent reads it: the counts, spend and what it bought. */
export interface ReportRow extends Omit<ReportCounts, 'billed_cents' | 'credited_cents'> {
  spend_cents: number;
  cost_per_lead_cents: number | null;
  cost_per_appointment_cents: number | null;
  cost_per_sale_cents: number | null;
  return_rate: number | null;
}

/** The counts of a period without deliveries. */
export const NO_COUNTS: ReportCounts = {
  source_id: null,
  name: null,
  deliveries: 0,
  billable: 0,
  returned: 0,
  credited: 0,
  billed_cents: 0,
  credited_cents: 0,
  contacted: 0,
  appointments: 0,
  sales: 0,
  premium_cents: 0,
  first_text_minutes_p50: null,
  first_text_minutes_p90: null,
  first_call_minutes_p50: null,
  first_call_minutes_p90: null,
};

/** The row's fields, in the order the API and the CSV give them. */
export const REPORT_FIELDS = [
  'source_id',
  'name',
  'deliveries',
  'billable',
  'returned',
  'credited',
  'spend_cents',
  'contacted',
  'appointments',
  'sales',
  'premium_cents',
  'cost_per_lead_cents',
  'cost_per_appointment_cents',
  'cost_per_sale_cents',
  'return_rate',
  'first_text_minutes_p50',
  'first_text_minutes_p90',
  'first_call_minutes_p50',
  'first_call_minutes_p90',
] as const satisfies ReadonlyArray<keyof ReportRow>;

/** Whole cents of `cents / count`, half away from zero; null when there is nothing to divide by. */
export function perCount(cents: number, count: number): number | null {
  if (count <= 0) return null;
  const exact = cents / count;
  return Math.sign(exact) * Math.round(Math.abs(exact));
}

/** `part / whole` to four places; null when the whole is 0. */
export function rate(part: number, whole: number): number | null {
  if (whole <= 0) return null;
  return Math.round((part / whole) * 10_000) / 10_000;
}

/** Minutes to one decimal place, or null. */
export function minutes(value: number | null): number | null {
  return value === null ? null : Math.round(value * 10) / 10;
}

/**
 * A report row from its counts. Spend is what the billable deliveries cost less what the vendor
 * credited back; a lead is a billable delivery not credited; the return rate is of the billable
 * deliveries (only those can be returned).
 */
export function reportRow(c: ReportCounts): ReportRow {
  const spend = c.billed_cents - c.credited_cents;
  return {
    source_id: c.source_id,
    name: c.name,
    deliveries: c.deliveries,
    billable: c.billable,
    returned: c.returned,
    credited: c.credited,
    spend_cents: spend,
    contacted: c.contacted,
    appointments: c.appointments,
    sales: c.sales,
    premium_cents: c.premium_cents,
    cost_per_lead_cents: perCount(spend, c.billable - c.credited),
    cost_per_appointment_cents: perCount(spend, c.appointments),
    cost_per_sale_cents: perCount(spend, c.sales),
    return_rate: rate(c.returned, c.billable),
    first_text_minutes_p50: minutes(c.first_text_minutes_p50),
    first_text_minutes_p90: minutes(c.first_text_minutes_p90),
    first_call_minutes_p50: minutes(c.first_call_minutes_p50),
    first_call_minutes_p90: minutes(c.first_call_minutes_p90),
  };
}
