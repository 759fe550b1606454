import { DateTime } from 'luxon';
import { FEDERAL_RULE, STATE_RULES, type ContactRule } from './tables/calling-hours.ts';

/** The rule for a prospect: the state's when it has one, else the federal window. */
export function contactRule(state: string | null | undefined): ContactRule {
  return (state && STATE_RULES[state.toUpperCase()]) || FEDERAL_RULE;
}

/**
 * The first instant at or after `now` that falls in the rule's window in `zone`: `now` itself
 * inside the window, else the next opening (today's, or tomorrow's after the close). Pure.
 */
export function nextAllowedInstant(now: Date, zone: string, rule: ContactRule): Date {
  const local = DateTime.fromJSDate(now, { zone });
  const [startH = 0, startM = 0] = rule.start.split(':').map(Number);
  const [endH = 0, endM = 0] = rule.end.split(':').map(Number);
  const opens = local.set({ hour: startH, minute: startM, second: 0, millisecond: 0 });
  const closes = local.set({ hour: endH, minute: endM, second: 0, millisecond: 0 });
  if (local >= opens && local < closes) return now;
  const next = local < opens ? opens : opens.plus({ days: 1 });
  return next.toJSDate();
}
