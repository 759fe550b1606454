/**
 * When a webhook delivery is tried again: the delay before the next attempt, after `attempts` have
 * been made, or null when the schedule is spent (the delivery is dead). The schedule
 * (LIMITS.deliveryRetrySchedule, or DELIVERY_RETRY_SCHEDULE) is the one the webhook platforms
 * converged on (Standard Webhooks, Svix): at once, then after 5 s, 5 min, 30 min, 2 h, 5 h, 10 h and
 * 10 h, about 27.5 h in all. Jitter: up to 10 % more, so a burst of failures spreads out. Pure.
 */
export function nextDelay(
  schedule: readonly number[],
  attempts: number,
  random: () => number = Math.random,
): number | null {
  const delay = schedule[attempts];
  if (delay === undefined) return null;
  return Math.round(delay * (1 + 0.1 * random()));
}
