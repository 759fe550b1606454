/** Whether a delivery may be billed by its vendor, and why not. */
export interface Bill {
  billable: boolean;
  /** Null when billable; `duplicate`: a repeat of a contact the source was paid for lately. */
  reason: 'duplicate' | null;
}

const DAY_MS = 86_400_000;

/**
 * A live delivery's bill: not billable when the same source's last billed delivery of this lead
 * came less than `duplicateDays` days before `at` (0 bills every repeat); billable otherwise,
 * a new contact always. Pure.
 */
export function billDelivery(duplicateDays: number, lastBilledAt: Date | null, at: Date): Bill {
  if (lastBilledAt !== null && at.getTime() - lastBilledAt.getTime() < duplicateDays * DAY_MS)
    return { billable: false, reason: 'duplicate' };
  return { billable: true, reason: null };
}
