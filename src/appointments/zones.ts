import { IANAZone } from 'luxon';
import stateTable from './data/state-timezones.json' with { type: 'json' };

let spellings: Map<string, string> | undefined;
const sameClockCache = new Map<string, boolean>();

const knownZones = new Map<string, boolean>();
const KNOWN_ZONES_MAX = 1_000;

/**
 * True when `name` is a time zone the runtime's tz database knows (case-insensitive, like Intl).
 * Remembered: luxon's check makes a new Intl.DateTimeFormat each time (tens of microseconds, and
 * ICU memory outside the JavaScript heap), and every delivery asks about its agent's zone. Names a
 * sender made up are remembered too, up to KNOWN_ZONES_MAX names, then the memory starts again.
 */
export function isKnownZone(name: string): boolean {
  if (name.length === 0) return false;
  let known = knownZones.get(name);
  if (known === undefined) {
    known = IANAZone.isValidZone(name);
    if (knownZones.size >= KNOWN_ZONES_MAX) knownZones.clear();
    knownZones.set(name, known);
  }
  return known;
}

/**
 * The usual spelling of a zone name sent in another case ("america/chicago" → "America/Chicago").
 * Intl's own resolved name is not used: it turns current names into legacy ones
 * (America/Indiana/Indianapolis → America/Indianapolis, Asia/Kolkata → Asia/Calcutta).
 */
export function canonicalZoneName(name: string): string {
  if (spellings === undefined) {
    spellings = new Map();
    const usZones = Object.values(stateTable.states).flatMap((s) => s.zones);
    for (const zone of [...Intl.supportedValuesOf('timeZone'), ...usZones, 'UTC']) {
      spellings.set(zone.toLowerCase(), zone);
    }
  }
  return spellings.get(name.toLowerCase()) ?? name;
}

/**
 * Whether two zones keep the same clock today: the same UTC offset in mid-January and mid-July of
 * the current year. Datasets disagree on names (libphonenumber says America/New_York where the ZIP
 * data says America/Indiana/Indianapolis); what matters for an appointment is the clock.
 */
export function sameClock(a: string, b: string): boolean {
  if (a === b) return true;
  const key = `${a}|${b}`;
  const cached = sameClockCache.get(key);
  if (cached !== undefined) return cached;
  const year = new Date().getUTCFullYear();
  const probes = [Date.UTC(year, 0, 15, 12), Date.UTC(year, 6, 15, 12)];
  const za = IANAZone.create(a);
  const zb = IANAZone.create(b);
  const same = za.isValid && zb.isValid && probes.every((t) => za.offset(t) === zb.offset(t));
  sameClockCache.set(key, same);
  return same;
}

/** Same UTC offset in mid-January: what a US abbreviation like "MST" or "CST" pins down. */
export function sameStandardOffset(a: string, b: string): boolean {
  const january = Date.UTC(new Date().getUTCFullYear(), 0, 15, 12);
  const za = IANAZone.create(a);
  const zb = IANAZone.create(b);
  return za.isValid && zb.isValid && za.offset(january) === zb.offset(january);
}
