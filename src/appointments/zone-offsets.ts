import { IANAZone } from 'luxon';

const DAY_MS = 86_400_000;
/** Day starts remembered across all zones before the memory starts again (a few MB at most). */
const REMEMBERED = 50_000;

/** Each zone's offset at the start of each UTC day asked about: zone → day number → minutes. */
const dayStarts = new Map<string, Map<number, number>>();
let remembered = 0;

/**
 * A zone's offset from UTC in minutes at an instant, as luxon's `IANAZone.offset` gives it (NaN for
 * a zone that is not one), remembered by UTC day: luxon asks Intl for every offset
 * (`formatToParts`, tens of microseconds each) and an appointment's local time asks four times.
 * A day whose offset is the same at its start and at the next day's start keeps that offset all
 * day: zones change at most once in a day, as `resolveLocalTime` also takes them to. A day with a
 * change (two a year in a zone with DST) asks luxon each time.
 */
export function zoneOffset(zoneName: string, utcMillis: number): number {
  const zone = IANAZone.create(zoneName);
  if (!zone.isValid || !Number.isFinite(utcMillis)) return zone.offset(utcMillis);
  const day = Math.floor(utcMillis / DAY_MS);
  const start = offsetAtDayStart(zone, day);
  return start === offsetAtDayStart(zone, day + 1) ? start : zone.offset(utcMillis);
}

function offsetAtDayStart(zone: IANAZone, day: number): number {
  let days = dayStarts.get(zone.name);
  if (!days) {
    days = new Map();
    dayStarts.set(zone.name, days);
  }
  let offset = days.get(day);
  if (offset === undefined) {
    if (remembered >= REMEMBERED) {
      dayStarts.clear();
      remembered = 0;
      dayStarts.set(zone.name, days);
      days.clear();
    }
    offset = zone.offset(day * DAY_MS);
    days.set(day, offset);
    remembered++;
  }
  return offset;
}
