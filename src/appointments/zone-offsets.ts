import { IANAZone } from 'luxon';

const DAY_MS = 86_400_000;
/** Day starts remembered, per answer kind across all zones, before its memory starts again. */
const REMEMBERED = 50_000;

/**
 * `ask(zone, instant)` remembered by UTC day: a day whose answer is the same at its start and at
 * the next day's start keeps that answer all day, since what a zone's clock says (its offset, its
 * short name) changes only when the zone changes its clock, and zones do that at most once in a day
 * (none does twice within 30 hours in 2020–2045; `resolveLocalTime` takes them so too). A day with
 * a change asks each time. The caller checks the zone and the instant first.
 */
export function rememberedByDay<T>(
  ask: (zone: string, utcMillis: number) => T,
): (zone: string, utcMillis: number) => T {
  const dayStarts = new Map<string, Map<number, T>>();
  let remembered = 0;
  const atDayStart = (zone: string, day: number): T => {
    let days = dayStarts.get(zone);
    if (!days) {
      days = new Map();
      dayStarts.set(zone, days);
    }
    let answer = days.get(day);
    if (answer === undefined) {
      if (remembered >= REMEMBERED) {
        dayStarts.clear();
        days.clear();
        dayStarts.set(zone, days);
        remembered = 0;
      }
      answer = ask(zone, day * DAY_MS);
      days.set(day, answer);
      remembered++;
    }
    return answer;
  };
  return (zone, utcMillis) => {
    const day = Math.floor(utcMillis / DAY_MS);
    const start = atDayStart(zone, day);
    return start === atDayStart(zone, day + 1) ? start : ask(zone, utcMillis);
  };
}

const offsetByDay = rememberedByDay((zone, utcMillis) => IANAZone.create(zone).offset(utcMillis));

/**
 * A zone's offset from UTC in minutes at an instant, as luxon's `IANAZone.offset` gives it (NaN for
 * a zone that is not one), remembered by UTC day: luxon asks Intl for every offset
 * (`formatToParts`, tens of microseconds each) and an appointment's local time asks four times.
 */
export function zoneOffset(zoneName: string, utcMillis: number): number {
  const zone = IANAZone.create(zoneName);
  if (!zone.isValid || !Number.isFinite(utcMillis)) return zone.offset(utcMillis);
  return offsetByDay(zone.name, utcMillis);
}
