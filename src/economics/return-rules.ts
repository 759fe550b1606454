import type { JsonObject } from '../json.ts';

/** Why a lead goes back to its vendor: the reasons vendors' return policies name. */
export const RETURN_REASONS = [
  'disconnected',
  'wrong_number',
  'duplicate',
  'out_of_area',
  'consumer_denies',
  'age',
  'fraud',
  'other',
] as const;
export type ReturnReason = (typeof RETURN_REASONS)[number];

export const RETURN_DECISIONS = ['credited', 'denied'] as const;
export type ReturnDecision = (typeof RETURN_DECISIONS)[number];

/**
 * When a purchase can no longer be returned: `window_hours` after it was made; a window of 0 takes
 * no returns at all (null). Pure.
 */
export function returnDeadline(purchasedAt: Date, windowHours: number): Date | null {
  if (windowHours <= 0) return null;
  return new Date(purchasedAt.getTime() + windowHours * 3_600_000);
}

/** Whether a return asked at `now` is inside the window (the deadline itself is past it). */
export function isReturnable(purchasedAt: Date, windowHours: number, now: Date): boolean {
  const deadline = returnDeadline(purchasedAt, windowHours);
  return deadline !== null && now.getTime() < deadline.getTime();
}

/** What the database knows of a lead that a vendor asks to see. */
export interface ReturnFacts {
  /** Every call recorded on the lead, oldest first. */
  calls: ReadonlyArray<{ at: string; outcome: string }>;
  phone: string | null;
  state: string | null;
  age: string | null;
  /** The delivery of the same contact before the one returned, if any. */
  earlier: { source_id: string; delivered_at: string } | null;
}

/**
 * The evidence a return carries, by reason. Every reason carries the dial attempts and their
 * outcomes (what a vendor asks first); a bad number names the number, a duplicate the earlier
 * delivery, out of area the state, age the age. Pure: the facts are read beforehand.
 */
export function returnEvidence(reason: ReturnReason, facts: ReturnFacts): JsonObject {
  const calls = facts.calls.map((c) => ({ at: c.at, outcome: c.outcome }));
  const evidence: JsonObject = { dial_attempts: calls.length, calls };
  switch (reason) {
    case 'disconnected':
    case 'wrong_number':
      evidence.phone = facts.phone;
      break;
    case 'duplicate':
      evidence.earlier = facts.earlier ? { ...facts.earlier } : null;
      break;
    case 'out_of_area':
      evidence.state = facts.state;
      break;
    case 'age':
      evidence.age = facts.age;
      break;
    default:
      break;
  }
  return evidence;
}
