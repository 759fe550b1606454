import { DateTime } from 'luxon';
import { US_STATES } from '../ingest/tables/us-states.ts';
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
  // Inside the window (the common case) needs only the local time of day, not two more instants.
  const seconds = local.hour * 3600 + local.minute * 60 + local.second + local.millisecond / 1000;
  const opensAt = startH * 3600 + startM * 60;
  if (seconds >= opensAt && seconds < endH * 3600 + endM * 60) return now;
  // The opening is so many seconds of clock time away; while the zone keeps its offset until then,
  // as it does but on the nights clocks change, that is the instant. Else luxon works it out.
  const ahead = opensAt - seconds + (seconds < opensAt ? 0 : 86_400);
  const opens = now.getTime() + ahead * 1000;
  if (local.zone.offset(opens) === local.offset) return new Date(opens);
  const today = local.set({ hour: startH, minute: startM, second: 0, millisecond: 0 });
  return (local < today ? today : today.plus({ days: 1 })).toJSDate();
}

/**
 * The instant `minutes` of the rule's window have passed since `start` in `zone`: time outside the
 * window (nights, before the opening) does not count. What the agency's claim timer waits. Pure.
 */
export function afterWindowMinutes(start: Date, minutes: number, zone: string, rule: ContactRule): Date {
  const [endH = 0, endM = 0] = rule.end.split(':').map(Number);
  let at = nextAllowedInstant(start, zone, rule);
  let left = minutes * 60_000;
  for (;;) {
    const local = DateTime.fromJSDate(at, { zone });
    const closes = local.set({ hour: endH, minute: endM, second: 0, millisecond: 0 }).toMillis();
    if (left <= closes - at.getTime()) return new Date(at.getTime() + left);
    left -= closes - at.getTime();
    at = nextAllowedInstant(new Date(closes), zone, rule);
  }
}

/** `20:00` as people say it: `8 p.m.`, `8:30 a.m.`. */
function spoken(hhmm: string): string {
  const [h = 0, m = 0] = hhmm.split(':').map(Number);
  const hour = h % 12 === 0 ? 12 : h % 12;
  return `${hour}${m ? `:${String(m).padStart(2, '0')}` : ''} ${h < 12 ? 'a.m.' : 'p.m.'}`;
}

/**
 * The calling hours a prospect's state allows, in words the agent reads beside a closed window:
 * "Florida: calls 8 a.m.–8 p.m."; without a state rule, the federal one. Pure.
 */
export function describeCallingHours(state: string | null | undefined): string {
  const code = state?.toUpperCase();
  const own = code ? STATE_RULES[code] : undefined;
  const rule = own ?? FEDERAL_RULE;
  const hours = `calls ${spoken(rule.start)}–${spoken(rule.end)}`;
  if (!own || !code) return `Federal rule: ${hours} their time`;
  const name = (US_STATES as Record<string, string>)[code] ?? code;
  return `${name.replace(/\b\w/g, (c) => c.toUpperCase())}: ${hours}`;
}
