import { DateTime } from 'luxon';

/** The calendar day and month an instant falls in, in a zone, as the first date of each. */
export interface CapPeriods {
  day: string;
  month: string;
}

/**
 * The periods a delivery at `at` counts in: its day and its month in `zone` (the agent's or the
 * agency's), so a cap starts again at local midnight, not UTC's. Pure.
 */
export function capPeriods(at: number, zone: string): CapPeriods {
  const local = DateTime.fromMillis(at, { zone });
  const here = local.isValid ? local : DateTime.fromMillis(at, { zone: 'UTC' });
  return { day: here.toISODate() ?? '', month: here.startOf('month').toISODate() ?? '' };
}
